// Other agents' names for the built-in tools (their table: tools/peer-names.ts), and their rule syntax (Claude Code's `Bash(git
// status:*)`, Gemini CLI's `run_shell_command(git status)`): a user coming from them writes those
// in --tools, --allow, --deny and a recipe's rules. They are never taken as ours (a rule decides
// what runs, and their patterns do not match as ours do): the refusal says what to write here
// instead, translated by what the rule means there, so the hint keeps the rule's reach: Gemini
// CLI's `run_shell_command(rm)` refuses every rm command, which here is `shell:rm *`, not the bare
// `rm` alone; Claude Code's `/src/**` is the project's src, not the file system's.

import { NO_CONFIRMATION_TOOLS, type BuiltinToolName } from '../tools/names.js';
import { claudeMcpName, multi, own } from '../tools/peer-names.js';

/** Tools whose rule pattern is a workspace path here (rules.ts PATH_TOOLS; not imported, to keep this file a leaf). */
const PATH_TOOLS = new Set(['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files']);


/** For `Read`: "that is Claude Code's name: here it is 'read_file'"; null for a name no peer uses. */
export function peerToolNameHint(name: string): string | null {
  const known = own(name);
  if (known) return `that is ${known.peer}'s name: here it is '${known.tool}'`;
  const several = multi(name);
  if (several) return `that is ${several.peer}'s name: here its commands are tools of their own, ${several.tools.map((t) => `'${t.tool}' (${t.commands})`).join(', ')}`;
  const mcp = claudeMcpName(name);
  return mcp ? `that is Claude Code's name for ${mcp.tool === '*' ? `every tool of MCP server '${mcp.server}'` : `MCP server '${mcp.server}''s tool '${mcp.tool}'`}: here it is '${mcp.server}__${mcp.tool}'` : null;
}

/** `peer`: whose syntax it is (null when unknown); `foreign`: written in a peer's form, not ours. */
type Translated = { peer: string | null; foreign: boolean } & ({ rule: { tool: string; pattern: string | null } } | { outside: string; tool: string });

/** One rule of a peer's in our terms (several for a tool that is several here); null when `item` is not written in a peer's syntax. */
function translateAll(item: string, ours: (name: string) => boolean): Translated[] | null {
  const m = /^([A-Za-z_]+)\(([\s\S]*)\)$/.exec(item);
  const several = multi(m ? m[1]! : item);
  if (!several) {
    const one = translate(item, ours);
    return one && [one];
  }
  // Each tool in its turn, under a name of ours, translated as the same rule for it would be.
  const all = several.tools.map((t) => translate(m ? `${t.tool}(${m[2]})` : t.tool, () => true));
  return all.map((t) => ({ ...t!, peer: several.peer, foreign: true }));
}

function translate(item: string, ours: (name: string) => boolean): Translated | null {
  const m = /^([A-Za-z_]+)\(([\s\S]*)\)$/.exec(item);
  if (!m) {
    const known = own(item);
    if (known) return { peer: known.peer, foreign: true, rule: { tool: known.tool, pattern: null } };
    const mcp = claudeMcpName(item);
    if (mcp) return { peer: 'Claude Code', foreign: true, rule: { tool: `${mcp.server}__${mcp.tool}`, pattern: null } };
    return ours(item) ? { peer: null, foreign: false, rule: { tool: item, pattern: null } } : null;
  }
  const [, name, inner] = m as unknown as [string, string, string];
  const known = own(name);
  const tool = known?.tool ?? name;
  const at = { peer: known?.peer ?? null, foreign: true };
  const peer = at.peer;
  let pattern = inner.trim();
  if (pattern === '' || pattern === '*') return { ...at, rule: { tool, pattern: null } };
  if (tool === 'shell') {
    // Claude Code's `:*` ends a prefix; Gemini CLI's command is a prefix whatever it ends with.
    pattern = pattern.replace(/:\*$/, ' *');
    if (peer === 'Gemini CLI' && !/(^| )\*$/.test(pattern)) pattern = `${pattern} *`;
  } else if (tool === 'web_fetch') {
    pattern = pattern.replace(/^domain:/, '');
  } else if (PATH_TOOLS.has(tool) && peer === 'Claude Code') {
    // Claude Code: `//x` is absolute, `~/x` the home's, `/x` the project's, `x` and `./x` the directory's.
    if (pattern.startsWith('//') || pattern.startsWith('~')) return { ...at, outside: pattern, tool };
    pattern = pattern.replace(/^\.?\/+/, '');
    if (pattern === '' || pattern === '**') return { ...at, rule: { tool, pattern: null } };
  }
  return { ...at, rule: { tool, pattern } };
}

