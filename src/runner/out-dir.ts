// The run output directory, created before anything else so every exit can leave its report, and
// held open for the whole run: the runner's own files are written into the directory it created,
// never through the path, which a tool may have changed since (renamed a parent away, made a fake
// directory or a link in its place).
import { InputError } from '../types/errors.js';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { makeDirs } from '../util/make-dirs.js';

export class OutputDirError extends InputError {
  constructor(dir: string, cause: unknown) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message ?? String(cause);
    super(`cannot write the run outputs to ${dir} (${reason}); choose a writable directory with --out DIR`);
  }
}

/**
 * Creates `dir` and its missing parents (util/make-dirs.ts), then proves the directory writable,
 * so a failure is reported here, once, clearly.
 */
export function ensureOutputDir(dir: string): void {
  // A link whose target is gone: mkdir says only EEXIST, of a path that seems to hold nothing.
  const target = danglingLinkTarget(dir);
  if (target !== null) throw new OutputDirError(dir, new Error(`a symbolic link to ${target}, which does not exist`));
  try {
    makeDirs(dir);
    fs.accessSync(dir, fs.constants.W_OK);
    if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    throw new OutputDirError(dir, error);
  }
}

function danglingLinkTarget(dir: string): string | null {
  try {
    if (!fs.lstatSync(dir).isSymbolicLink() || fs.existsSync(dir)) return null;
    return fs.readlinkSync(dir);
  } catch {
    return null;
  }
}

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/**
 * The run's directory as the runner made it. On Linux every write goes through
 * /proc/self/fd/N, the directory itself wherever it now is; elsewhere through its path, after
 * checking that the path still leads to it (device and inode). Below it no link is followed:
 * a subdirectory that is a link is refused, a file that is one is replaced.
 */
export class RunDir {
  private fd: number | null;

  private constructor(
    /** The path the run was asked to write to. */
    readonly path: string,
    fd: number,
    private readonly identity: fs.Stats,
    private readonly viaProc: boolean,
  ) {
    this.fd = fd;
  }

  static open(dir: string): RunDir {
    ensureOutputDir(dir);
    try {
      const fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY);
      const identity = fs.fstatSync(fd);
      return new RunDir(dir, fd, identity, sameFile(statOrNull(`/proc/self/fd/${fd}`), identity));
    } catch (error) {
      throw new OutputDirError(dir, error);
    }
  }

  /** The path to open `name` (a file directly in the directory) at. */
  at(name: string): string {
    return path.join(this.base(), name);
  }

  /** Writes `rel` (`/` between directories, created as needed) whole, replacing whatever is at its name. */
  writeFile(rel: string, content: string): void {
    const parts = rel.split('/');
    const name = parts.pop()!;
    const opened: number[] = [];
    try {
      let dir = this.base();
      for (const part of parts) {
        const sub = path.join(dir, part);
        try {
          fs.mkdirSync(sub);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const fd = fs.openSync(sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        opened.push(fd);
        dir = this.viaProc ? `/proc/self/fd/${fd}` : sub;
      }
      writeFileAtomic(path.join(dir, name), content);
    } finally {
      for (const fd of opened) fs.closeSync(fd);
    }
  }

  /** Where the directory is now: its path, or (Linux) where it was moved to. */
  location(): string {
    return this.displaced() === null ? this.path : (this.whereNow() ?? this.path);
  }

  /** Null while the path still leads to the directory; otherwise what became of it, in a sentence. */
  displaced(): string | null {
    if (sameFile(statOrNull(this.path), this.identity)) return null;
    const now = this.whereNow();
    return now
      ? `the run directory ${this.path} was moved during the run, to ${now}: the run's files are there, and whatever is at ${this.path} now is not this run's`
      : `the run directory ${this.path} was moved, removed or replaced during the run: whatever is at ${this.path} now is not this run's`;
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  private base(): string {
    if (this.fd === null) throw new Error(`the run directory ${this.path} is closed`);
    if (this.viaProc) return `/proc/self/fd/${this.fd}`;
    if (this.displaced() !== null) throw new Error(`${this.path} is no longer the run's directory (it was moved or replaced during the run)`);
    return this.path;
  }

  /** The kernel's name for the directory now (Linux), null when it was removed or cannot be known. */
  private whereNow(): string | null {
    if (!this.viaProc || this.fd === null) return null;
    try {
      const now = fs.readlinkSync(`/proc/self/fd/${this.fd}`);
      return now.endsWith(' (deleted)') ? null : now;
    } catch {
      return null;
    }
  }
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

function sameFile(a: fs.Stats | null, b: fs.Stats): boolean {
  return a !== null && a.dev === b.dev && a.ino === b.ino;
}

/**
 * The default runs directory (`.unattended/runs`, relative to `base`, the current directory) is
 * usually in a repository's work tree, which may hold `.unattended` or `.unattended/runs` as a
 * link: followed, the runner would make its run directory wherever the repository chose (another
 * work tree, a served or synced directory) and write there what the run read. Refused instead.
 */
export function refuseLinkedRunsDir(base: string, runsDir: string): void {
  const parts = runsDir.split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const stat = fs.lstatSync(path.join(base, rel), { throwIfNoEntry: false });
    if (!stat?.isSymbolicLink()) continue;
    let target = '?';
    try {
      target = fs.readlinkSync(path.join(base, rel));
    } catch {
      // Said without its target.
    }
    throw new InputError(
      `the default output directory (under ${runsDir}) would be written through a link: ${rel} is a link (to ${target}) in ${base}, which a repository can hold`,
      'give the run a directory of its own with --out DIR, or remove the link',
    );
  }
}

/**
 * The default runs directory under a current directory inside a repository's git directory (a
 * run started after `cd .git`): the run's record would be made among git's own files, where the
 * runner lets no tool write, and a refused run (its workspace, the current directory, is no work
 * tree) left one there each time. Refused before anything is written. `outDir` is the resolved
 * default: process.cwd() is already a real path, so a `.git` in it is the directory's own (no
 * system call here).
 */
export function refuseRunsDirInGitDir(outDir: string): void {
  const parts = outDir.split(path.sep);
  const at = parts.indexOf('.git');
  if (at <= 0) return;
  const gitDir = parts.slice(0, at + 1).join(path.sep);
  const workTree = parts.slice(0, at).join(path.sep) || path.sep;
  throw new InputError(
    `the current directory (${process.cwd()}) lies inside the git directory ${gitDir}, not in a work tree: the run's files (its default output directory, under .unattended/runs) are not written among git's own`,
    `run from the work tree (cd ${workTree}), or give --out DIR`,
  );
}

/**
 * A default run directory discarded (the run was refused after it was opened): it and the
 * `.unattended/runs` above it go again when nothing else is in them, so a refused run leaves
 * nothing where it was refused (a bare repository). Only on that refusal: no system call otherwise.
 */
export function removeEmptyDefaultDirs(outDir: string, runsDir: string): void {
  const runs = path.resolve(runsDir);
  for (const dir of [outDir, runs, path.dirname(runs)]) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // Not empty (another run's, the person's own files), or gone already.
    }
  }
}
