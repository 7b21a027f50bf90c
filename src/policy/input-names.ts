// Whether the names a command's xargs or parallel (or cpio -o, git hash-object --stdin-paths) reads from its input may be opened
// (piped-names.ts says what they are). Literal names are checked as any argument is: inside the
// workspace, no protected path; each is also put where -I's string stands in the command's words
// (`echo ../.. | xargs -I X cat X/etc/passwd`). Names a lister printed pass; any others are
// refused, as the policy cannot see them before the line runs.
import path from 'node:path';
import { readParallel } from './parallel-input.js';
import { xargsCandidates, type PipedNames } from './piped-names.js';
import type { Split } from './odd-names.js';
import { readXargs } from './xargs-input.js';
import { clip } from './clip.js';

export interface NameChecks {
  /** Why `name` leads outside the workspace from where the command runs, or null. */
  outside(name: string): string | null;
  /** Why `name` reaches a protected path the matching rule does not spell out, or null. */
  protectedReach(name: string): string | null;
  /** Why a name a lister prints of `tree` would not read back as itself, split so (odd-names.ts), or null. */
  oddName(tree: Extract<PipedNames, { kind: 'tree' }>, split: Split): string | null;
}

const NAME_IT = 'name the files in the command itself (find, git ls-files or the glob tool list them)';

/** Programs that only print their words: the names xargs hands them are never opened. */
const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf']);

/** `xargs cat`, `parallel wc -l`: the xargs or parallel in `argv` and the program it hands names to, or null when it only prints them. */
export function nameReader(argv: readonly string[]): string | null {
  const at = argv.findIndex((word) => ['xargs', 'parallel'].includes(path.posix.basename(word)));
  if (at < 0) return otherReader(argv);
  const xargs = path.posix.basename(argv[at]!) === 'xargs';
  const program = xargs ? readXargs(argv, at).program : readParallel(argv, at).program;
  // An option it does not know: its program cannot be told, so it is taken to open them.
  if (program === null) return argv.slice(at).join(' ');
  const name = argv[program];
  // With no program xargs runs echo; parallel runs each name as a command (refused as such elsewhere).
  if (name === undefined || PRINTERS.has(path.posix.basename(name))) return null;
  return `${argv[at]} ${name}`;
}

/** `cpio -o` and `cpio -p` archive or copy the files stdin names; `git hash-object --stdin-paths` hashes (-w: stores) them. */
function otherReader(argv: readonly string[]): string | null {
  const cpio = argv.findIndex((word) => path.posix.basename(word) === 'cpio');
  if (cpio >= 0 && argv.slice(cpio + 1).some((word) => /^-[A-Za-z]*[op]/.test(word) || /^--(create|pass-through)/.test(word))) return argv.slice(cpio, cpio + 2).join(' ');
  const git = argv.findIndex((word) => path.posix.basename(word) === 'git');
  if (git >= 0 && argv.includes('hash-object') && argv.includes('--stdin-paths')) return 'git hash-object --stdin-paths';
  return null;
}

/**
 * `reader` is what nameReader() said opens the names (`xargs cat`); `input` is what the
 * command's stdin holds (null: nothing, as the runner's shells get no stdin).
 */
export function inputNamesProblem(argv: readonly string[], reader: string, input: PipedNames | null, checks: NameChecks): string | null {
  const at = argv.findIndex((word) => ['xargs', 'parallel'].includes(path.posix.basename(word)));
  let replace: string | null = null;
  // cpio and git hash-object read a name a line (cpio -0: NUL-separated).
  let split: Split = at < 0 && argv.some((word) => word === '--null' || /^-[A-Za-z]*0/.test(word)) ? 'nul' : 'lines';
  if (at < 0) {
    // As given.
  } else if (path.posix.basename(argv[at]!) === 'xargs') {
    const call = readXargs(argv, at);
    if (call.argFile !== null) input = { kind: 'unknown', what: `the lines of '${call.argFile}'` };
    replace = call.replace;
    split = call.nul ? 'nul' : replace !== null ? 'lines' : 'blanks';
  } else {
    const call = readParallel(argv, at);
    if (!call.readsStdin) return call.argFile === null ? null : refusal(reader, `the lines of '${call.argFile}'`);
    // Its braces ({.}, {//}, {= perl =}) make new names of the ones it reads.
    if (input?.kind === 'words' && argv.slice(at + 1).some((word) => /\{[^}\s]/.test(word))) return refusal(reader, 'made into new names by its replacement strings');
    replace = '{}';
    if (argv.slice(at + 1, call.program ?? argv.length).some((word) => word === '--null' || /^-[A-Za-z]*0/.test(word))) split = 'nul';
  }
  if (input === null) return null;
  if (input.kind === 'tree') {
    const odd = split === 'nul' ? null : checks.oddName(input, split);
    return odd === null ? null : `'${reader}' opens the names a lister prints, and ${odd}: print them NUL-separated (find -print0, git ls-files -z, grep -lZ) and read them with xargs -0`;
  }
  if (input.kind === 'unknown') return refusal(reader, input.what);
  const names = xargsCandidates(input.text);
  if (names === null) return `'${reader}' reads '${clip(input.text)}', whose quotes xargs cannot read; ${NAME_IT}`;
  const holders = replace === null || at < 0 ? [] : argv.slice(at + 1).filter((word) => word.includes(replace!) && word !== replace);
  for (const name of names) {
    for (const candidate of [name, ...holders.map((word) => word.split(replace!).join(name))]) {
      const outside = checks.outside(candidate);
      if (outside) return `'${reader}' opens the names it reads, and its input gives it '${clip(candidate)}', which leads outside the workspace: ${outside}`;
      const reached = checks.protectedReach(candidate);
      if (reached) return `'${reader}' opens the names it reads: ${reached}`;
    }
  }
  return null;
}

function refusal(reader: string, what: string): string {
  return `'${reader}' opens the names it reads, and they are ${what}, which the policy cannot check before the line runs; ${NAME_IT}`;
}
