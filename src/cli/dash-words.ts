// Prompts that start with a dash. yargs reads any word that starts with '-' as flags, so
// `unattended -p "- fix the typo"` (a Markdown list, `-p "$(cat TODO.md)"`) became the flags ` `,
// `f`, `i`, `x` and an empty prompt, and the words after `--` were taken for a command name
// ("unknown command 'run fix the typo'"). Claude Code's parser takes the word after -p whatever it
// starts with, and `--` ends the options in every CLI.
import { runShortFlags } from './run-argv.js';

/** The flags whose value is free text a person writes. */
const TEXT_FLAGS = new Set(['-p', '--prompt', '--append-system-prompt']);
/** One word shaped like a flag (`-x`, `--name`, `--name=value`): left for yargs to read as one. */
export const FLAG_SHAPED = /^--?[A-Za-z][A-Za-z0-9-]*(?:=|$)/;

/**
 * argv with each text flag's value that starts with '-' but is no flag (`- fix`, `-fix the typo`)
 * joined to its flag (`--prompt=- fix`), which yargs and run-argv.ts read as the value; a one-letter
 * flag right before `--` in its long form.
 */
export function attachDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return [...out, ...argv.slice(i)];
    const value = argv[i + 1];
    // yargs takes a `--` after a one-letter flag for its value (`-m --`: a model named "--"; `-c --
    // "-x"`: the words after it read as flags), not after the long form: it is given as that.
    const long = value === '--' ? runShortFlags().get(word) : undefined;
    if (long) {
      out.push(long);
      continue;
    }
    if (TEXT_FLAGS.has(word) && value !== undefined && value.startsWith('-') && value !== '-' && value !== '--' && !FLAG_SHAPED.test(value)) {
      out.push(`${word === '-p' ? '--prompt' : word}=${value}`);
      i++;
    } else {
      out.push(word);
    }
  }
  return out;
}

/**
 * `run`'s positional words with those after `--` (which yargs leaves in `_` after the command):
 * they are the recipe or the prompt, as the words before would be.
 */
export function withWordsAfterDashes<T extends { recipe?: string; words?: string[] }>(args: T, after: readonly string[]): T {
  if (after.length === 0) return args;
  if (args.recipe === undefined) return { ...args, recipe: after[0], words: after.slice(1) };
  return { ...args, words: [...(args.words ?? []), ...after] };
}
