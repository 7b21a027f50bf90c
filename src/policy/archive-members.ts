// What an archive will write, read before it is extracted. An allowed `tar xf x.tar` or `unzip
// x.zip` writes the names the archive holds, which no word of the line shows: a member `.git/hooks/
// pre-commit`, or `out/x` where the workspace's `out` is a link leading elsewhere. The archive is
// listed (tar -t, unzip -Z1), and shell-paths.ts checks each name as a path the command writes.
// Names are taken as the extractor takes them without -P or -: (both refused by their guards): a
// leading '/' is dropped, and a member with '..' is skipped by tar and has it dropped by unzip.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { longOption } from './shell-options.js';
import { hostProgramOutside } from '../util/host-program.js';

/** Members listed, at most: a bigger archive is refused rather than half checked. */
const MEMBER_BUDGET = 20_000;
const LIST_TIMEOUT_MS = 5_000;

export type ArchiveWrites = { names: string[]; into: string[]; archive: string } | { problem: string };

/**
 * The names `argv` (a tar or unzip that extracts; shell-extractors.ts tells) writes, relative to
 * the directories it writes into, as run from `directory`; null for any other command.
 */
export function archiveWrites(argv: readonly string[], directory: string, root: string): ArchiveWrites | null {
  const program = path.posix.basename(argv[0] ?? '');
  const read = program === 'tar' || program === 'gtar' ? readTar(argv) : program === 'unzip' ? readUnzip(argv) : null;
  if (read === null) return null;
  if (read.archive === null || read.archive === '-') {
    return { problem: `'${argv.join(' ')}' reads its archive from stdin, whose members cannot be checked; name the archive (-f FILE)` };
  }
  // The system's tar and unzip, never the command's own word (`./tar` may be the repository's), on
  // the archive as a local file (`--force-local`: `host:x.tar` would make tar start a remote shell).
  // They run here on the host, before any sandbox: never from the workspace (npx puts its
  // node_modules/.bin first on PATH), nor the gzip or xz tar starts by name for a compressed one.
  const lister = hostProgramOutside(program === 'unzip' ? 'unzip' : 'tar', process.env.PATH, [directory, root]);
  const file = path.isAbsolute(read.archive) ? read.archive : `./${read.archive}`;
  const env = { ...process.env, PATH: lister?.pathVariable ?? '' };
  const options = { cwd: directory, env, encoding: 'utf8' as const, timeout: LIST_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  // -i: past an end-of-archive block too, as `tar -xi` reads concatenated archives.
  const listing = lister === null ? null : program === 'unzip' ? spawnSync(lister.program, ['-Z1', file], options) : spawnSync(lister.program, ['--force-local', '-i', '-tf', file], options);
  if (listing === null || lister === null || listing.status !== 0 || listing.error) {
    return { problem: `the archive '${read.archive}' cannot be listed before it is extracted (it does not exist yet, or is no archive ${program} reads), so what it writes cannot be checked; extract it in a call of its own` };
  }
  // Links in a tar: a member through a link the archive made (`g -> .git`, then `g/hooks/x`), or a
  // hard link to any file, lands where no listed name says. Refused, not followed.
  if (program !== 'unzip') {
    const verbose = spawnSync(lister.program, ['--force-local', '-i', '-tvf', file], options);
    const link = verbose.stdout?.split('\n').find((line) => /^[lh]/.test(line));
    if (verbose.status !== 0 || link !== undefined) {
      return { problem: `the archive '${read.archive}' holds a link ('${(link ?? '').replace(/^\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+/, '')}'), through which it may write where no member's name says; extract it in a sandbox, or without its links` };
    }
  }
  const names = listing.stdout.split('\n').filter(Boolean);
  if (names.length > MEMBER_BUDGET) return { problem: `the archive '${read.archive}' holds more than ${MEMBER_BUDGET} members, too many to check before it is extracted` };
  const kept = names.flatMap((name) => {
    // unzip writes a name made on Windows or FAT with its backslashes as slashes.
    const parts = name.split(program === 'unzip' ? /[\\/]/ : '/').filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) return program === 'unzip' ? [parts.filter((part) => part !== '..').join('/')] : [];
    return [parts.join('/')];
  });
  const into = read.into.length ? read.into.map((dir) => path.resolve(directory, dir)) : [directory];
  return { names: kept.filter(Boolean), into, archive: read.archive };
}

/** tar's archive (-f, --file, or old style's f) and the directories it extracts into (-C, --directory). */
function readTar(argv: readonly string[]): { archive: string | null; into: string[] } {
  let archive: string | null = null;
  const into: string[] = [];
  let i = 1;
  // Old style: the first word's letters, their values the words after it, in order.
  if (argv[1] !== undefined && !argv[1].startsWith('-')) {
    let next = 2;
    for (const letter of argv[1]) {
      if (letter === 'f') archive = argv[next] ?? null;
      if (letter === 'C') into.push(argv[next] ?? '.');
      if ('bCfFgHIKLNTVX'.includes(letter)) next++;
    }
    i = next;
  }
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = longOption(eq < 0 ? word : word.slice(0, eq), ['--file', '--directory']);
      const value = eq < 0 ? argv[i + 1] : word.slice(eq + 1);
      if (name !== null && eq < 0) i++;
      if (name === '--file') archive = value ?? null;
      if (name === '--directory' && value !== undefined) into.push(value);
      continue;
    }
    if (!word.startsWith('-')) continue;
    const letters = word.slice(1);
    const at = [...letters].findIndex((letter) => 'bCfFgHIKLNTVX'.includes(letter));
    if (at < 0) continue;
    const value = at === letters.length - 1 ? argv[++i] : letters.slice(at + 1);
    if (letters[at] === 'f') archive = value ?? null;
    if (letters[at] === 'C' && value !== undefined) into.push(value);
  }
  return { archive, into };
}

/** unzip's archive (its first operand) and -d's directory. */
function readUnzip(argv: readonly string[]): { archive: string | null; into: string[] } {
  let archive: string | null = null;
  const into: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word.startsWith('-') && word.length > 1) {
      const at = [...word.slice(1)].findIndex((letter) => 'dPIOx'.includes(letter));
      if (at < 0) continue;
      const letter = word[at + 1]!;
      const value = at === word.length - 2 ? argv[++i] : word.slice(at + 2);
      if (letter === 'd' && value !== undefined) into.push(value);
      // -x takes the names to exclude, to the end or the next option.
      if (letter === 'x') while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (archive === null) archive = word;
  }
  return { archive, into };
}
