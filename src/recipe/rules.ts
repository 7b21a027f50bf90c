// The rule grammar: the one place that says what a confirmation rule is and what it means.
// `validate`, `--allow`/`--deny`, the running policy and `policy check` all compile rules here,
// so a rule validate accepts is the rule the policy evaluates, and a rule that cannot be compiled
// is reported by validate with its position (and, if it ever reached the policy, denies).
//   - a bare tool name (`- shell`, `- github__create_issue`) matches every call of that tool;
//   - `server__*` matches every tool of one MCP server (bare only);
//   - `shell`: one command of literal words, `*` only as the last word (rule-shell.ts);
//   - file tools: a glob over the workspace-relative path (rule-path.ts);
//   - `web_fetch`: a host, `*.` subdomains, optionally a port (rule-host.ts).
import { compileHostPattern, type HostPattern } from './rule-host.js';
import { compilePathPattern, type PathPattern } from './rule-path.js';
import { compileShellPattern, type ShellPattern } from './rule-shell.js';
import type { PolicyRule, RulePosition } from './types.js';
import { NO_CONFIRMATION_TOOLS, type BuiltinToolName } from '../tools/names.js';

export type { HostPattern } from './rule-host.js';
export type { PathPattern } from './rule-path.js';
export { SHELL_KEYWORDS, UNQUOTED_WORD_CHAR, type ShellPattern } from './rule-shell.js';

/** How a rule's pattern is matched: shell words, a workspace path glob, a URL host, or none. */
export type RuleKind = 'shell' | 'path' | 'host' | 'name';

/** Tools whose rule pattern is a path glob. */
export const PATH_TOOLS: ReadonlySet<string> = new Set(['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files']);

export function ruleKind(tool: string): RuleKind {
  if (tool === 'shell') return 'shell';
  if (tool === 'web_fetch') return 'host';
  return PATH_TOOLS.has(tool) ? 'path' : 'name';
}

interface RuleHead {
  tool: string;
  /** As written, for reasons and reports: `shell: git diff *`. */
  source: string;
  position: RulePosition | null;
}

/** A rule parsed once into what the policy evaluates. `any`: a bare tool name (or `server__*`). */
export type CompiledRule = RuleHead &
  (
    | { kind: 'any'; matcher: null }
    | { kind: 'shell'; matcher: ShellPattern }
    | { kind: 'path'; matcher: PathPattern }
    | { kind: 'host'; matcher: HostPattern }
  );

export type RuleCompilation = { ok: true; rule: CompiledRule } | { ok: false; reason: string };

const MCP_WILDCARD = /^[A-Za-z0-9_.-]+__\*$/;

export function makeRule(tool: string, pattern: string | null, position: RulePosition | null = null): PolicyRule {
  const rule: PolicyRule = { tool, pattern, source: pattern === null ? tool : `${tool}: ${pattern}` };
  if (position) rule.position = position;
  return rule;
}

/** The rule as the recipe writes it, for reasons and reports. */
export function formatRule(rule: Pick<PolicyRule, 'tool' | 'pattern' | 'source'>): string {
  if (rule.source) return rule.source;
  return rule.pattern === null ? rule.tool : `${rule.tool}: ${rule.pattern}`;
}

/** ` (at fix.yaml:14)` for a rule the recipe writes, '' for one from a flag: denials say where to look. */
export function ruleWhere(rule: { position?: RulePosition | null }): string {
  const at = rule.position;
  return at ? ` (at ${at.file.split(/[\\/]/).pop()}:${at.line})` : '';
}

/**
 * True when the rule is about calls of `tool`. `server__*` is about the tools of the MCP server
 * `server` (`mcpServer`, its alias) and nothing else: a discovered or built-in tool whose name
 * merely starts the same is not one of them. A tool name with a `*` anywhere but in a
 * `server__*` suffix is malformed: it is treated as about every tool, so that its failure to
 * compile denies rather than silently matching nothing.
 */
