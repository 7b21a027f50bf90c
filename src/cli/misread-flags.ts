// Flags yargs would hand a command in a shape it cannot use, refused before the command runs:
// - a flag that takes one value, given twice: yargs would make an array of it (which crashed the
//   command that read a path, or became a file named `a,b`), and a silent "last one wins" hides
//   which budget or directory a run got. Repeatable flags (declared `array`) are not touched;
// - `--no-X` for a flag that takes a value: yargs makes it `X: false`;
// - a value that starts with a dash and is no flag (`--timeout -1s`, `--shard -1/2`): yargs reads
//   it as short flags ("Unknown arguments: 1, s"), a message about flags nobody typed. Read as the
//   flag's value, as `--timeout=-1s` is, so the flag's own check says what is wrong. One
//   flag-shaped word (`--model -y`) stays a flag, as after -p (dash-words.ts). So is a lone `-`
//   after a long flag (`--prompt -`), as yargs reads it after a short one (`-p -`).
import type { Argv } from 'yargs';
import { InputError } from '../types/errors.js';
import { FLAG_SHAPED } from './dash-words.js';

interface DeclaredOptions {
  key: Record<string, unknown>;
  array: string[];
  boolean: string[];
  count?: string[];
  default?: Record<string, unknown>;
  choices?: Record<string, readonly string[]>;
  alias?: Record<string, string[]>;
}

/**
 * A command line to parse again, its dash values joined to their flags (`--timeout=-1s`): thrown by
 * the parser's check, caught where the line is parsed (cli.ts), which parses `argv` instead.
 */
export class DashValuesJoined extends Error {
  constructor(readonly argv: string[]) {
    super('a value that starts with a dash, joined to its flag');
  }
}

/**
 * `words` with each word that starts with a dash but is not shaped like a flag (`-1s`, `-5`,
 * `-1/2`), right after a flag that takes a value, joined to that flag (`--timeout=-1s`); null when
 * there is none.
 */
export function joinDashValues(words: readonly string[], options: DeclaredOptions): string[] | null {
  const flagless = new Set([...options.boolean, ...(options.count ?? [])]);
  const takesValue = (word: string): boolean => {
    const name = /^--?([^=-][^=]*)$/.exec(word)?.[1];
    if (name === undefined || (word.startsWith('--') ? name.length < 2 : name.length !== 1)) return false;
    const key = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    // A long flag the command does not know is refused either way: with its value, as one unknown
    // flag (`--check-timeout` given to batch), not as "Unknown arguments: 1, check-timeout, s".
    if (!(key in options.key)) return word.startsWith('--') && !key.startsWith('no-');
    return !flagless.has(key);
  };
  const isDashValue = (word: string): boolean => /^-[^-]/.test(word) && !FLAG_SHAPED.test(word);
  const out: string[] = [];
  let joined = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return joined ? [...out, ...words.slice(i)] : null;
    const value = words[i + 1];
    // A lone `-` after a long flag: yargs takes it for a positional word and gives the flag '' (so
    // `--prompt -` read no stdin and said "--prompt is empty", `--record -` recorded nothing, `--mcp-config -`
    // started no server, all without a word), where after the short form (`-p -`) it is the value.
    if (value !== undefined && takesValue(word) && (isDashValue(value) || (value === '-' && word.startsWith('--')))) {
      out.push(`${word}=${value}`);
      joined = true;
      i++;
    } else {
      out.push(word);
    }
  }
  return joined ? out : null;
}

/**
 * Said beside yargs' "Unknown argument: x" for `--out -x`: one flag-shaped word after a flag that
 * takes a value stays a flag, and the way to give it as the value. Null when there is none such.
 */
