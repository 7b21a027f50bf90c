// `run --continue` keeps the earlier run's policy: the recipe is read again from its file, which may
// have changed since the run (edited by hand, brought by a pull, or rewritten by the run's own
// tools), and a changed file must not quietly loosen what the next run may do. What bounds a run —
// the confirmation policy, the sandbox, the tools and MCP servers offered, the workspace, what runs
// besides the model (tool discovery, checks, the git hand-off), where the conversation is sent — is
// recorded in run_start (`policy`, `safety`); rebuilt from the earlier run's recipe and flags, it
// must come out the same, or differ only where a flag of this command line asks for it.
// Anything else is refused, saying what differs and how to go on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyOverrides, type RecipeOverrides } from '../recipe/overrides.js';
import { makeRule, splitCliRule } from '../recipe/rules.js';
import type { Recipe } from '../recipe/types.js';
import { InputError } from '../types/errors.js';
import type { RunEvent, SafetyRecord } from '../types/events.js';
import { recipeFromInvocation, type Invocation } from './invocation.js';

type RunStart = Extract<RunEvent, { type: 'run_start' }>;

/** What an earlier run ran under, as its run_start records it; `safety` is partial in a transcript from before it was recorded. */
export interface HeldSettings {
  policy: { mode: string; allow: string[]; deny: string[] };
  safety: Partial<Omit<SafetyRecord, 'sandbox'>> & { sandbox?: Partial<SafetyRecord['sandbox']> };
}

/** run_start's `safety`: the recipe's settings besides the policy, as recipe and flags set them. */
export function safetyRecord(recipe: Recipe): SafetyRecord {
  return {
    sandbox: { mode: recipe.sandbox.mode, network: recipe.sandbox.network, writable: [...recipe.sandbox.writable], hide: [...recipe.sandbox.hide] },
    tools: [...recipe.tools],
    mcp_servers: recipe.mcpServers.map((s) => ({
      alias: s.alias,
      command: s.command,
      args: [...s.args],
      cwd: s.cwd,
      url: s.url,
      env: Object.keys(s.env).sort(),
      headers: Object.keys(s.headers).sort(),
      include_tools: s.includeTools ? [...s.includeTools] : null,
      exclude_tools: [...s.excludeTools],
      trust: s.trust,
      sandbox: s.sandbox ?? false,
      ...(s.written ? { written: { command: s.written.command, args: [...s.written.args], url: s.written.url } } : {}),
    })),
    tool_discovery: recipe.toolDiscovery ? { command: recipe.toolDiscovery.command, call_command: recipe.toolDiscovery.callCommand } : null,
    workspace: recipe.workspace,
    workspace_mode: recipe.workspaceMode,
    plan: { mode: recipe.mode, plan_only: recipe.planOnly },
    env_pass: [...recipe.env.pass],
    memory_file: recipe.memory.file,
    git: recipe.git ? { push: recipe.git.push || recipe.git.pullRequest !== null, pull_request: recipe.git.pullRequest !== null } : null,
    checks: [...recipe.checks.commands],
    provider: recipe.provider,
    base_url: recipe.baseUrl,
  };
}

/**
 * What a run_start holds of them. A transcript from before `safety` was recorded still has the
 * policy and the sandbox's mode and network: those are held, the rest cannot be.
 */
export function heldSettings(start: RunStart): HeldSettings | null {
  if (!start.policy) return null;
  const sandbox = start.sandbox ? { mode: start.sandbox.mode, network: start.sandbox.network } : {};
  return { policy: start.policy, safety: start.safety ?? { sandbox } };
}

function settingsOf(recipe: Recipe): HeldSettings {
  const { mode, allow, deny } = recipe.confirmation;
  return { policy: { mode, allow: allow.map((r) => r.source), deny: deny.map((r) => r.source) }, safety: safetyRecord(recipe) };
}

