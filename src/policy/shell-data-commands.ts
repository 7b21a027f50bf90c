// Programs that may run text of the data they read as a command, for deny rules: GNU sed's `e`
// command and `s///e` flag run the pattern space, and sort hands its data to its
// --compress-program, which a shell reads as a script (`… | sort -S 64K --compress-program=sh`).
// What the data holds cannot be checked, so such a command is refused wherever it stands.
import path from 'node:path';
import { sedRunsCommand } from './sed-guard.js';
import { longOption } from './shell-options.js';

/** Compressors sort may run on its temporary files: by their bare name, they run no command. */
const COMPRESSORS: ReadonlySet<string> = new Set(['gzip', 'bzip2', 'xz', 'zstd', 'lz4', 'lzop', 'pigz', 'pbzip2', 'lzip']);

/** Why the command starting at argv[0] may run text of its data as a command, or null. */
export function runsItsData(argv: readonly string[]): string | null {
  const program = path.posix.basename(argv[0] ?? '').toLowerCase();
  if (program === 'sed' || program === 'gsed') {
    const problem = sedRunsCommand(argv);
    return problem === null ? null : `${problem}; sed's e command and s///e flag run text of its input, so write the commands out instead`;
  }
  if (program === 'sort') {
    const compressor = sortCompressor(argv);
    if (compressor !== null && !COMPRESSORS.has(compressor)) {
      return `sort runs its --compress-program '${compressor}' on the data it sorts, which a shell would run as commands that cannot be checked; leave the option out or name a compressor (gzip, zstd, xz)`;
    }
  }
  return null;
}

function sortCompressor(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const eq = word.indexOf('=');
    if (longOption(eq < 0 ? word : word.slice(0, eq), ['--compress-program']) === null) continue;
    return eq < 0 ? (argv[i + 1] ?? '') : word.slice(eq + 1);
  }
  return null;
}
