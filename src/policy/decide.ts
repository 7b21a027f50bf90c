// The confirmation policy (DESIGN.md "Confirmation policy"): the answer, in place of a human, to
// every call. Order: the rules about the call compile; every path stays inside the workspace;
// deny rules; protected paths; read-only calls; then the mode. Any failure denies.
import type { PolicyDecision, PolicyQuestion } from '../types/policy.js';
import type { ConfirmationPolicy, PolicyRule } from '../recipe/types.js';
import type { Workspace } from '../util/workspace.js';
import { hostAllowed, hostDenied, urlTarget } from './host-rules.js';
import { allowCovers, denyCovers, resolveTargets, WALK_TOOLS, type PathTarget } from './path-rules.js';
import { patternNamesPrefix, protectedPrefix, protectedPrefixes, repositoryConfigFiles, repositoryGitDirs } from './protected-paths.js';
import { compileRule, formatRule, ruleAppliesTo, ruleWhere, type CompiledRule } from './rules.js';
import { clip } from './clip.js';
import type { WriteDenyRule } from './shell-paths.js';
import type { ShellAnalyses } from './shell-policy.js';

export { formatRule, checkRule } from './rules.js';
export type { PolicyQuestion } from '../types/policy.js';
export { warmUpShellParser } from './shell-parse.js';

export interface PolicyContext {
  workspace: Workspace;
  policy: ConfirmationPolicy;
  /** Extra absolute paths never written unless a rule names them: the recipe file, the run output dir. */
  protectedPaths: string[];
}

const MODES = new Set(['auto-approve', 'deny', 'allowlist']);

const allow = (reason: string, rule: string | null = null): PolicyDecision => ({ decision: 'allow', reason, rule });
const deny = (reason: string, rule: string | null = null): PolicyDecision => ({ decision: 'deny', reason, rule });

/** Never throws: a policy that cannot be evaluated denies. */
export async function decide(call: PolicyQuestion, ctx: PolicyContext): Promise<PolicyDecision> {
  try {
    return await evaluate(call, ctx);
  } catch (error) {
    return deny(`the policy could not be evaluated, so the call is refused (${(error as Error)?.message ?? String(error)})`);
  }
}

interface Compiled {
  allow: CompiledRule[];
  deny: CompiledRule[];
}

type RulesOrBroken = Compiled | { broken: PolicyRule; reason: string };

/**
 * What stays the same for every call under one context: the protected prefixes (a realpath per
 * extra path) and the rules compiled per tool. Computed on first use; a context is not changed
 * after its first decision (the runner builds one per run).
 */
interface PreparedPolicy {
  protectedPrefixes: readonly string[];
  rulesFor(names: readonly string[], mcpServer: string | null): Promise<RulesOrBroken>;
}

const preparedPolicies = new WeakMap<PolicyContext, PreparedPolicy>();

function preparedFor(ctx: PolicyContext): PreparedPolicy {
  let prepared = preparedPolicies.get(ctx);
  if (!prepared) {
    const byNames = new Map<string, Promise<RulesOrBroken>>();
    const policy = ctx.policy;
    prepared = {
      protectedPrefixes: protectedPrefixes(ctx.workspace, [...ctx.protectedPaths, ...repositoryGitDirs(ctx.workspace.root), ...repositoryConfigFiles(ctx.workspace.root)]),
      rulesFor(names, mcpServer) {
        const key = `${mcpServer === null ? '' : `${mcpServer}\0\0`}${names.join('\0')}`;
        let rules = byNames.get(key);
        if (!rules) {
          rules = compileRules(names, mcpServer, policy);
          byNames.set(key, rules);
        }
        return rules;
      },
    };
    preparedPolicies.set(ctx, prepared);
  }
  return prepared;
}

