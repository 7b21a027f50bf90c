// Denials grouped so a recipe author reads in one glance which rules the model kept hitting and
// what it kept trying: a denial loop of forty calls is two lines, not forty.
import type { Denial, DenialSummary } from './report.js';

/** The argument that says what a call was about, in the order tools name it. */
const TARGET_ARGS = ['command', 'file_path', 'absolute_path', 'path', 'url', 'pattern', 'query'];
const MAX_CALL_CHARS = 200;

export function summarizeDenials(denials: readonly Denial[]): DenialSummary {
  const byRule = new Map<string, { rule: string | null; reason: string; count: number }>();
  const byCall = new Map<string, { tool: string; call: string; count: number }>();
  for (const d of denials) {
    const ruleKey = d.rule ?? `\u0000${d.reason}`;
    const rule = byRule.get(ruleKey) ?? byRule.set(ruleKey, { rule: d.rule, reason: d.reason, count: 0 }).get(ruleKey)!;
    rule.count++;
    const call = callText(d.args);
    const callKey = `${d.tool}\u0000${call}`;
    const entry = byCall.get(callKey) ?? byCall.set(callKey, { tool: d.tool, call, count: 0 }).get(callKey)!;
    entry.count++;
  }
  const frequentFirst = <T extends { count: number }>(items: Iterable<T>) => [...items].sort((a, b) => b.count - a.count);
  return { by_rule: frequentFirst(byRule.values()), by_call: frequentFirst(byCall.values()) };
}

function callText(args: Record<string, unknown>): string {
  const key = TARGET_ARGS.find((k) => typeof args[k] === 'string' && args[k] !== '');
  const text = key ? String(args[key]) : JSON.stringify(args);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CALL_CHARS ? `${flat.slice(0, MAX_CALL_CHARS - 1)}…` : flat;
}