export function ruleAppliesTo(rule: Pick<PolicyRule, 'tool'>, tool: string, mcpServer: string | null = null): boolean {
  if (rule.tool === tool) return true;
  if (MCP_WILDCARD.test(rule.tool)) return mcpServer !== null && rule.tool.slice(0, -'__*'.length) === mcpServer;
  return rule.tool.includes('*');
}

const cache = new Map<string, RuleCompilation>();

/** Parse a rule into its matcher, or say why it cannot mean anything. Pure; cached per tool and pattern. */
export function compileRule(rule: PolicyRule): RuleCompilation {
  const key = `${rule.tool}\0${rule.pattern ?? '\0'}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compile(rule.tool, rule.pattern);
    cache.set(key, compiled);
  }
  if (!compiled.ok) return compiled;
  return { ok: true, rule: { ...compiled.rule, source: formatRule(rule), position: rule.position ?? null } };
}

function compile(tool: string, pattern: string | null): RuleCompilation {
  const head = { tool, source: '', position: null };
  if (tool.trim() === '') return { ok: false, reason: "the rule names no tool: write 'tool: pattern' or a bare tool name" };
  if (tool.includes('*') && !MCP_WILDCARD.test(tool)) {
    return { ok: false, reason: `'${tool}' is not a tool name: '*' is only allowed as 'server__*', for every tool of an MCP server` };
  }
  if (pattern === null) return { ok: true, rule: { ...head, kind: 'any', matcher: null } };
  if (MCP_WILDCARD.test(tool)) return { ok: false, reason: `'${tool}' takes no pattern: it already names every tool of the server` };
  const kind = ruleKind(tool);
  if (kind === 'name') return { ok: false, reason: `the tool '${tool}' takes no pattern: write the bare \`- ${tool}\` to name the whole tool` };
  if (pattern.trim() === '') return { ok: false, reason: `the rule '${tool}' has an empty pattern: write the bare \`- ${tool}\` for every call` };
  if (kind === 'shell') {
    const result = compileShellPattern(pattern);
    return result.ok ? { ok: true, rule: { ...head, kind, matcher: result.matcher } } : result;
  }
  if (kind === 'path') {
    const result = compilePathPattern(pattern);
    return result.ok ? { ok: true, rule: { ...head, kind, matcher: result.matcher } } : result;
  }
  const result = compileHostPattern(pattern);
  return result.ok ? { ok: true, rule: { ...head, kind, matcher: result.matcher } } : result;
}

/** Why the rule cannot be used, or null: what validate and the flags report. */
export function ruleProblem(tool: string, pattern: string | null): string | null {
  const result = compileRule(makeRule(tool, pattern));
  return result.ok ? null : result.reason;
}

/**
 * Why an allow rule with a pattern would mislead, or null. `read_file: docs/**` reads as "reads
 * only under docs", but read_file never asks for confirmation, so every read runs whatever the
 * rule says: refused, as a rule that changes nothing is, with the rule that does limit it.
 */
export function unlimitingAllowRule(tool: string, pattern: string | null, written: 'recipe' | 'flag'): string | null {
  if (pattern === null || !NO_CONFIRMATION_TOOLS.has(tool as BuiltinToolName)) return null;
  const deny = written === 'flag' ? `--deny '${tool}:secrets/**'` : `deny: [{${tool}: "secrets/**"}]`;
  const example = ruleKind(tool) === 'path' ? ` (${deny})` : '';
  return `'${tool}' never asks for confirmation (it changes nothing), so an allow rule cannot limit it: every ${tool} call runs, whatever the pattern. To keep it from something, write a deny rule${example}: deny rules count for every tool`;
}

/** `tool:pattern` or a bare `tool`, split on the first ':' (as --allow and --deny take them). */
export function splitCliRule(text: string): { tool: string; pattern: string | null } {
  const at = text.indexOf(':');
  if (at < 0) return { tool: text.trim(), pattern: null };
  return { tool: text.slice(0, at).trim(), pattern: text.slice(at + 1).trim() };
}