async function evaluate(call: PolicyQuestion, ctx: PolicyContext): Promise<PolicyDecision> {
  const mode = ctx.policy?.mode;
  if (!MODES.has(mode)) return deny(`the confirmation mode '${String(mode)}' is unknown, so every call is refused`);
  const prepared = preparedFor(ctx);
  const rules = await prepared.rulesFor(unique([call.tool, ...(call.names ?? [])]), call.mcpServer ?? null);
  if ('broken' in rules) return deny(`the rule '${formatRule(rules.broken)}' cannot be used, so ${call.tool} calls are refused: ${rules.reason}`, formatRule(rules.broken));

  const resolved = resolveTargets(pathInputs(call, ctx.workspace), ctx.workspace);
  if (!resolved.ok) return deny(resolved.credentials ? `${call.tool} would reach credentials: ${resolved.reason}` : `${call.tool} would reach outside the workspace: ${resolved.reason}`);
  const targets = resolved.targets;
  const analyses = new ShellCheck();

  const denied = await denyDecision(call, targets, rules.deny, analyses, ctx.workspace.root);
  if (denied && analyses.unevaluable(denied) && mode === 'allowlist') {
    // Denied either way; when no allow rule covers the line, that is the more useful reason.
    const allowed = await allowlistDecision(call, targets, rules.allow, analyses, ctx, prepared.protectedPrefixes);
    return allowed.decision === 'deny' ? allowed : denied;
  }
  if (denied) return denied;

  const confirmation = call.confirmation;
  if (confirmation && confirmation.kind === 'edit') {
    const refused = protectedDecision(call, targets, rules.allow, prepared.protectedPrefixes);
    if (refused) return refused;
  }
  if (confirmation === false) return allow(`${call.tool} cannot change anything, so it needs no confirmation`);
  if (mode === 'auto-approve') return allow(`confirmation mode is auto-approve: ${call.tool} is approved`);
  if (mode === 'deny') return deny(`confirmation mode is deny: ${call.tool} would change something, and calls that ask for confirmation are refused`);
  return allowlistDecision(call, targets, rules.allow, analyses, ctx, prepared.protectedPrefixes);
}

async function compileRules(names: readonly string[], mcpServer: string | null, policy: ConfirmationPolicy): Promise<RulesOrBroken> {
  const compiled: Compiled = { allow: [], deny: [] };
  for (const [list, into] of [[policy.deny, compiled.deny], [policy.allow, compiled.allow]] as const) {
    for (const rule of list) {
      if (!names.some((name) => ruleAppliesTo(rule, name, mcpServer))) continue;
      const result = compileRule(rule);
      if (!result.ok) return { broken: rule, reason: result.reason };
      into.push(result.rule);
    }
  }
  return compiled;
}

/** The paths to confine: the tool's path arguments, the paths and directory it reports, and shell's `directory`. */
function pathInputs(call: PolicyQuestion, workspace: Workspace): string[] {
  const inputs = [...call.paths];
  const confirmation = call.confirmation;
  if (confirmation && confirmation.kind === 'edit') inputs.push(...confirmation.paths);
  if (confirmation && confirmation.kind === 'exec') inputs.push(confirmation.directory);
  // Walk tools without a path read the whole workspace.
  if (WALK_TOOLS.has(call.tool) && call.paths.length === 0) inputs.push(workspace.root);
  return inputs;
}

function shellCommands(call: PolicyQuestion): string[] {
  const commands = new Set<string>();
  if (typeof call.args.command === 'string') commands.add(call.args.command);
  if (call.confirmation && call.confirmation.kind === 'exec') commands.add(call.confirmation.command);
  return [...commands];
}

function fetchUrls(call: PolicyQuestion): string[] {
  if (call.confirmation && call.confirmation.kind === 'fetch') return call.confirmation.urls;
  return typeof call.args.url === 'string' ? [call.args.url] : [];
}

