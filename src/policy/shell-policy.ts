// The shell tool under the policy: deny rules against every command a line may run, and under
// `allowlist`, every command of the line matched by an allow rule, argument guards, and path
// arguments kept inside the workspace.
import type { PolicyDecision } from '../types/policy.js';
import type { Workspace } from '../util/workspace.js';
import { ruleWhere, type CompiledRule } from './rules.js';
import { clip } from './clip.js';
import { analyzeShellCommand, type ShellAnalysis } from './shell-analyze.js';
import { argumentGuards } from './shell-guards.js';
import { ShellDirectories, type WriteDenyRule } from './shell-paths.js';
import { deniableCommands, denyMatch, type ShellPattern } from './shell-rules.js';
import { allowMatches, scriptOutsideRule } from './allow-match.js';
import { pipeLines } from './shell-line-runners.js';
import { withConfiguredAliases } from './git-config-aliases.js';
import { withGhAliases } from './gh-aliases.js';
import { expandLineGlobs } from './shell-globs.js';

/** For decide.ts, which imports this module on first use: the syntax check of a line under a bare rule. */
export { shellSyntaxProblem } from './shell-analyze.js';

type ShellRule = Extract<CompiledRule, { kind: 'shell' }>;

/** One analysis per command line per decision, shared by the deny and allow checks. */
export class ShellAnalyses {
  private readonly results = new Map<string, Promise<ShellAnalysis>>();

  /** A line as allow rules read it, or a script inside one (`bash -c '…'`): a glob in it is refused. */
  get(command: string): Promise<ShellAnalysis> {
    return this.cached(`\0${command}`, () => analyzeShellCommand(command));
  }

  /** The line the call runs in `directory` as deny rules read it: its globs expanded against the files there (shell-globs.ts). */
  line(command: string, directory: string): Promise<ShellAnalysis> {
    return this.cached(`${directory}\0${command}`, async () => expandLineGlobs(await analyzeShellCommand(command, { globs: true }), directory));
  }

  private cached(key: string, analyse: () => Promise<ShellAnalysis>): Promise<ShellAnalysis> {
    let result = this.results.get(key);
    if (!result) {
      result = analyse();
      this.results.set(key, result);
    }
    return result;
  }
}

const deny = (reason: string, rule: string | null = null): PolicyDecision => ({ decision: 'deny', reason, rule });

const unevaluable = new WeakSet<PolicyDecision>();

/** A denial because the deny rules could not be checked (not because one matched). */
export function isUnevaluableDenial(decision: PolicyDecision): boolean {
  return unevaluable.has(decision);
}

function cannotCheck(command: string, why: string): PolicyDecision {
  const decision = deny(`shell command '${clip(command)}' cannot be checked against the deny rules, so it is refused: ${why}`);
  unevaluable.add(decision);
  return decision;
}

/** A denial when a deny rule matches any command `command` (run in `directory`, in the workspace `root`) may run, or when that cannot be told. */
export async function shellDenyDecision(command: string, rules: ShellRule[], analyses: ShellAnalyses, directory: string, root: string): Promise<PolicyDecision | null> {
  if (rules.length === 0) return null;
  const analysis = await analyses.line(command, directory);
  if (!analysis.ok) return cannotCheck(command, analysis.reason);
  const deniable = await deniableCommands(analysis);
  if (!deniable.ok) return cannotCheck(command, deniable.reason);
  // `git p` runs what alias.p in git's configuration says, which no word of the line shows.
  const gitExpanded = await withConfiguredAliases(deniable.candidates, directory, root);
  if (!gitExpanded.ok) return cannotCheck(command, gitExpanded.reason);
  // Likewise `gh co`, and `gh alias set co '!…'` writes what it will run.
  const expanded = await withGhAliases(gitExpanded.candidates);
  if (!expanded.ok) return cannotCheck(command, expanded.reason);
  // Each command as a whole first, so the reason names the rule its program is denied by.
  for (const where of ['whole', 'tails'] as const) {
    for (const candidate of expanded.candidates) {
      for (const rule of rules) {
        const runs = denyMatch(candidate, rule.matcher, where);
        if (runs) {
          return deny(`shell command '${clip(command)}' is refused by the deny rule '${rule.source}'${ruleWhere(rule)} (it runs '${clip(runs.argv.join(' '))}'${runs.anyProgram ? `, where '${runs.argv[0]}' stands for ${runs.anyProgram === 'find' ? 'a file name it finds' : `a line ${runs.anyProgram} reads`}, which may name any program` : ''})`, rule.source);
        }
      }
    }
  }
  return null;
}

