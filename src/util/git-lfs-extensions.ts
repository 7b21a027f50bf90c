// git-lfs (the clean and smudge filter a user's own `git lfs install` sets) takes extensions from
// the repository's `.lfsconfig` as well as from git's config. It ignores a clean or smudge command
// there as unsafe, but a `priority` alone still declares the extension, with no program: every LFS
// file's clean then fails ("executable file not found"), so the runner's `git add` of the workspace
// failed and what the run changed was lost (a command could write one to hide its changes). The
// extensions the repository names are listed here, so that git-safe-config.ts gives each a
// harmless clean and smudge (`cat`) where the user's own config gives none.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostProgramOutside } from './host-program.js';
import { readRegularText } from './read-regular-file.js';
import { findGitDir } from './git-config-sources.js';

/**
 * This git runs before the runner's overrides exist (it is how they are found), so it gets the
 * one it needs: `cat-file --batch` of `:.lfsconfig` reads the index, and git runs the
 * repository's core.fsmonitor to refresh it, on the host, before each of the runner's git commands.
 */
const NO_FSMONITOR = ['-c', 'core.fsmonitor=false'];

/** More than any real .lfsconfig holds; a larger one is read as none (git-lfs would choke on it too). */
const MAX_LFSCONFIG_BYTES = 1024 * 1024;

/** `lfs.extension.NAME.KEY` split, the name as written (subsections keep their case); null for other keys. */
export function lfsExtensionKey(key: string): { name: string; last: string } | null {
  const match = /^lfs\.extension\.(.+)\.([^.]+)$/is.exec(key);
  return match ? { name: match[1]!, last: match[2]!.toLowerCase() } : null;
}

/**
 * The extension names the repository's `.lfsconfig` declares, read where git-lfs reads it: the file
 * at the top of the work tree, else the one in the index, else HEAD's (a command can stage one and
 * delete the file). Parsed by git itself (`git config --file -`, includes off, as git-lfs reads
 * it), from text read without waiting on a FIFO a command may have left there. Empty when there is
 * none or it cannot be parsed. `env`: the git command's (its GIT_INDEX_FILE is the index git-lfs reads).
 */
export function lfsConfigExtensions(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const top = workTreeTop(dir);
  if (top === null) return [];
  const found = hostProgramOutside('git', env.PATH ?? '/usr/bin:/bin', [top]);
  if (found === null) return [];
  const git = (args: string[], input: string): string | null => {
    try {
      return execFileSync(found.program, [...NO_FSMONITOR, ...args], { cwd: top, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'], timeout: 10_000, maxBuffer: 4 * MAX_LFSCONFIG_BYTES, env: { ...env, PATH: found.pathVariable, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' } });
    } catch {
      return null;
    }
  };
  const file = path.join(top, '.lfsconfig');
  const text = fs.lstatSync(file, { throwIfNoEntry: false }) ? readRegularText(file, MAX_LFSCONFIG_BYTES) : committedText(git, indexReadable(top, env));
  if (text === null || !/extension/i.test(text)) return [];
  const out = git(['config', '--no-includes', '--file', '-', '--name-only', '--list', '-z'], text);
  const names = (out ?? '').split('\0').map((key) => lfsExtensionKey(key)?.name).filter((name): name is string => name !== undefined);
  return [...new Set(names)];
}

/** The index's `.lfsconfig`, else HEAD's, in one `git cat-file --batch` (which runs no filter); null for neither. */
function committedText(git: (args: string[], input: string) => string | null, withIndex: boolean): string | null {
  const out = git(['cat-file', '--batch'], `${withIndex ? ':.lfsconfig\n' : ''}HEAD:.lfsconfig\n`);
  if (out === null) return null;
  // Each object: `<id> blob <size>\n<content>\n`, or `<name> missing\n`. The first found is the one.
  const header = /^[0-9a-f]+ blob (\d+)\n/.exec(out) ?? /^[^\n]* missing\n[0-9a-f]+ blob (\d+)\n/.exec(out);
  if (!header) return null;
  const start = header.index + header[0].length;
  return Buffer.from(out.slice(start), 'utf8').subarray(0, Number(header[1])).toString('utf8');
}

/**
 * Whether git can read the index without waiting: a command may leave a FIFO in its place, which
 * would hold this synchronous git (and the runner) until its time-out. Absent is fine.
 */
function indexReadable(top: string, env: NodeJS.ProcessEnv): boolean {
  const gitDir = findGitDir(top);
  const index = env.GIT_INDEX_FILE ? path.resolve(top, env.GIT_INDEX_FILE) : gitDir ? path.join(gitDir, 'index') : null;
  const stat = index ? fs.statSync(index, { throwIfNoEntry: false }) : undefined;
  return stat === undefined || stat.isFile();
}

/** The nearest directory at or above `dir` that holds a `.git` (a directory, or a linked work tree's file). */
function workTreeTop(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.lstatSync(path.join(current, '.git'), { throwIfNoEntry: false })) return current;
    if (path.dirname(current) === current) return null;
  }
}
