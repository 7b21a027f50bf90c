// Programs that create directory entries under names they read rather than names in their words:
// an archive extractor writes the names its archive holds, `git checkout` the names a commit
// holds, `patch` the files a diff names. A repository can ship an archive, a branch or a patch in
// which `f` is a symbolic link to /etc/passwd or out of the workspace, so after such a command
// a bare name that did not exist when the line was checked may lead anywhere
// (`tar xf x.tar && cat f`). shell-paths.ts refuses such a name in the rest of the line.
//
// Each counts only in the modes that write the work tree: `tar czf` creates an archive and `tar
// tzf` lists one, `unzip -l` lists, `git checkout -b x` starts a branch where HEAD is and changes
// no file, `git reset --soft` and `git restore --staged` touch the index only. Where a mode cannot
// be read for sure (an option the reading does not know), the command counts.
import path from 'node:path';
import { gitSubcommandAt } from './git-scripts.js';
import { longOption } from './shell-options.js';
import { commandWords, knowsWords } from './shell-opened.js';
import { WRAPPERS } from './shell-rules.js';

const TARS: ReadonlySet<string> = new Set(['tar', 'gtar', 'bsdtar', 'star']);
/** tar's short options that take a value: letters after one in a word are that value (`-fx.tar`). */
const TAR_VALUED = 'bCfFgHIKLNTVX';

/** Listing, testing and printing modes of unzip: it writes no file in them. */
const UNZIP_NO_FILES = /[lvtpcz]/;
/** unzip's short options that take a value. */
const UNZIP_VALUED = 'dPIO';

/** Commands of 7z and unrar that write no file but the archive they name. */
const SEVEN_ZIP_NO_FILES: ReadonlySet<string> = new Set(['l', 't', 'h', 'i', 'b', 'a', 'd', 'u', 'rn']);
const UNRAR_NO_FILES: ReadonlySet<string> = new Set(['l', 'lt', 'lta', 'lb', 'v', 'vt', 'vta', 'vb', 't', 'p']);

/** git subcommands that write the work tree from a commit, a stash, a patch or another repository. */
const GIT_EXTRACTORS: ReadonlySet<string> = new Set([
  'checkout', 'switch', 'restore', 'reset', 'merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'stash', 'am', 'apply', 'read-tree',
  'checkout-index', 'worktree', 'clone', 'submodule', 'bisect', 'sparse-checkout',
]);

/** Their forms that write no file of the work tree (a bare `git stash` restores HEAD's files: it counts). */
const GIT_NO_FILES: Readonly<Record<string, ReadonlySet<string>>> = {
  stash: new Set(['list', 'show', 'create', 'store', 'drop', 'clear']),
  bisect: new Set(['log', 'view', 'visualize', 'terms', 'help']),
  worktree: new Set(['list', 'lock', 'unlock', 'prune', 'remove', 'repair']),
  submodule: new Set(['status', 'summary', 'init', 'sync', 'set-branch', 'set-url', 'absorbgitdirs']),
  'sparse-checkout': new Set(['list']),
};

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/**
 * True when `argv`, or a command it runs (`timeout 60 tar xf x.tar`, `xargs tar xf`), may create
 * entries under names that come from an archive, a commit or a patch.
 */
export function extractsNames(argv: readonly string[]): boolean {
  const starts = [0, ...commandWords(argv).runs];
  // A wrapper the tables do not read (`sudo tar xf x.tar`) may run any of its words.
  if (WRAPPERS.has(base(argv[0])) && !knowsWords(argv[0]!)) starts.push(...argv.keys());
  return starts.some((start) => extracts(argv.slice(start)));
}

function extracts(argv: readonly string[]): boolean {
  const program = base(argv[0]);
  if (TARS.has(program)) return tarExtracts(argv);
  if (program === 'unzip') return unzipExtracts(argv);
  if (['7z', '7za', '7zr'].includes(program)) return !SEVEN_ZIP_NO_FILES.has(argv[1] ?? '');
  if (program === 'unrar') return !UNRAR_NO_FILES.has(argv[1] ?? '');
  // pax reads an archive into files with -r (also -rw, which copies); cpio with -i (not -it) or -p.
  if (program === 'pax') return argv.slice(1).some((word) => /^-[a-z]*r/.test(word));
  if (program === 'cpio' || program === 'bsdcpio') return cpioExtracts(argv);
  if (program === 'patch') return !argv.some((word) => word.length > 4 && '--dry-run'.startsWith(word));
  if (program === 'unsquashfs' || program === 'dpkg-deb') return true;
  return program === 'git' && gitWritesWorkTree(argv);
}

/** tar writes files in -x/--extract/--get mode, unless -O/--to-stdout sends them to stdout. */
function tarExtracts(argv: readonly string[]): boolean {
  let extract = false;
  let toStdout = false;
  for (const [i, word] of argv.entries()) {
    if (i === 0) continue;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const name = word.split('=')[0]!;
      if (longOption(name, ['--extract']) || longOption(name, ['--get'])) extract = true;
      if (name.length > 6 && '--to-stdout'.startsWith(name)) toStdout = true;
    } else if (i === 1 && !word.startsWith('-')) {
      // The old style: the first word is letters without a dash, their values the words after it.
      if (word.includes('x')) extract = true;
      if (word.includes('O')) toStdout = true;
    } else if (word.startsWith('-')) {
      if (word.includes('x')) extract = true;
      const letters = word.slice(1);
      const valued = [...letters].findIndex((letter) => TAR_VALUED.includes(letter));
      if ((valued < 0 ? letters : letters.slice(0, valued)).includes('O')) toStdout = true;
    }
  }
  return extract && !toStdout;
}