interface Aspect {
  label: string;
  read: (s: HeldSettings) => unknown;
  /** Compared as a set of items (rules, paths, servers by alias), not as one value. */
  list?: boolean;
  /** What of `then` and `now` is compared, when not `read` of each alone. */
  pair?: (then: HeldSettings, now: HeldSettings) => [unknown, unknown];
  /** The flag that sets it whole, and the override it fills. */
  setBy?: { flag: string; keys: Array<keyof RecipeOverrides>; shown?: (value: unknown) => string };
  /** The flag that adds items: a changed item it names is asked for. */
  addedBy?: { flag: string; items: (ov: RecipeOverrides) => string[]; shown: (item: string) => string };
}

type ServerRecord = SafetyRecord['mcp_servers'][number];

/**
 * MCP servers as a continued run compares them: a server whose `--mcp-config` entry fills
 * `${VAR}`s from the environment by how the file writes it (a changed HOME is no changed file),
 * where the earlier run recorded that; else as they were filled (a transcript from before
 * `written` was recorded).
 */
function comparableServers(then: HeldSettings, now: HeldSettings): [unknown, unknown] {
  const before = then.safety.mcp_servers;
  if (!Array.isArray(before)) return [before, now.safety.mcp_servers];
  const recorded = new Set(before.filter((s) => s.written).map((s) => s.alias));
  const view = (s: ServerRecord): Omit<ServerRecord, 'written'> => {
    const { written, ...rest } = s;
    return written && recorded.has(s.alias) ? { ...rest, command: written.command, args: written.args, url: written.url } : rest;
  };
  return [before.map(view), (now.safety.mcp_servers ?? []).map(view)];
}

const ruleText = (texts: string[] | undefined) =>
  (texts ?? []).map((text) => {
    const { tool, pattern } = splitCliRule(text);
    return makeRule(tool, pattern).source;
  });
/** `shell: git push *` as a flag takes it: `shell:git push *`. */
const ruleFlag = (source: string) => source.replace(': ', ':');

const ASPECTS: Aspect[] = [
  { label: 'confirmation mode', read: (s) => s.policy.mode, setBy: { flag: '--approval', keys: ['approval'] } },
  { label: 'allow rules', read: (s) => s.policy.allow, list: true, addedBy: { flag: '--allow', items: (ov) => ruleText(ov.allow), shown: ruleFlag } },
  { label: 'deny rules', read: (s) => s.policy.deny, list: true, addedBy: { flag: '--deny', items: (ov) => ruleText(ov.deny), shown: ruleFlag } },
  { label: 'sandbox mode', read: (s) => s.safety.sandbox?.mode, setBy: { flag: '--sandbox', keys: ['sandbox'] } },
  { label: 'sandbox network', read: (s) => s.safety.sandbox?.network },
  { label: 'sandbox writable paths', read: (s) => s.safety.sandbox?.writable, list: true },
  { label: 'sandbox hidden paths', read: (s) => s.safety.sandbox?.hide, list: true },
  { label: 'tools offered', read: (s) => s.safety.tools, list: true, setBy: { flag: '--tools', keys: ['tools'], shown: (v) => (v as string[]).join(',') } },
  { label: 'MCP servers', read: (s) => s.safety.mcp_servers, list: true, pair: comparableServers },
  { label: 'tool discovery', read: (s) => s.safety.tool_discovery },
  { label: 'workspace', read: (s) => s.safety.workspace, setBy: { flag: '--workspace', keys: ['workspace'] } },
  { label: 'workspace mode', read: (s) => s.safety.workspace_mode },
  { label: 'plan mode', read: (s) => s.safety.plan },
  { label: 'environment passed to tools (env.pass)', read: (s) => s.safety.env_pass, list: true },
  { label: 'memory file', read: (s) => s.safety.memory_file },
  { label: 'git hand-off', read: (s) => s.safety.git },
  { label: 'success checks', read: (s) => s.safety.checks, list: true, addedBy: { flag: '--check', items: (ov) => ov.checks ?? [], shown: (item) => item } },
  { label: 'provider', read: (s) => s.safety.provider, setBy: { flag: '--provider', keys: ['provider'] } },
  { label: 'provider endpoint (base_url)', read: (s) => s.safety.base_url, setBy: { flag: '--base-url', keys: ['baseUrl', 'provider'] } },
];

