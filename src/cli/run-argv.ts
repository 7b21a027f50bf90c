// `unattended run …` parsed without yargs, for the command lines whose meaning is plain: yargs and
// its grammar of every command are ~170 kB to load and ~15 ms to build and parse at each start, a
// fifth of a run's start-up. The flags are read from run-options.ts, the one definition yargs uses
// too; whatever is not plain here (an unknown flag, a bad choice, `--`, help, `-pX`, a flag given
// twice, a value that looks like a flag, a number yargs would coerce) returns null, and yargs parses
// the line as before, with its errors. test/cli/run-argv.test.ts checks both give the same result.
import { COMMANDS } from './command-names.js';
import { runOptions, type RunArgs } from './commands/run-options.js';

interface FlagSpec {
  type: 'string' | 'number' | 'boolean';
  array: boolean;
  choices: readonly string[] | null;
  defaultValue: unknown;
}

interface RunGrammar {
  flags: Map<string, FlagSpec>;
  /** `-p` -> `prompt`. */
  aliases: Map<string, string>;
}

let grammar: RunGrammar | undefined;

/** run-options.ts' flags, recorded by calling it on a stand-in for yargs' builder. */
function runGrammar(): RunGrammar {
  if (grammar) return grammar;
  const flags = new Map<string, FlagSpec>();
  const aliases = new Map<string, string>();
  type Spec = { type?: FlagSpec['type']; array?: boolean; choices?: readonly string[]; default?: unknown; alias?: string };
  const recorder = {
    positional: () => recorder,
    option(name: string, spec: Spec) {
      const type = spec.type ?? 'string';
      flags.set(name, { type, array: spec.array === true, choices: spec.choices ?? null, defaultValue: spec.default });
      if (spec.alias) aliases.set(spec.alias, name);
      return recorder;
    },
  };
  runOptions(recorder as never);
  return (grammar = { flags, aliases });
}

/** `-c` -> `--continue`: run's one-letter flags and their long forms. */
export function runShortFlags(): ReadonlyMap<string, string> {
  return new Map([...runGrammar().aliases].map(([short, long]) => [`-${short}`, `--${long}`]));
}

/** A value yargs reads as the same number: plain decimal digits, no sign, exponent or hex. */
const PLAIN_NUMBER = /^(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/;

/**
 * The arguments `runCommand` reads, when argv is a `run` (typed or implied) in the plain form;
 * null when yargs must parse it. `bare`: no command was typed (`unattended -p "…"`).
 */
export function plainRunArgs(argv: readonly string[]): { args: RunArgs; bare: boolean } | null {
  const typed = argv[0] === 'run';
  if (!typed && argv.length > 0 && COMMANDS.has(argv[0]!)) return null;
  const { flags, aliases } = runGrammar();
  const values = new Map<string, unknown>();
  const positionals: string[] = [];
  for (let i = typed ? 1 : 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('-')) {
      positionals.push(token);
      continue;
    }
    if (token === '-' || token === '--') return null;
    let name: string;
    let inline: string | null = null;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      name = eq === -1 ? token.slice(2) : token.slice(2, eq);
      if (eq !== -1) inline = token.slice(eq + 1);
    } else {
      // A one-letter alias and its value as the next word; `-pX`, `-p=X` and groups go to yargs.
      const long = token.length === 2 ? aliases.get(token[1]!) : undefined;
      if (!long) return null;
      name = long;
    }
    let spec = flags.get(name);
    let negated = false;
    if (!spec && name.startsWith('no-') && flags.get(name.slice(3))?.type === 'boolean') {
      name = name.slice(3);
      spec = flags.get(name);
      negated = true;
    }
    if (!spec || values.has(name)) return null;
    if (spec.type === 'boolean') {
      // `--flag=false` and `--flag false` are yargs' to read.
      if (inline !== null || argv[i + 1] === 'true' || argv[i + 1] === 'false') return null;
      values.set(name, !negated);
      continue;
    }
    if (negated) return null;
    // A value that starts with '-' is a flag to yargs, and an array flag takes every word up to the
    // next flag: the same here.
    const wordAt = (at: number) => at < argv.length && !argv[at]!.startsWith('-');
    const words: string[] = [];
    if (inline !== null) {
      // `--allow=` is an empty list to yargs (`--allow ''` a list of one empty word), and how many
      // words `--allow=a b` takes is yargs' to say.
      if (inline === '' || (spec.array && wordAt(i + 1))) return null;
      words.push(inline);
    } else {
      while (wordAt(i + 1)) {
        words.push(argv[++i]!);
        if (!spec.array) break;
      }
      if (words.length === 0) return null;
    }
    if (spec.type === 'number' && !words.every((w) => PLAIN_NUMBER.test(w))) return null;
    if (spec.choices && !words.every((w) => spec.choices!.includes(w))) return null;
    const typedWords = spec.type === 'number' ? words.map(Number) : words;
    values.set(name, spec.array ? typedWords : typedWords[0]);
  }
  const args: Record<string, unknown> = { _: ['run'] };
  for (const [name, spec] of flags) {
    const value = values.has(name) ? values.get(name) : spec.defaultValue;
    if (value !== undefined) args[name] = value;
  }
  if (positionals.length > 0) args.recipe = positionals[0];
  args.words = positionals.slice(1);
  return { args: args as unknown as RunArgs, bare: !typed };
}