/**
 * unzip extracts unless an option before the archive asks to list, test or print: `-l`, `-v`,
 * `-t`, `-p`, `-c`, `-z`, or `-Z` first. A second dash (`--l`, `-l-`) negates what follows it, so
 * any word with one counts as extracting; after the archive, words are the members to extract.
 */
function unzipExtracts(argv: readonly string[]): boolean {
  let listing = false;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-') || word === '-') break;
    if (!/^-[A-Za-z]+$/.test(word)) return true;
    const letters = word.slice(1);
    const valued = [...letters].findIndex((letter) => UNZIP_VALUED.includes(letter));
    const own = valued < 0 ? letters : letters.slice(0, valued);
    if (UNZIP_NO_FILES.test(own) || (i === 1 && own.startsWith('Z'))) listing = true;
    if (valued === letters.length - 1) i++;
  }
  return !listing;
}

/** cpio writes files in copy-in mode (-i, --extract), unless it only lists (-t), and in pass-through mode (-p). */
function cpioExtracts(argv: readonly string[]): boolean {
  const letters = argv
    .slice(1)
    .filter((word) => /^-[A-Za-z]/.test(word))
    .map((word) => {
      const own = word.slice(1);
      const valued = [...own].findIndex((letter) => 'HFEIOMRCW'.includes(letter));
      return valued < 0 ? own : own.slice(0, valued);
    })
    .join('');
  const long = argv.filter((word) => word.startsWith('--')).map((word) => word.split('=')[0]!);
  const has = (letter: string, name: string) => letters.includes(letter) || long.some((word) => word.length > 4 && name.startsWith(word));
  if (has('p', '--pass-through')) return true;
  if (has('t', '--list')) return false;
  return !has('o', '--create') || has('i', '--extract');
}

/** Whether a git command writes files of the work tree that its commit, stash or patch names. */
function gitWritesWorkTree(argv: readonly string[]): boolean {
  const at = gitSubcommandAt(argv);
  const subcommand = argv[at];
  if (subcommand === undefined || !GIT_EXTRACTORS.has(subcommand)) return false;
  const args = argv.slice(at + 1);
  const noFiles = GIT_NO_FILES[subcommand];
  if (noFiles) return !(args.length === 0 ? subcommand !== 'stash' && subcommand !== 'bisect' : noFiles.has(args[0]!));
  if (subcommand === 'checkout' || subcommand === 'switch') return !startsBranchAtHead(subcommand, args);
  if (subcommand === 'reset') return args.some((word) => ['--hard', '--merge', '--keep'].some((mode) => word.length > 3 && mode.startsWith(word)));
  if (subcommand === 'restore') return restoresWorkTree(args);
  if (subcommand === 'apply') return !args.some((word) => ['--check', '--stat', '--numstat', '--summary', '--cached'].includes(word)) || args.includes('--index') || args.includes('--apply');
  if (subcommand === 'read-tree') return args.some((word) => /^-[a-z]*u/.test(word));
  return true;
}

/**
 * `git checkout -b x`, `git switch -c x` (also -B, -C, --orphan, `git switch --detach`) with no
 * start point: a new branch where HEAD is, whose files are the ones already there. Any operand
 * (a start point, a path) or an option outside these (-f discards changes, restoring HEAD's
 * files) counts as writing.
 */
function startsBranchAtHead(subcommand: string, args: readonly string[]): boolean {
  const valued = subcommand === 'checkout' ? ['-b', '-B', '--orphan'] : ['-c', '-C', '--create', '--force-create', '--orphan'];
  const flags = ['-q', '--quiet', '-t', '--track', '--no-track', '--guess', '--no-guess', ...(subcommand === 'switch' ? ['-d', '--detach'] : [])];
  let branch = subcommand === 'switch' && args.some((word) => word === '-d' || word === '--detach');
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const name = word.split('=')[0]!;
    if (valued.includes(name)) {
      if (!word.includes('=')) i++;
      branch = true;
    } else if (/^-[bBcC]./.test(word) && valued.includes(word.slice(0, 2))) branch = true;
    else if (!flags.includes(name) && !(name === '--track' && word.includes('='))) return false;
  }
  return branch;
}

/** `git restore` writes the work tree unless only --staged (-S) is asked for, without --worktree (-W). */
function restoresWorkTree(args: readonly string[]): boolean {
  let staged = false;
  let worktree = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const name = word.split('=')[0]!;
      if (name.length > 4 && '--staged'.startsWith(name)) staged = true;
      if (name.length > 3 && '--worktree'.startsWith(name)) worktree = true;
      if ((name === '--source' || name === '--pathspec-from-file') && !word.includes('=')) i++;
    } else if (word.startsWith('-')) {
      // -s takes the source: the rest of the word, or the next one.
      for (let c = 1; c < word.length; c++) {
        if (word[c] === 'S') staged = true;
        if (word[c] === 'W') worktree = true;
        if (word[c] === 's') {
          if (c === word.length - 1) i++;
          break;
        }
      }
    }
  }
  return worktree || !staged;
}
