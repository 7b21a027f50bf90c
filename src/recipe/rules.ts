// Policy rules as written (recipe or --allow/--deny) and what a pattern may look like for each
// kind of tool. The policy module decides matches; this module rejects patterns that could never
// mean what their author thinks, before anything runs.
import type { PolicyRule } from './types.js';

/** How a rule's pattern is matched: shell words, a workspace path glob, a URL host, or none. */
export type RuleKind = 'shell' | 'path' | 'host' | 'name';

const PATH_TOOLS = new Set(['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files']);

export function ruleKind(tool: string): RuleKind {
  if (tool === 'shell') return 'shell';
  if (tool === 'web_fetch') return 'host';
  return PATH_TOOLS.has(tool) ? 'path' : 'name';
}

export function makeRule(tool: string, pattern: string | null): PolicyRule {
  return { tool, pattern, source: pattern === null ? tool : `${tool}: ${pattern}` };
}

/** Why `pattern` is not usable for `tool`, or null when it is. */
export function patternProblem(tool: string, pattern: string): string | null {
  if (pattern.trim() === '') return `rule '${tool}' has an empty pattern: write \`- ${tool}\` for the whole tool`;
  switch (ruleKind(tool)) {
    case 'shell':
      return shellPatternProblem(pattern);
    case 'path':
      return pathPatternProblem(pattern);
    case 'host':
      return hostPatternProblem(pattern);
    case 'name':
      return `tool '${tool}' takes no pattern: write \`- ${tool}\` to name the whole tool`;
  }
}

// Operators, expansions and quotes: a rule matches one simple command of plain words.
const SHELL_SPECIAL = /[;&|<>`$(){}'"\\\n\r\t]/;

function shellPatternProblem(pattern: string): string | null {
  const special = SHELL_SPECIAL.exec(pattern);
  if (special)
    return `shell pattern '${pattern}' contains ${JSON.stringify(special[0])}: a pattern is plain words matching one simple command (write one rule per command)`;
  const words = pattern.trim().split(/\s+/);
  if (words.length === 1 && words[0] === '*')
    return "shell pattern '*' matches every command: write the bare tool name `- shell` if that is meant";
  const starAt = words.findIndex((w) => w.includes('*'));
  if (starAt >= 0 && (words[starAt] !== '*' || starAt !== words.length - 1))
    return `shell pattern '${pattern}': \`*\` may only be the last word (standing for any trailing arguments), e.g. "git diff *"`;
  return null;
}

function pathPatternProblem(pattern: string): string | null {
  if (/^([/~]|[A-Za-z]:[\\/])/.test(pattern))
    return `path pattern '${pattern}' must be relative to the workspace, e.g. "src/**"`;
  if (pattern.split(/[\\/]/).includes('..'))
    return `path pattern '${pattern}' leaves the workspace: file tools never reach outside it`;
  return null;
}

const HOST = /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function hostPatternProblem(pattern: string): string | null {
  if (HOST.test(pattern)) return null;
  const what = /^[a-z]+:\/\//i.test(pattern) ? 'is a URL' : 'is not a host';
  return `web_fetch pattern '${pattern}' ${what}: a web_fetch rule names a host, e.g. "docs.python.org" or "*.python.org"`;
}

/** `tool:pattern` or a bare `tool`, split on the first ':' (as --allow and --deny take them). */
export function splitCliRule(text: string): { tool: string; pattern: string | null } {
  const at = text.indexOf(':');
  if (at < 0) return { tool: text.trim(), pattern: null };
  return { tool: text.slice(0, at).trim(), pattern: text.slice(at + 1).trim() };
}