async function denyDecision(call: PolicyQuestion, targets: PathTarget[], rules: CompiledRule[], analyses: ShellCheck, root: string): Promise<PolicyDecision | null> {
  const bare = rules.find((r) => r.kind === 'any');
  if (bare) return deny(`${call.tool} is refused by the deny rule '${bare.source}'${ruleWhere(bare)}`, bare.source);

  const shellRules = rules.filter((r) => r.kind === 'shell');
  if (shellRules.length) {
    const commands = shellCommands(call);
    if (commands.length === 0) return deny(`${call.tool} has no command to check against the deny rules, so it is refused`);
    for (const command of commands) {
      const { policy, shared } = await analyses.load();
      const directory = call.confirmation && call.confirmation.kind === 'exec' ? call.confirmation.directory : root;
      const refused = await policy.shellDenyDecision(command, shellRules, shared, directory, root);
      if (refused) return refused;
    }
  }

  const pathRules = rules.filter((r) => r.kind === 'path');
  if (pathRules.length) {
    if (targets.length === 0) return deny(`${call.tool} names no path to check against the deny rules, so it is refused`);
    const walk = WALK_TOOLS.has(call.tool);
    for (const rule of pathRules) {
      const hit = targets.find((target) => denyCovers(rule.matcher, target, walk));
      if (hit) {
        const how = hit.relative !== '' && rule.matcher.matchNoCase(hit.relative) ? '' : ' (the walk would reach files it names)';
        return deny(`${call.tool} on '${hit.relative || '.'}' is refused by the deny rule '${rule.source}'${ruleWhere(rule)}${how}`, rule.source);
      }
    }
  }

  const hostRules = rules.filter((r) => r.kind === 'host');
  if (hostRules.length) {
    const urls = fetchUrls(call);
    if (urls.length === 0) return deny(`${call.tool} names no URL to check against the deny rules, so it is refused`);
    for (const url of urls) {
      const target = urlTarget(url);
      if (target === null) return deny(`the URL '${clip(url)}' has no http(s) host to check against the deny rules, so it is refused`);
      const rule = hostRules.find((r) => hostDenied(target, r.matcher));
      if (rule) return deny(`fetching '${clip(url)}' is refused by the deny rule '${rule.source}'${ruleWhere(rule)}`, rule.source);
    }
  }
  return null;
}

/** A write below a protected path needs an allow rule that matches it and spells the protected prefix out. */
function protectedDecision(call: PolicyQuestion, targets: PathTarget[], rules: CompiledRule[], extra: readonly string[]): PolicyDecision | null {
  for (const target of targets) {
    const prefix = protectedPrefix(target.relative, extra);
    if (prefix === null) continue;
    const naming = rules.find(
      (r) => r.kind === 'path' && patternNamesPrefix(r.matcher.glob, prefix) && allowCovers(r.matcher, target),
    );
    if (!naming) {
      return deny(
        `${call.tool} would write '${target.relative || '.'}', which is protected ('${prefix || '.'}' is never written unless an allow rule names it, e.g. '- ${call.tool}: "${target.relative}"')`,
      );
    }
  }
  return null;
}

