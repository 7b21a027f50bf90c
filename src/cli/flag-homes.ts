// A flag of `run` given to another command (`validate --param`, `tools --model`, `report -m`):
// yargs said only "Unknown argument: param", as if the flag did not exist. Said instead: which
// commands take it, so the user sees where it belongs (usually: run it, then look with report).
import type { Argv } from 'yargs';
import { batchOptions } from './commands/batch-options.js';
import { runOptions } from './commands/run-options.js';

/** The flags (and one-letter aliases, as `-m`) a builder declares, read by running it on a recorder. */
function declared(builder: (y: Argv) => unknown): Map<string, string> {
  const flags = new Map<string, string>();
  const recorder: Record<string, unknown> = {};
  const option = (name: string, opts: { alias?: string | string[] } = {}) => {
    flags.set(name, name);
    for (const alias of [opts.alias ?? []].flat()) flags.set(alias, name);
    return recorder;
  };
  recorder.option = option;
  recorder.positional = () => recorder;
  builder(recorder as unknown as Argv);
  return flags;
}

/**
 * The commands other than run whose own flags include some of run's (parser.ts declares these
 * inline); kept next to the hint, and checked against the grammar by test/cli/flag-homes.test.ts.
 */
const SIBLINGS: ReadonlyArray<[command: string, flags: readonly string[]]> = [
  ['tools', ['param', 'tools', 'mcp-config']],
  ['policy check', ['param', 'workspace', 'approval', 'allow', 'deny']],
];

/**
 * What a batch writes in its recipe for a flag of run: every target's run takes the recipe's
 * settings, so "which batch does not take" alone left the user without a way to set them.
 */
const RECIPE_KEYS: Readonly<Record<string, string>> = {
  prompt: 'prompt: …',
  model: 'model: NAME',
  provider: 'provider: …',
  'base-url': 'base_url: URL',
  approval: 'confirmation: {mode: …}',
  allow: 'confirmation: {allow: [...]}',
  deny: 'confirmation: {deny: [...]}',
  sandbox: 'sandbox: {mode: …}',
  tools: 'tools: [...]',
  'mcp-config': 'mcp_servers:',
  'max-turns': 'limits: {max_turns: N}',
  'max-tool-calls': 'limits: {max_tool_calls: N}',
  'max-denials': 'limits: {max_denials: N}',
  'fail-on-denial': 'fail_on_denial: true',
  check: 'checks: {commands: [...]}',
  'require-changes': 'checks: {require_changes: true}',
  'check-retries': 'checks: {retries: N}',
  'append-system-prompt': 'instructions: …',
  'output-schema': 'output: {schema: …}',
};

/** For batch: what sets a run's setting for every target, in the recipe. */
export function batchRecipeKey(flag: string): string | null {
  return RECIPE_KEYS[flag] ?? null;
}

/**
 * One line per unknown flag that `run` takes, for yargs' "Unknown argument(s): a, b" from
 * `command` (e.g. `validate`, `policy check`): "--param: a flag of run, tools, policy check and
 * batch, not of validate". Null when none is, or the command is run itself.
 */
export function runFlagHint(message: string, command: string): string | null {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (!unknown || command === '' || command === 'run') return null;
  const run = declared(runOptions);
  const batch = declared(batchOptions);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const names = [...new Set(unknown.split(', ').map((n) => (n.length === 1 ? n : kebab(n))))];
  const hints = names.flatMap((typed) => {
    const flag = run.get(typed);
    if (flag === undefined) return [];
    const homes = ['run', ...SIBLINGS.filter(([, flags]) => flags.includes(flag)).map(([c]) => c), ...(batch.has(flag) ? ['batch'] : [])].filter((c) => c !== command);
    const list = homes.length === 1 ? homes[0]! : `${homes.slice(0, -1).join(', ')} and ${homes.at(-1)}`;
    const as = typed.length === 1 ? `-${typed} (--${flag})` : `--${typed}`;
    const key = command === 'batch' ? batchRecipeKey(flag) : null;
    const example = flag === 'param' ? ' (unattended run RECIPE --param k=v)' : key ? `: for every target's run, set it in the recipe (${key})` : '';
    return [`${as}: a flag of ${list}, which ${command} does not take${example}`];
  });
  return hints.length > 0 ? hints.join('\n') : null;
}