export interface Difference {
  aspect: Aspect;
  /** `confirmation mode: allowlist then, auto-approve now`. */
  text: string;
  then: unknown;
  now: unknown;
  /** For a list: the items only one side has (rules as recorded, servers by alias). */
  added: string[];
  removed: string[];
}

/** Where `now` differs from `then`, aspect by aspect; an aspect `then` does not record is not compared. */
export function differences(then: HeldSettings, now: HeldSettings, redact: (text: string) => string): Difference[] {
  const found: Difference[] = [];
  for (const aspect of ASPECTS) {
    const [before, after] = aspect.pair ? aspect.pair(then, now) : [aspect.read(then), aspect.read(now)];
    if (before === undefined) continue;
    // The transcript holds what was written, redacted: the rebuilt side is compared as it would be written.
    const same = (a: unknown, b: unknown) => redact(JSON.stringify(a) ?? 'null') === redact(JSON.stringify(b) ?? 'null');
    if (aspect.list && Array.isArray(before) && Array.isArray(after)) {
      const removed = before.filter((item) => !after.some((other) => same(item, other)));
      const added = after.filter((item) => !before.some((other) => same(item, other)));
      if (removed.length + added.length === 0) continue;
      const name = (item: unknown) => (typeof item === 'string' ? item : typeof item === 'object' && item !== null && 'alias' in item ? String(item.alias) : JSON.stringify(item));
      const [addedNames, removedNames] = [added.map(name), removed.map(name)];
      // A server by the same alias on both sides was changed, not swapped.
      const changedNames = addedNames.filter((n) => removedNames.includes(n));
      const listed = (verb: string, names: string[]) => (names.length ? [`${verb} ${names.map((n) => `'${n}'`).join(', ')}`] : []);
      const changes = [...listed('added', addedNames.filter((n) => !changedNames.includes(n))), ...listed('removed', removedNames.filter((n) => !changedNames.includes(n))), ...listed('changed', changedNames)];
      found.push({ aspect, text: `${aspect.label}: ${redact(changes.join('; '))}`, then: before, now: after, added: addedNames, removed: removedNames });
    } else if (!same(before, after)) {
      found.push({ aspect, text: `${aspect.label}: ${redact(shown(before))} then, ${redact(shown(after))} now`, then: before, now: after, added: [], removed: [] });
    }
  }
  return found;
}

/** A difference this command line asks for: a flag that sets the aspect, or one that names every changed item. */
function askedFor(difference: Difference, flags: RecipeOverrides): boolean {
  const { setBy, addedBy } = difference.aspect;
  if (setBy?.keys.some((key) => flags[key] !== undefined)) return true;
  if (!addedBy) return false;
  const named = addedBy.items(flags);
  return [...difference.added, ...difference.removed].every((item) => named.includes(item));
}

/** How a flag keeps the earlier run's setting or takes the recipe's, where one can. */
function flagHint(difference: Difference): string | null {
  const { setBy, addedBy } = difference.aspect;
  if (setBy) {
    const show = setBy.shown ?? shown;
    // A setting that was or is now unset (no base_url) has no flag value to give.
    const given = (value: unknown, does: string) => (value === null || value === undefined ? [] : [`${setBy.flag} ${quoted(show(value))} ${does}`]);
    const hints = [...given(difference.then, 'keeps the earlier setting'), ...given(difference.now, "takes the recipe's")];
    return hints.length ? hints.join(', ') : null;
  }
  if (addedBy) {
    const each = (items: string[], does: string) => items.map((item) => `${addedBy.flag} ${quoted(addedBy.shown(item))} ${does}`);
    return [...each(difference.removed, 'keeps it'), ...each(difference.added, 'takes it')].join(', ');
  }
  return null;
}

