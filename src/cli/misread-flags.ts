// Flags yargs would hand a command in a shape it cannot use, refused before the command runs:
// - a flag that takes one value, given twice: yargs would make an array of it (which crashed the
//   command that read a path, or became a file named `a,b`), and a silent "last one wins" hides
//   which budget or directory a run got. Repeatable flags (declared `array`) are not touched;
// - `--no-X` for a flag that takes a value: yargs makes it `X: false`.
import type { Argv } from 'yargs';
import { InputError } from '../types/errors.js';

interface DeclaredOptions {
  key: Record<string, unknown>;
  array: string[];
  boolean: string[];
}

/**
 * Throws an InputError naming the first single-value flag `words` (the command line yargs parses)
 * gives more than once. `parsed` is what yargs made of it; `options` the selected command's flags.
 */
export function refuseRepeatedFlags(words: readonly string[], parsed: Record<string, unknown>, options: DeclaredOptions): void {
  const repeatable = new Set(options.array);
  // --help and --version answer before anything runs; given twice they still just answer.
  const booleans = new Set(options.boolean.filter((name) => name !== 'help' && name !== 'version'));
  for (const name of Object.keys(options.key)) {
    // `-p` is `--prompt`: yargs gives both names the same array, and the long one is reported.
    if (name.length === 1 || repeatable.has(name) || booleans.has(name)) continue;
    const value = parsed[name];
    if (Array.isArray(value)) throw repeated(name, value.length);
  }
  // yargs keeps the last of a boolean's spellings (`--stream --no-stream` is false): counted here.
  const counts = new Map<string, number>();
  for (const word of words) {
    if (word === '--') break;
    const name = booleanName(word, booleans);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, count] of counts) if (count > 1) throw repeated(name, count);
}

/**
 * `--no-out` for a flag that takes a value: yargs makes it `out: false`, which the command then
 * took for a path or a name ("The paths[0] argument must be of type string", exit 1). Refused,
 * naming the flag. Boolean flags keep their `--no-` form (`--no-stream`).
 */
export function refuseNegatedValueFlags(words: readonly string[], options: DeclaredOptions): void {
  const booleans = new Set(options.boolean);
  for (const word of words) {
    if (word === '--') break;
    if (!word.startsWith('--no-')) continue;
    const name = word.slice(5).split('=', 1)[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (name in options.key && !booleans.has(name) && !booleans.has(`no-${name}`)) {
      throw new InputError(`--no-${name}: --${name} takes a value, so it cannot be turned off`, `leave --${name} out for its default`);
    }
  }
}

function repeated(name: string, times: number): InputError {
  return new InputError(`--${name} was given ${times === 2 ? 'twice' : `${times} times`}: give it once`);
}

/** The declared boolean `word` sets (`--x`, `--no-x`, `--x=…`, `--camelCase`), or null. */
function booleanName(word: string, booleans: ReadonlySet<string>): string | null {
  if (!word.startsWith('--')) return null;
  let name = word.slice(2).split('=', 1)[0]!;
  name = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (!booleans.has(name) && name.startsWith('no-')) name = name.slice(3);
  return booleans.has(name) ? name : null;
}

/** Registers the check on a parser; it runs before yargs' own validation, for every command. */
export function withMisreadFlagsRefused(parser: Argv, words: readonly string[]): Argv {
  // yargs calls a middleware with the selected command's instance too; its types declare only argv.
  const check = (parsed: Record<string, unknown>, instance: { getOptions(): DeclaredOptions }) => {
    refuseNegatedValueFlags(words, instance.getOptions());
    refuseRepeatedFlags(words, parsed, instance.getOptions());
  };
  return parser.middleware(check as never, true);
}
