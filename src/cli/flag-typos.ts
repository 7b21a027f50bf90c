// "Did you mean" for a flag yargs does not know: `--max-turn 5` or `--aproval deny` was refused with
// only "Unknown argument: max-turn", and the user had to read the whole --help to find the letter.
import { closest } from '../recipe/suggest.js';

/**
 * One line per unknown flag that is a likely typo of one the command has (`known`: its options, as
 * yargs declares them), for yargs' "Unknown argument(s): a, b"; null when none is.
 */
export function nearFlagHint(message: string, known: readonly string[]): string | null {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (!unknown || known.length === 0) return null;
  const names = unknown.split(', ');
  // yargs names a kebab-case flag twice (`max-turn, maxTurn`), and declares its options twice too.
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const flags = [...new Set(known.filter((name) => name.length > 1 && kebab(name) === name))];
  const hints = [...new Set(names.filter((name) => name.length > 2).map(kebab))].flatMap((name) => {
    // A flag cut short (`--max-cost` for --max-cost-usd) is no typo by distance, but as clear.
    const longer = flags.filter((flag) => flag.startsWith(`${name}-`));
    const near = longer.length === 1 ? longer[0] : closest(name, flags, name.length >= 7 ? 2 : 1);
    return near ? [`--${name}: did you mean --${near}?`] : [];
  });
  return hints.length > 0 ? hints.join('\n') : null;
}
