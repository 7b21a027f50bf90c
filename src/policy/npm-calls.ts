// The command lines npx and npm exec hand to a shell: `npx -c '…'`, `npm exec --call '…'`. Only
// npm's own options count, read as npm 7+ reads them (bin/npx-cli.js, nopt). npx takes its
// options up to the first word that is neither an option nor an option's value, and hands the
// rest to the package's program: in `npx prettier -c 'src/**'` the -c is prettier's. npm takes
// its options anywhere before `--` (and refuses --call beside any other argument, so
// `npm exec prettier -c …` runs nothing).
import path from 'node:path';

/**
 * Options npx knows take no value. npx takes the next word as the value of any other option
 * unless it starts with '-', even of one it does not know (`npx --registry x -c '…'`), so only
 * options boolean in every npm since 7 are here: treating one with a value as a switch would end
 * the options early and miss a -c after it.
 */
const SWITCHES: ReadonlySet<string> = new Set([
  'y', 'yes', 'q', 'quiet', 'no-install', 's', 'silent', 'prefer-offline', 'prefer-online', 'offline', 'ignore-scripts',
]);

/** npm's single-letter shorthands: a cluster of them is expanded (`-yc`, `--qc` are `--yes --call`). */
const SHORTHAND_CLUSTER = /^[?BCDEHLOPSacdfghlmnpqsvwy]+$/;

/** npm exec and its alias and abbreviation. */
const EXEC: ReadonlySet<string> = new Set(['exec', 'exe', 'x']);

/** True when an option's name (its dashes, any number of them, and `=value` removed) gives --call. */
function isCall(key: string): boolean {
  if (key === 'c' || key === 'cal' || key === 'call') return true;
  // `ca` is an option of its own (a certificate), never the cluster `-c -a`.
  return key !== 'ca' && key.includes('c') && SHORTHAND_CLUSTER.test(key);
}

/** The strings npm's own -c/--call gives argv (a command starting with npx or npm) to run with a shell. */
export function npmCallStrings(argv: readonly string[]): string[] {
  const program = path.posix.basename(argv[0] ?? '');
  const end = argv.indexOf('--') < 0 ? argv.length : argv.indexOf('--');
  if (program === 'npx') return calls(argv.slice(1, end), true);
  if (program === 'npm' && argv.slice(1, end).some((word) => EXEC.has(word))) return calls(argv.slice(1, end), false);
  return [];
}

/** The call strings among `words`; with `optionsFirst` (npx), only up to the first operand. */
function calls(words: readonly string[], optionsFirst: boolean): string[] {
  const strings: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) {
      if (optionsFirst) break;
      continue;
    }
    const eq = word.indexOf('=');
    const key = (eq < 0 ? word : word.slice(0, eq)).replace(/^-+/, '');
    const next = words[i + 1];
    if (isCall(key)) {
      const value = eq < 0 ? next : word.slice(eq + 1);
      if (value !== undefined) strings.push(value);
      // A next word that looks like an option is read as one too: which of them npm takes is its business.
      if (eq < 0 && next !== undefined && !next.startsWith('-')) i++;
    } else if (optionsFirst && eq < 0 && !SWITCHES.has(key) && next !== undefined && !next.startsWith('-')) {
      i++;
    }
  }
  return strings;
}

/**
 * Where the program npx runs starts in argv (a command starting with npx), read as calls() reads
 * npx's options, or -1: `npx -y nodemon --exec '…'` runs nodemon at 2, whose lines are checked there.
 */
export function npxOperand(argv: readonly string[]): number {
  if (path.posix.basename(argv[0] ?? '') !== 'npx') return -1;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!word.startsWith('-')) return i;
    const key = word.replace(/^-+/, '');
    if (!word.includes('=') && !SWITCHES.has(key) && !(argv[i + 1] ?? '-').startsWith('-')) i++;
  }
  return -1;
}
