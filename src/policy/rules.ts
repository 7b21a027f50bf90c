// Recipe rules: which tool a rule is about, and what its pattern means for that tool.
//   - a bare tool name (`- shell`, `- github__create_issue`) matches every call of that tool;
//     a bare `shell` rule is the user's explicit "any command" (deny rules still apply);
//   - `server__*` matches every tool of one MCP server (bare only);
//   - `shell`: a command pattern (`git diff *`), see shell-rules.ts;
//   - file tools: a glob over the workspace-relative path, see path-rules.ts;
//   - `web_fetch`: a host (`example.org`, `*.example.org`), see host-rules.ts.
// Any other pattern does not compile, and a rule that does not compile denies the calls it is about.
import type { PolicyRule } from '../recipe/types.js';
import { compileHostPattern, type HostPattern } from './host-rules.js';
import { compilePathPattern, PATH_TOOLS, type PathPattern } from './path-rules.js';
import { compileShellPattern, type ShellPattern } from './shell-rules.js';

export type CompiledRule =
  | { rule: PolicyRule; kind: 'any' }
  | { rule: PolicyRule; kind: 'shell'; pattern: ShellPattern }
  | { rule: PolicyRule; kind: 'path'; pattern: PathPattern }
  | { rule: PolicyRule; kind: 'host'; pattern: HostPattern };

const MCP_WILDCARD = /^[A-Za-z0-9_-]+__\*$/;

/** The rule as the recipe writes it, for reasons and reports. */
export function formatRule(rule: PolicyRule): string {
  if (rule.source) return rule.source;
  return rule.pattern === null ? rule.tool : `${rule.tool}: ${rule.pattern}`;
}

/**
 * True when the rule is about calls of `tool`. A tool name with a `*` anywhere but in a
 * `server__*` suffix is malformed: it is treated as about every tool, so that its failure to
 * compile denies rather than silently matching nothing.
 */
export function ruleAppliesTo(rule: PolicyRule, tool: string): boolean {
  if (rule.tool === tool) return true;
  if (MCP_WILDCARD.test(rule.tool)) return tool.startsWith(rule.tool.slice(0, -1));
  return rule.tool.includes('*');
}

export async function compileRule(rule: PolicyRule): Promise<{ ok: true; compiled: CompiledRule } | { ok: false; reason: string }> {
  if (rule.tool.includes('*') && !MCP_WILDCARD.test(rule.tool)) {
    return { ok: false, reason: `'${rule.tool}' is not a tool name; '*' is only allowed as 'server__*' for all tools of an MCP server` };
  }
  if (rule.pattern === null) return { ok: true, compiled: { rule, kind: 'any' } };
  if (MCP_WILDCARD.test(rule.tool)) return { ok: false, reason: `'${rule.tool}' takes no pattern` };
  if (rule.tool === 'shell') {
    const result = await compileShellPattern(rule.pattern);
    return result.ok ? { ok: true, compiled: { rule, kind: 'shell', pattern: result.pattern } } : result;
  }
  if (PATH_TOOLS.has(rule.tool)) {
    const result = compilePathPattern(rule.pattern);
    return result.ok ? { ok: true, compiled: { rule, kind: 'path', pattern: result.pattern } } : result;
  }
  if (rule.tool === 'web_fetch') {
    const result = compileHostPattern(rule.pattern);
    return result.ok ? { ok: true, compiled: { rule, kind: 'host', pattern: result.pattern } } : result;
  }
  return { ok: false, reason: `the tool '${rule.tool}' takes no pattern; write a bare '- ${rule.tool}' rule` };
}

/** For recipe validation: why the rule cannot be used, or null. */
export async function checkRule(rule: PolicyRule): Promise<string | null> {
  try {
    const result = await compileRule(rule);
    return result.ok ? null : result.reason;
  } catch (error) {
    return `the rule could not be compiled (${(error as Error).message})`;
  }
}