/** The items of a peer's list of rules: `Bash(git log:*),Read` or `Bash(ls:*) Read`, split outside parentheses. */
function items(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (current) out.push(current);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

export interface PeerRuleContext {
  /** Where the rule is written: as a flag's value, or an item of a recipe's rule list. */
  written: { flag: '--allow' | '--deny' } | 'recipe';
  /** In a recipe: whether the rule is in `allow` (a flag says it by its name). */
  kind?: 'allow' | 'deny';
  /** Whether a bare word is one of our tool names (kept as it is in a list of a peer's rules). */
  isOurTool?: (name: string) => boolean;
}

/**
 * For a rule in a peer's `Tool(pattern)` form, or a list of them as Claude Code's --allowedTools
 * takes (`Bash(git log:*),Read`), what to write here; null for any other text.
 */
export function peerRuleHint(text: string, context: PeerRuleContext): string | null {
  const ours = context.isOurTool ?? (() => false);
  const parts = items(text);
  const translated = parts.map((p) => translateAll(p, ours));
  if (!translated.length || translated.some((t) => t === null)) return null;
  const all = (translated as Translated[][]).flat();
  // A single bare name (`Read`, `mcp__github`) is a tool name, which the caller's own message answers.
  if (!all.some((t) => t.foreign) || (parts.length === 1 && !parts[0]!.includes('('))) return null;
  const peers = [...new Set(all.map((t) => t.peer).filter((p) => p !== null))];
  const whose = peers.length === 1 ? `${peers[0]}'s` : "another agent's";
  const allowing = context.written === 'recipe' ? context.kind === 'allow' : context.written.flag === '--allow';
  // Claude Code's `Read(./src/**)` allows reads there without asking; here a read never asks, and
  // an allow rule with a pattern for it is refused: the hint gives the bare tool instead.
  const patternless = allowing ? all.flatMap((t) => ('rule' in t && t.rule.pattern !== null && NO_CONFIRMATION_TOOLS.has(t.rule.tool as BuiltinToolName) ? [t.rule.tool] : [])) : [];
  const rules = all.flatMap((t) => ('rule' in t ? [patternless.includes(t.rule.tool) ? { tool: t.rule.tool, pattern: null } : t.rule] : []));
  const leaveOut = outsideNote(all) + neverAsksNote(patternless);
  // One rule of a tool that is several here (goose's text_editor) is a rule for each of them.
  const written = rules.map((r) => format(r, context.written, rules.length === 1));
  if (parts.length === 1) return `that is ${whose} rule syntax${written.length ? `; here write ${written.join(context.written === 'recipe' ? ', ' : ' ')}` : ''}${leaveOut}`;
  const each = context.written === 'recipe' ? 'an item of the list of its own' : 'a flag of its own';
  return `that is ${whose} list of rules${written.length ? `; here each rule is ${each}: ${written.join(context.written === 'recipe' ? ', ' : ' ')}` : ''}${leaveOut}`;
}

/** Tools whose pattern a hint left out of an allow rule: they never ask, so a pattern limits nothing. */
function neverAsksNote(tools: string[]): string {
  const names = [...new Set(tools)];
  return names.length
    ? `; ${names.map((t) => `'${t}'`).join(', ')} never ${names.length === 1 ? 'asks' : 'ask'} for confirmation here (${names.length === 1 ? 'it changes' : 'they change'} nothing), so an allow rule's pattern cannot limit ${names.length === 1 ? 'it' : 'them'}: a deny rule keeps ${names.length === 1 ? 'it' : 'them'} from a path`
    : '';
}

/** Patterns outside the workspace (Claude Code's `~/.ssh/**`), which no rule here names. */
function outsideNote(all: Translated[]): string {
  const outside = all.flatMap((t) => ('outside' in t ? [t.outside] : []));
  return outside.length
    ? `; ${outside.map((p) => `'${p}'`).join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the workspace, which the file tools never leave here, so no rule names ${outside.length === 1 ? 'it' : 'them'} (the sandbox's hide keeps commands from a path)`
    : '';
}

/**
 * For an entry of a list of tools (`--tools`, a recipe's `tools`) written as a peer lists its tools:
 * a rule (Gemini CLI's `coreTools: ["run_shell_command(git)"]`, Claude Code's `--allowedTools
 * 'Bash(git log:*)'`), where the name goes in the list and what the pattern restricts is an allow
 * rule here; or several names in one (`Read Grep`). Null for any other text (a bare name: the
 * caller's own message answers it).
 */
export function peerToolListHint(text: string, written: '--tools' | 'recipe', isOurTool: (name: string) => boolean): string | null {
  const parts = items(text);
  const translated = parts.map((p) => translateAll(p, isOurTool));
  if (translated.length === 0 || translated.some((t) => t === null)) return null;
  const all = (translated as Translated[][]).flat();
  if (parts.length === 1 && !parts[0]!.includes('(')) return null;
  // `foo(bar)` is no peer's tool either: the caller's own "unknown tool" answers it.
  if (all.some((t) => !isOurTool('rule' in t ? t.rule.tool : t.tool))) return null;
  const peers = [...new Set(all.map((t) => t.peer).filter((p) => p !== null))];
  const whose = peers.length === 0 ? null : peers.length === 1 ? `${peers[0]}'s` : "another agent's";
  const tools = [...new Set(all.map((t) => ('rule' in t ? t.rule.tool : t.tool)))];
  const patterned = all.flatMap((t) => ('rule' in t && t.rule.pattern !== null ? [t.rule] : []));
  const rules = patterned.filter((r) => !NO_CONFIRMATION_TOOLS.has(r.tool as BuiltinToolName));
  const patternless = patterned.filter((r) => NO_CONFIRMATION_TOOLS.has(r.tool as BuiltinToolName)).map((r) => r.tool);
  const list = written === 'recipe' ? `tools: [${tools.join(', ')}]` : `--tools ${tools.join(',')}`;
  const allowed = !rules.length
    ? ''
    : written === 'recipe'
      ? `, and what ${rules.length === 1 ? 'its pattern lets it do' : 'their patterns let them do'} is an allow rule under \`confirmation: {mode: allowlist}\`: ${rules.map((r) => format(r, 'recipe', false)).join(', ')}`
      : `, and what ${rules.length === 1 ? 'its pattern lets it do' : 'their patterns let them do'} is an allow rule: --approval allowlist ${rules.map((r) => format(r, { flag: '--allow' }, false)).join(' ')}`;
  const what = parts.length === 1 ? 'rule syntax' : 'list of tools';
  const said = whose ? `that is ${whose} ${what}` : parts.length === 1 ? "that is a rule, not a tool's name" : 'that is several tools in one entry';
  return `${said}; here write ${list}${allowed}${outsideNote(all)}${neverAsksNote(patternless)}`;
}

/** A rule as a recipe's list item (`- shell: "rm *"`), or as a flag's value: alone `'shell:rm *'`, in a list `--deny 'shell:rm *'`. */
function format(rule: { tool: string; pattern: string | null }, written: PeerRuleContext['written'], alone: boolean): string {
  if (written === 'recipe') return rule.pattern === null ? `- ${rule.tool}` : `- ${rule.tool}: ${JSON.stringify(rule.pattern)}`;
  const text = rule.pattern === null ? rule.tool : `${rule.tool}:${rule.pattern}`;
  // Quoted as a shell takes it: a rule with a single quote in it goes in double quotes when nothing there expands.
  const word = !text.includes("'") ? `'${text}'` : /["$`\\!]/.test(text) ? `'${text.replaceAll("'", `'\\''`)}'` : `"${text}"`;
  return alone ? word : `${written.flag} ${word}`;
}