/** Allowlist mode: every command must match a rule and pass the guards and path checks. */
export async function shellAllowDecision(
  command: string,
  rules: ShellRule[],
  analyses: ShellAnalyses,
  context: { workspace: Workspace; directory: string; protectedPrefixes?: readonly string[]; writeDenyRules?: readonly WriteDenyRule[] },
): Promise<PolicyDecision> {
  const allowed = rules.length ? `allowed: ${rules.map((r) => r.source.replace(/^shell: /, '')).join(', ')}` : 'no shell command is allowed by the recipe';
  const directories = new ShellDirectories(context.workspace, context.directory, context.protectedPrefixes ?? [], context.writeDenyRules ?? []);
  const sources: string[] = [];
  const judging: Judging = { top: command, rules, analyses, directories, sources, allowed, idle: 0 };
  const judged = await judgeLine(command, judging, 0);
  if (typeof judged === 'string') return deny(judged);
  if (sources.length === 0) return { decision: 'allow', reason: `shell command '${clip(command)}' is allowed: it does nothing (true, false and : need no rule)`, rule: null };
  const idle = judging.idle > 0 ? ' or does nothing' : '';
  const plural = judged > 1 ? `each command matches an allow rule${idle}` : 'it matches an allow rule';
  return { decision: 'allow', reason: `shell command '${clip(command)}' is allowed: ${plural} (${sources.join(', ')})`, rule: sources.join(', ') };
}

interface Judging {
  /** The line the model wrote, for reasons. */
  top: string;
  rules: ShellRule[];
  analyses: ShellAnalyses;
  directories: ShellDirectories;
  /** The rules that matched, in order, filled in as commands are judged. */
  sources: string[];
  allowed: string;
  /** Commands that do nothing (doesNothing), allowed without a rule. */
  idle: number;
}

/** Scripts inside `bash -c '...'` inside `sh -c '...'`: deeper than this is refused. */
const MAX_SCRIPT_DEPTH = 3;

