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
    const example = flag === 'param' ? ' (unattended run RECIPE --param k=v)' : '';
    return [`${as}: a flag of ${list}, which ${command} does not take${example}`];
  });
  return hints.length > 0 ? hints.join('\n') : null;
}
