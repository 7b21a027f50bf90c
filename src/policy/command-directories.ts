// Directories other than the one a command runs in that its words are taken from. The path check
// resolves every word from each of them as well (shell-paths.ts), so a word that leaves the
// workspace from any is refused:
// - `tar -C DIR` takes the names after it from DIR (`cd a/b && tar -C ../.. -cf o.tar ../x`);
// - `git -C DIR` runs in DIR, and several of git's options take their file from the top of the
//   repository, not the current directory (`blame --contents`, `notes add -F`, `fast-export
//   --import-marks`, `read-tree --index-output`);
// - `ln -s TARGET LINK`: the kernel reads TARGET from LINK's directory, not from where ln ran;
// - `patch -d DIR` takes its -o and the names its patch holds from DIR.
import fs from 'node:fs';
import path from 'node:path';
import { gitSubcommandAt } from './git-scripts.js';
import { longOption } from './shell-options.js';
import { isDirectory } from '../util/paths.js';
import { nearestRepository } from '../util/nearest-repository.js';
import { readRegularText } from '../util/read-regular-file.js';

/** More than a `.git` file or commondir ever holds. */
const POINTER_BYTES = 1024 * 1024;

/**
 * The further directories `argv`, run in any of `directories`, takes words from (within `root`,
 * the workspace), and the indexes of the words that name them, which are taken from where it runs.
 */
export function wordDirectories(argv: readonly string[], directories: readonly string[], root: string): { directories: string[]; fromHere: Set<number> } {
  const program = path.posix.basename(argv[0] ?? '');
  if (program === 'tar' || program === 'gtar') {
    const values = optionValues(argv, 'C', ['--directory']);
    return { directories: chained(values.map((v) => v.value), directories), fromHere: new Set(values.map((v) => v.index)) };
  }
  if (program === 'git') {
    const at = gitSubcommandAt(argv);
    const values = globalC(argv.slice(0, at));
    const into = chained(values.map((v) => v.value), directories);
    return { directories: [...into, ...[...directories, ...into].map((directory) => repositoryTop(directory, root))], fromHere: new Set(values.map((v) => v.index)) };
  }
  if (program === 'patch') {
    const values = optionValues(argv, 'd', ['--directory']);
    return { directories: chained(values.map((v) => v.value), directories), fromHere: new Set(values.map((v) => v.index)) };
  }
  return { directories: linkDirectories(argv, directories), fromHere: new Set() };
}

/** ln -s: the directories its links are made in, from which the kernel reads their targets. */
function linkDirectories(argv: readonly string[], directories: readonly string[]): string[] {
  const program = path.posix.basename(argv[0] ?? '');
  if (program === 'ln' && argv.slice(1).some((word) => /^-[A-Za-z]*s/.test(word) || longOption(word, ['--symbolic']) !== null)) {
    const operands = argv.slice(1).filter((word) => !word.startsWith('-'));
    const target = optionValues(argv, 't', ['--target-directory']).map((v) => v.value);
    const linkPlaces = target.length ? target : operands.length >= 2 ? [operands.at(-1)!] : ['.'];
    return directories.flatMap((directory) =>
      linkPlaces.map((place) => {
        const resolved = path.resolve(directory, place);
        return isDirectory(resolved) && (target.length > 0 || operands.length > 2) ? resolved : path.dirname(resolved);
      }),
    );
  }
  return [];
}

/** Each value resolved from every directory and every value before it (`-C a -C b` is a/b). */
function chained(values: readonly string[], directories: readonly string[]): string[] {
  let current = [...directories];
  const all: string[] = [];
  for (const value of values) {
    current = [...current, ...current.map((directory) => path.resolve(directory, value))];
    all.push(...current.slice(-current.length / 2));
  }
  return [...new Set(all)];
}

/** The values of a short option (attached, clustered last, or the next word) and of long ones (`--x=v`, `--x v`), with the index of the word holding each. */
function optionValues(argv: readonly string[], letter: string, longs: readonly string[]): Array<{ value: string; index: number }> {
  const values: Array<{ value: string; index: number }> = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      if (longOption(eq < 0 ? word : word.slice(0, eq), longs) === null) continue;
      const value = eq < 0 ? argv[++i] : word.slice(eq + 1);
      if (value !== undefined) values.push({ value, index: i });
    } else if (word.startsWith('-') && word.length > 1) {
      const at = word.indexOf(letter, 1);
      if (at < 0) continue;
      const value = at === word.length - 1 ? argv[++i] : word.slice(at + 1);
      if (value !== undefined) values.push({ value, index: i });
    }
  }
  return values;
}

/** git's global -C values, in order, with their indexes. */
function globalC(words: readonly string[]): Array<{ value: string; index: number }> {
  const values: Array<{ value: string; index: number }> = [];
  for (let i = 1; i < words.length; i++) if (words[i] === '-C' && words[i + 1] !== undefined) values.push({ value: words[++i]!, index: i });
  return values;
}

/** The nearest directory from `directory` up to `root` holding `.git`; `root` when there is none. */
function repositoryTop(directory: string, root: string): string {
  return nearestRepository(directory, root) ?? root;
}


/**
 * The repository a git command in `directory` would use, when it is not the workspace's own (the
 * root's `.git`, wherever a worktree's points, or a submodule's under `.git/modules`): a bare
 * repository or a `.git` below the root, which a command can have written, and whose
 * configuration may run programs (`remote.x.uploadpack`, `core.sshCommand`, filter and diff
 * drivers). Null when it is the workspace's own.
 */
export function foreignRepository(directory: string, root: string): string | null {
  const own = ownGitDirectories(root);
  for (let at = directory; at === root || at.startsWith(root + path.sep); at = path.dirname(at)) {
    // The workspace's own repository, wherever its `.git` file points (a worktree's is elsewhere).
    if (at === root) return null;
    const gitDir = gitDirOf(path.join(at, '.git')) ?? (isBare(at) ? at : null);
    if (gitDir !== null) return own.some((dir) => gitDir === dir || gitDir.startsWith(dir + path.sep)) ? null : gitDir;
  }
  return null;
}

/** The root's git directory and, for a worktree, the main repository's (`commondir`): where its submodules' are. */
function ownGitDirectories(root: string): string[] {
  const gitDir = gitDirOf(path.join(root, '.git'));
  if (gitDir === null) return [path.join(root, '.git')];
  try {
    const commondir = readRegularText(path.join(gitDir, 'commondir'), POINTER_BYTES);
    return commondir === null ? [gitDir] : [gitDir, fs.realpathSync(path.resolve(gitDir, commondir.trim()))];
  } catch {
    return [gitDir];
  }
}

/** A `.git` directory, or where a `.git` file (`gitdir: …`) points; null when there is neither. */
function gitDirOf(dotGit: string): string | null {
  try {
    const stat = fs.lstatSync(dotGit);
    if (stat.isDirectory()) return fs.realpathSync(dotGit);
    // Never a plain read: a FIFO a command left as `.git` would hold the runner forever.
    const text = readRegularText(dotGit, POINTER_BYTES);
    if (text === null) return null;
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    return pointer ? fs.realpathSync(path.resolve(path.dirname(dotGit), pointer[1]!)) : dotGit;
  } catch {
    return null;
  }
}

/** A bare repository's layout: HEAD, config and objects side by side. */
function isBare(directory: string): boolean {
  const has = (name: string) => fs.existsSync(path.join(directory, name));
  // A commondir file points git at config and objects elsewhere.
  return has('HEAD') && (has('commondir') || (has('config') && has('objects')));
}