async function allowlistDecision(
  call: PolicyQuestion,
  targets: PathTarget[],
  rules: CompiledRule[],
  analyses: ShellCheck,
  ctx: PolicyContext,
  protectedPrefixes: readonly string[],
): Promise<PolicyDecision> {
  const bare = rules.find((r) => r.kind === 'any');
  if (bare && call.tool === 'shell') {
    // "Any command" still means a command: a line the parser cannot read may not be what bash runs.
    for (const command of shellCommands(call)) {
      const { policy } = await analyses.load();
      const problem = await policy.shellSyntaxProblem(command);
      if (problem) return deny(`shell command '${clip(command)}' cannot be parsed, so even the rule '${bare.source}' does not approve it: ${problem}`, bare.source);
    }
  }
  if (bare) return allow(`${call.tool} is allowed by the rule '${bare.source}'`, bare.source);
  const listed = rules.map((r) => r.source).join(', ');
  const allowed = listed ? `allowed: ${listed}` : `no allow rule names ${call.tool}`;

  if (call.tool === 'shell') {
    const shellRules = rules.filter((r) => r.kind === 'shell');
    const commands = shellCommands(call);
    if (commands.length === 0) return deny(`shell has no command to match against the allow rules; ${allowed}`);
    const confirmation = call.confirmation;
    const directory = confirmation && confirmation.kind === 'exec' ? confirmation.directory : ctx.workspace.root;
    // A redirection writes a file: the file tools' deny rules hold for it too.
    const fileRules = await preparedFor(ctx).rulesFor(['write_file', 'edit'], null);
    if ('broken' in fileRules) return deny(`the rule '${formatRule(fileRules.broken)}' cannot be used, so shell redirections cannot be checked: ${fileRules.reason}`, formatRule(fileRules.broken));
    const writeDenyRules = fileRules.deny.flatMap((r): WriteDenyRule[] => (r.kind === 'path' || r.kind === 'any' ? [{ source: r.source, matcher: r.matcher }] : []));
    let decision: PolicyDecision | null = null;
    const { policy, shared } = await analyses.load();
    for (const command of commands) {
      decision = await policy.shellAllowDecision(command, shellRules, shared, {
        workspace: ctx.workspace,
        directory,
        protectedPrefixes,
        writeDenyRules,
      });
      if (decision.decision === 'deny') return decision;
    }
    return decision!;
  }

  const pathRules = rules.filter((r) => r.kind === 'path');
  if (pathRules.length) {
    if (targets.length === 0) return deny(`${call.tool} names no path to match against the allow rules; ${allowed}`);
    const sources: string[] = [];
    for (const target of targets) {
      const rule = pathRules.find((r) => allowCovers(r.matcher, target));
      if (!rule) return deny(`${call.tool} on '${target.relative || '.'}' is not covered by any allow rule; ${allowed}`);
      if (!sources.includes(rule.source)) sources.push(rule.source);
    }
    return allow(`${call.tool} on ${unique(targets.map((t) => `'${t.relative}'`)).join(', ')} is allowed (${sources.join(', ')})`, sources.join(', '));
  }

  const hostRules = rules.filter((r) => r.kind === 'host');
  if (hostRules.length) {
    const urls = fetchUrls(call);
    if (urls.length === 0) return deny(`${call.tool} names no URL to match against the allow rules; ${allowed}`);
    const sources: string[] = [];
    for (const url of urls) {
      const target = urlTarget(url);
      const rule = target === null ? undefined : hostRules.find((r) => hostAllowed(target, r.matcher));
      if (!rule) return deny(`fetching '${clip(url)}' is not covered by any allow rule; ${allowed}`);
      if (!sources.includes(rule.source)) sources.push(rule.source);
    }
    return allow(`fetching ${urls.map((u) => `'${clip(u)}'`).join(', ')} is allowed (${sources.join(', ')})`, sources.join(', '));
  }
  return deny(`${call.tool} is not covered by any allow rule; ${allowed}`);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/**
 * One decision's shell commands: their analyses, shared by the deny and the allow rules. The shell
 * policy (the analysis of a line, option meanings, guards: ~55 kB) is imported by the first decision
 * that has a shell command to judge, not with the policy: most calls, and a run's first model
 * request, never need it.
 */
class ShellCheck {
  private policy: ShellPolicy | undefined;
  private analyses: ShellAnalyses | undefined;

  async load(): Promise<{ policy: ShellPolicy; shared: ShellAnalyses }> {
    this.policy ??= await import('./shell-policy.js');
    this.analyses ??= new this.policy.ShellAnalyses();
    return { policy: this.policy, shared: this.analyses };
  }

  /** A denial that says the command could not be checked (only the shell policy makes those). */
  unevaluable(decision: PolicyDecision): boolean {
    return this.policy?.isUnevaluableDenial(decision) ?? false;
  }
}

type ShellPolicy = typeof import('./shell-policy.js');