export function dashWordHint(words: readonly string[], options: DeclaredOptions): string | null {
  const flagless = new Set([...options.boolean, ...(options.count ?? [])]);
  const known = (word: string): boolean => {
    const long = /^--([^=]+)/.exec(word)?.[1];
    if (long !== undefined) return long.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^no-/, '') in options.key || long in options.key;
    return [...word.slice(1)].every((letter) => letter in options.key);
  };
  for (let i = 0; i + 1 < words.length; i++) {
    const [flag, value] = [words[i]!, words[i + 1]!];
    if (flag === '--') break;
    const name = /^--?([^=-][^=]*)$/.exec(flag)?.[1];
    if (name === undefined || (flag.startsWith('--') ? name.length < 2 : name.length !== 1)) continue;
    if (!(name in options.key) || flagless.has(name) || !FLAG_SHAPED.test(value) || value.includes('=') || known(value)) continue;
    return `${flag} ${value}: a word that starts with a dash is read as a flag; if ${value} is the value of ${flag}, write ${flag}=${value}`;
  }
  return null;
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

/**
 * A flag that takes a value, with a default, typed with no value (`--output-format` last, or before
 * another flag; `--output-format $FORMAT` with the variable unset): yargs gives it its default, so
 * `--output-format` printed text where a script waited for JSON, and `report --format` Markdown.
 * Refused, naming the values it takes.
 */
export function refuseValuelessDefaults(words: readonly string[], options: DeclaredOptions): void {
  const flagless = new Set([...options.boolean, ...(options.count ?? []), ...options.array]);
  const byAlias = new Map<string, string>();
  for (const [name, aliases] of Object.entries(options.alias ?? {})) for (const alias of aliases) byAlias.set(alias, name);
  const nameOf = (word: string): string | null => {
    const typed = /^--?([^=-][^=]*)$/.exec(word)?.[1];
    if (typed === undefined || (word.startsWith('--') ? typed.length < 2 : typed.length !== 1)) return null;
    const name = byAlias.get(typed) ?? typed;
    return name in options.key ? name : null;
  };
  const lists = new Set(options.array.filter((name) => !options.boolean.includes(name)));
  for (let i = 0; i < words.length && words[i] !== '--'; i++) {
    const name = nameOf(words[i]!);
    if (name === null) continue;
    // A list flag (`--tools`, `--check`, `--allow`) typed with nothing after it (`--tools $T`, T
    // unset) is an empty list: `--tools` offered no tools without a word. `--tools ''` still says none.
    const list = lists.has(name);
    if (!list && (flagless.has(name) || options.default?.[name] === undefined)) continue;
    const next = words[i + 1];
    if (next !== undefined && next !== '--' && nameOf(next) === null && !/^--no-./.test(next)) continue;
    if (list) throw new InputError(`${words[i]} needs a value: it was given none`, name === 'tools' ? "--tools '' offers no tools; leave it out for the default ones" : `leave ${words[i]} out, or give it a value`);
    const choices = options.choices?.[name];
    throw new InputError(`${words[i]} needs a value${choices?.length ? `, one of ${choices.join(', ')}` : ''}: it was given none`, `leave ${words[i]} out for its default (${String(options.default?.[name])})`);
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

/**
 * Registers the check on a parser; it runs before yargs' own validation, for every command.
 * `implied`: the words start with a `run` nobody typed (`unattended -p "…"`), which the line to
 * parse again (DashValuesJoined) leaves out again.
 */
export function withMisreadFlagsRefused(parser: Argv, words: readonly string[], implied = 0, hints: string[] = []): Argv {
  // yargs calls a middleware with the selected command's instance too; its types declare only argv.
  const check = (parsed: Record<string, unknown>, instance: { getOptions(): DeclaredOptions }) => {
    const joined = joinDashValues(words, instance.getOptions());
    if (joined) throw new DashValuesJoined(joined.slice(implied));
    const hint = dashWordHint(words, instance.getOptions());
    if (hint) hints.push(hint);
    refuseNegatedValueFlags(words, instance.getOptions());
    refuseValuelessDefaults(words, instance.getOptions());
    refuseRepeatedFlags(words, parsed, instance.getOptions());
  };
  return parser.middleware(check as never, true);
}