/**
 * The recipe of a continued run. Rebuilt from the earlier run's recipe and flags, its settings must
 * be the ones that run had, except where this command line's flags ask for a change; then those
 * flags go on top, as always. A recipe named along with --continue replaces the earlier one: the
 * person chose it, and what differs is said (`warnings`), not refused.
 */
export async function continuedRecipe(inv: Invocation, earlier: { run_id: string; transcript: string; settings: HeldSettings | null }, redact: (text: string) => string): Promise<{ recipe: Recipe; warnings: string[] }> {
  if (!earlier.settings) {
    throw new InputError(`cannot continue run ${earlier.run_id}: its run_start does not record its policy`, 'the transcript was changed after the run; start a new run instead');
  }
  if (!inv.base) {
    const recipe = await recipeFromInvocation(inv);
    const changed = differences(earlier.settings, settingsOf(recipe), redact);
    if (changed.length === 0) return { recipe, warnings: [] };
    return { recipe, warnings: [`the recipe named with --continue gives other settings than run ${earlier.run_id} had: ${changed.map((d) => d.text).join('; ')}`] };
  }
  const base = await earlierRecipe(earlier, inv.base);
  const unasked = differences(earlier.settings, settingsOf(base), redact).filter((d) => !askedFor(d, inv.overrides));
  if (unasked.length > 0) throw settingsChanged(earlier, inv.base, unasked);
  return { recipe: applyOverrides(base, inv.overrides, inv.cwd), warnings: [] };
}

/**
 * The earlier run's recipe and flags, built again. A file they name that is gone (a temporary
 * recipe, an `@prompt.md`) is said to be the earlier run's, which the person did not type this
 * time, with how to go on.
 */
async function earlierRecipe(earlier: { run_id: string; transcript: string }, base: Invocation): Promise<Recipe> {
  const fresh = `or start a fresh run`;
  const file = recipeFile(base);
  if (file && !existsSync(file)) {
    throw new InputError(
      `cannot continue run ${earlier.run_id}: the recipe it was started with, ${file}, is gone`,
      `put it back, name a recipe along with --continue (unattended run RECIPE --continue ${runDirOf(earlier.transcript)} -p "…"), ${fresh}`,
    );
  }
  try {
    return await recipeFromInvocation(base);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(
      `cannot continue run ${earlier.run_id}: the flags it was started with, used again, no longer work: ${error.message}`,
      `give that flag again on this command line (a new --append-system-prompt or --output-schema replaces the earlier run's), ${fresh}`,
    );
  }
}

function settingsChanged(earlier: { run_id: string; transcript: string }, base: Invocation, unasked: Difference[]): InputError {
  const file = recipeFile(base);
  const source = file ? `its recipe ${file}` : 'its flags (the files they name)';
  const flags = unasked.map(flagHint).filter((hint): hint is string => hint !== null);
  const noFlag = unasked.filter((d) => flagHint(d) === null).map((d) => d.aspect.label);
  return new InputError(
    `cannot continue run ${earlier.run_id}: ${source} now gives other settings than the run had, and no flag of this command line asks for the change:\n${unasked.map((d) => `  ${d.text}`).join('\n')}`,
    [
      'a continued run keeps the earlier run\'s policy: put the recipe back as it was',
      ...(flags.length ? [`or ask for the change with flags on this command line (${flags.join('; ')})`] : []),
      ...(noFlag.length ? [`${noFlag.join(', ')}: no flag sets ${noFlag.length === 1 ? 'it' : 'them'}`] : []),
      `or take the recipe as it is now, named along with --continue (unattended run ${file ?? 'RECIPE'} --continue ${runDirOf(earlier.transcript)} -p "…", its --param values given again), or start a fresh run`,
    ].join('; '),
  );
}

/** The run directory, as --continue takes it. */
function runDirOf(transcript: string): string {
  return path.basename(transcript) === 'transcript.jsonl' ? path.dirname(transcript) : transcript;
}

function recipeFile(inv: Invocation): string | null {
  return inv.recipe ?? (inv.base ? recipeFile(inv.base) : null);
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
}

function quoted(text: string): string {
  return /^[\w./,:@=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
