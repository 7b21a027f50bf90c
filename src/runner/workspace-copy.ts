// `workspace_mode: copy` copies the workspace into the run's output before anything runs. A copy of
// a big tree takes seconds (30,000 files: 15 s), so it must not block the event loop: fs.cpSync
// did, and a SIGTERM or Ctrl-C then waited for the whole copy before the run saw it, past the 5 s
// the README promises, and a second signal could not exit at once either. This copy is made of
// asynchronous steps, a few at a time, and stops at the run's signal. A copy that cannot be made
// (a full disk under --out, a file it cannot read) is the run's own files failing: exit 54.
import fs from 'node:fs';
import path from 'node:path';
import { UserFacingError } from '../types/errors.js';
import { ExitCode } from '../types/outcome.js';

/** The workspace could not be copied (disk full, I/O error, an unreadable file). */
export class WorkspaceCopyError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(from: string, to: string, cause: unknown) {
    super(`cannot copy the workspace ${from} to ${to} (workspace_mode: copy): ${(cause as Error).message ?? String(cause)}`, 'free space there, or choose another directory with --out DIR');
  }
}

export interface CopyOptions {
  signal: AbortSignal;
  /** Entries left out, by name, at any depth (node_modules: reinstalled, never worth copying). */
  /** `name` in the directory `from` of the tree copied: true leaves it out. */
  skip: (name: string, from: string) => boolean;
}

/** Files copied at once: enough to keep the disk busy, few enough to leave the event loop free. */
const PARALLEL = 16;

/** Copies the tree at `from` to `to` (symbolic links as they are); rejects with the signal's reason once it aborts. */
export async function copyTree(from: string, to: string, opts: CopyOptions): Promise<void> {
  const { signal } = opts;
  const slots = new Slots(PARALLEL);
  // Set at the first failure: the steps still waiting for a slot are not taken.
  let failed = false;
  const step = async <T>(work: () => Promise<T>): Promise<T> => {
    await slots.take();
    try {
      signal.throwIfAborted();
      if (failed) throw new Error('copy abandoned');
      return await work();
    } finally {
      slots.give();
    }
  };
  const copyEntry = async (src: string, dest: string, root = false): Promise<void> => {
    // The workspace itself may be reached through a link; what it holds is copied as it is.
    const stat = await step(() => (root ? fs.promises.stat(src) : fs.promises.lstat(src)));
    if (stat.isDirectory()) {
      await step(() => fs.promises.mkdir(dest, { recursive: true }));
      const names = await step(() => fs.promises.readdir(src));
      await Promise.all(names.filter((name) => !opts.skip(name, src)).map((name) => copyEntry(path.join(src, name), path.join(dest, name))));
      // After its contents: a read-only directory must still take them.
      await step(() => fs.promises.chmod(dest, stat.mode & 0o7777));
    } else if (stat.isSymbolicLink()) {
      const target = await step(() => fs.promises.readlink(src));
      await step(() => fs.promises.symlink(target, dest));
    } else if (stat.isFile()) {
      // copyFile keeps the mode (an executable script stays one).
      await step(() => fs.promises.copyFile(src, dest));
    }
    // Sockets, FIFOs and devices are left out: what they stand for is no file to copy.
  };
  // Settled at the signal, not after the steps under way (a big file's copy) have finished.
  let stop: () => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => {});
  try {
    signal.throwIfAborted();
    await Promise.race([
      copyEntry(from, to, true).catch(async (error: unknown) => {
        if (signal.aborted) throw signal.reason;
        failed = true;
        // What was copied goes (once the steps under way have ended): on a full disk it holds the
        // space the report needs.
        await slots.idle();
        await fs.promises.rm(to, { recursive: true, force: true }).catch(() => {});
        throw new WorkspaceCopyError(from, to, error);
      }),
      stopped,
    ]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * A copy a signal or the run's timeout stopped is kept as it is: removing a big tree would take the
 * seconds a stopped run must exit within. The report says it is partial, so nobody takes it for
 * the workspace (null when nothing was copied).
 */
export function stoppedCopyWarning(from: string, to: string): string | null {
  if (!fs.existsSync(to)) return null;
  return `the workspace copy ${to} is partial: the run was stopped while it copied ${from} (workspace_mode: copy), and nothing ran in it; remove it, and run again for a whole copy`;
}

/** At most `size` steps at once; the others wait their turn in order. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  private readonly whenIdle: Array<() => void> = [];
  constructor(private readonly size: number) {
    this.free = size;
  }
  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else if (++this.free === this.size) for (const resolve of this.whenIdle.splice(0)) resolve();
  }
  /** Resolves once no step holds a slot or waits for one. */
  async idle(): Promise<void> {
    if (this.free === this.size) return;
    await new Promise<void>((resolve) => this.whenIdle.push(resolve));
  }
}