/** The number of commands judged, or why the line is refused. */
async function judgeLine(line: string, j: Judging, depth: number): Promise<number | string> {
  const top = clip(j.top);
  // Globs stay refused here (issue 3's contract: an allow rule approves literal commands); deny rules see them expanded.
  const analysis = await j.analyses.get(line);
  if (!analysis.ok) {
    const where = depth > 0 ? ` (in the script '${clip(line)}')` : '';
    return `shell command '${top}' is refused under allowlist: ${analysis.reason}${where}. Only plain commands joined by &&, ||, ;, | or newlines (with redirections to files in the workspace) can be matched; ${j.allowed}`;
  }
  if (analysis.commands.length === 0) return depth > 0 ? `shell command '${top}' runs an empty script` : 'the shell command is empty';
  let count = 0;
  /** When each command starts, for its redirections (ShellDirectories.started). */
  const starts: number[] = [];
  for (const [index, parsed] of analysis.commands.entries()) {
    const rule = j.rules.find((r) => allowMatches(parsed.argv, r.matcher));
    if (!rule && doesNothing(parsed.argv, analysis.redirects.some((r) => r.command === index))) {
      j.directories.begin(parsed);
      starts[index] = j.directories.started;
      j.idle++;
      count++;
      continue;
    }
    if (!rule) {
      // `bash -c 'npm test'` is judged by what its literal script runs.
      const script = literalShellScript(parsed.argv);
      if (script !== null && depth < MAX_SCRIPT_DEPTH) {
        j.directories.begin(parsed);
        starts[index] = j.directories.started;
        j.directories.enterScript();
        const inner = await judgeLine(script, j, depth + 1);
        j.directories.leaveScript();
        if (typeof inner === 'string') return inner;
        count += inner;
        continue;
      }
      const part = analysis.commands.length > 1 || depth > 0 ? ` ('${clip(parsed.text)}' matches none)` : '';
      const scriptRule = j.rules.find((r) => scriptOutsideRule(parsed.argv, r.matcher));
      if (scriptRule && pipeLines(parsed.argv) !== null) {
        return `shell command '${top}' is not covered by any allow rule${part}: '${scriptRule.source}' does not approve the command lines ${parsed.argv[0]} runs with sh -c (only a rule naming the command exactly does); give its commands as the line itself${parsed.argv[0] === 'mispipe' ? ' (mispipe A B is A | B)' : ''}`;
      }
      if (scriptRule) {
        return `shell command '${top}' is not covered by any allow rule${part}: '${scriptRule.source}' does not approve a script read from stdin, a -c string, an env -S string or eval (only a rule naming the command exactly does); run a script file ('${parsed.argv[0]} FILE') or give its commands as the line itself`;
      }
      return `shell command '${top}' is not covered by any allow rule${part}; ${j.allowed}`;
    }
    j.directories.begin(parsed);
    starts[index] = j.directories.started;
    const guardProblem = guardFinding(parsed.argv, rule.matcher, j.directories);
    if (guardProblem) {
      return `shell command '${top}' is refused by the ${guardProblem.guard} guard although '${rule.source}' matches: ${guardProblem.message}`;
    }
    // The file on its stdin (`patch -p1 < x.diff`): what it reads may name the files it writes.
    const stdin = analysis.redirects.find((r): r is Extract<typeof r, { kind: 'read' }> => r.command === index && r.kind === 'read' && /^0?</.test(r.text.trim()));
    const text = analysis.redirects.find((r): r is Extract<typeof r, { kind: 'input' }> => r.command === index && r.kind === 'input');
    const pathProblem = j.directories.check(parsed, rule.matcher.words, stdin?.path ?? null, text?.body ?? null);
    if (pathProblem) return `shell command '${top}' is refused: ${pathProblem}`;
    if (!j.sources.includes(rule.source)) j.sources.push(rule.source);
    count++;
  }
  for (const redirect of analysis.redirects) {
    const problem = j.directories.checkRedirect(redirect, starts[redirect.command] ?? 0);
    if (problem) return `shell command '${top}' is refused: ${problem}`;
  }
  return count;
}

/**
 * `true`, `false` and `:` alone, without a redirection (`: > f` empties a file), do nothing: no
 * allow rule is needed for them (`npm test || true`).
 */
function doesNothing(argv: readonly string[], redirected: boolean): boolean {
  return argv.length === 1 && (argv[0] === 'true' || argv[0] === 'false' || argv[0] === ':') && !redirected;
}

/** Shells whose `-c` script is judged command by command; named bare, never by a path a repository could supply. */
const SCRIPT_SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'dash']);
/** Options that only make the script stricter or chattier; login (-l) and interactive (-i) shells read rc files. */
const SCRIPT_OPTIONS = /^-[eux]*c?[eux]*$/;
const SET_OPTIONS: ReadonlySet<string> = new Set(['pipefail', 'errexit', 'nounset', 'xtrace']);

/** The script of `bash -c SCRIPT` (also `sh -ec`, `bash -o pipefail -c`), or null for any other shape. */
export function literalShellScript(argv: readonly string[]): string | null {
  if (!SCRIPT_SHELLS.has(argv[0] ?? '')) return null;
  let command = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--norc' || word === '--noprofile') continue;
    if (word === '-o' && SET_OPTIONS.has(argv[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (!SCRIPT_OPTIONS.test(word)) return null;
    if (word.includes('c')) command = true;
  }
  // Exactly the script after the options: further words would become $0, $1... of the script.
  return command && i === argv.length - 1 ? argv[i]! : null;
}

/** The first guard that fires on a word the rule does not spell out itself. */
function guardFinding(argv: string[], pattern: ShellPattern, directories: ShellDirectories) {
  return argumentGuards(argv, directories).find((finding) => finding.always || finding.index >= pattern.words.length) ?? null;
}
