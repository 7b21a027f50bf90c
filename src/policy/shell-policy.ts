// The shell tool under the policy: deny rules against every command a line may run, and under
// `allowlist`, every command of the line matched by an allow rule, argument guards, and path
// arguments kept inside the workspace.
import type { PolicyDecision } from '../types/policy.js';
import type { Workspace } from '../util/workspace.js';
import type { CompiledRule } from './rules.js';
import { analyzeShellCommand, clip, type ShellAnalysis } from './shell-analyze.js';
import { argumentGuards } from './shell-guards.js';
import { ShellDirectories } from './shell-paths.js';
import { allowMatches, commandsForDeny, denyMatches, type ShellPattern } from './shell-rules.js';

type ShellRule = Extract<CompiledRule, { kind: 'shell' }>;

/** One analysis per command line per decision, shared by the deny and allow checks. */
export class ShellAnalyses {
  private readonly results = new Map<string, Promise<ShellAnalysis>>();

  get(command: string): Promise<ShellAnalysis> {
    let result = this.results.get(command);
    if (!result) {
      result = analyzeShellCommand(command);
      this.results.set(command, result);
    }
    return result;
  }
}

const deny = (reason: string, rule: string | null = null): PolicyDecision => ({ decision: 'deny', reason, rule });

/** A denial when a deny rule matches any command `command` may run, or when that cannot be told. */
export async function shellDenyDecision(command: string, rules: ShellRule[], analyses: ShellAnalyses): Promise<PolicyDecision | null> {
  if (rules.length === 0) return null;
  const analysis = await analyses.get(command);
  if (!analysis.ok) {
    return deny(`shell command '${clip(command)}' cannot be checked against the deny rules, so it is refused: ${analysis.reason}`);
  }
  for (const parsed of analysis.commands) {
    const expanded = await commandsForDeny(parsed.argv);
    if (!expanded.ok) {
      return deny(`shell command '${clip(command)}' cannot be checked against the deny rules, so it is refused: ${expanded.reason}`);
    }
    for (const candidate of expanded.candidates) {
      const rule = rules.find((r) => denyMatches(candidate, r.matcher));
      if (rule) {
        return deny(`shell command '${clip(command)}' is refused by the deny rule '${rule.source}' (it runs '${clip(candidate.argv.join(' '))}')`, rule.source);
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
  context: { workspace: Workspace; directory: string; protectedPrefixes?: readonly string[] },
): Promise<PolicyDecision> {
  const allowed = rules.length ? `allowed: ${rules.map((r) => r.source.replace(/^shell: /, '')).join(', ')}` : 'no shell command is allowed by the recipe';
  const analysis = await analyses.get(command);
  if (!analysis.ok) {
    return deny(`shell command '${clip(command)}' is refused under allowlist: ${analysis.reason}. Only plain commands joined by &&, ||, ;, | or newlines can be matched; ${allowed}`);
  }
  if (analysis.commands.length === 0) return deny('the shell command is empty');
  const directories = new ShellDirectories(context.workspace, context.directory, context.protectedPrefixes ?? []);
  const sources: string[] = [];
  for (const parsed of analysis.commands) {
    const rule = rules.find((r) => allowMatches(parsed.argv, r.matcher));
    if (!rule) {
      const part = analysis.commands.length > 1 ? ` ('${clip(parsed.text)}' matches none)` : '';
      return deny(`shell command '${clip(command)}' is not covered by any allow rule${part}; ${allowed}`);
    }
    const guardProblem = guardFinding(parsed.argv, rule.matcher, directories);
    if (guardProblem) {
      return deny(`shell command '${clip(command)}' is refused by the ${guardProblem.guard} guard although '${rule.source}' matches: ${guardProblem.message}`);
    }
    const pathProblem = directories.check(parsed, rule.matcher.words);
    if (pathProblem) return deny(`shell command '${clip(command)}' is refused: ${pathProblem}`);
    if (!sources.includes(rule.source)) sources.push(rule.source);
  }
  const plural = analysis.commands.length > 1 ? 'each command matches an allow rule' : 'it matches an allow rule';
  return { decision: 'allow', reason: `shell command '${clip(command)}' is allowed: ${plural} (${sources.join(', ')})`, rule: sources.join(', ') };
}

/** The first guard that fires on a word the rule does not spell out itself. */
function guardFinding(argv: string[], pattern: ShellPattern, directories: ShellDirectories) {
  return argumentGuards(argv, directories).find((finding) => finding.always || finding.index >= pattern.words.length) ?? null;
}
