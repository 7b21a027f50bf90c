// Running ripgrep for grep-rg.ts: a fixed argv, no inherited environment, its memory capped,
// killed on abort or when it stalls (grep-rg-guard.ts), its output read the cheap way (see run()).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cappedCommand, watchForStall } from './grep-rg-guard.js';

/** At most this much of ripgrep's stderr is kept, to explain a failure (more with a `stderrBudget`). */
const STDERR_KEPT = 4096;

/**
 * Past this many files with a match, ripgrep is stopped and the JavaScript walk searches instead:
 * matches that common fill the 200-match cap within the first files of the walk, while ripgrep,
 * searching in no particular order, would have to open every file to know which come first.
 */
export const COMMON_PATTERN_FILES = 1000;

/**
 * The walk's order: names sorted at each level, depth first. Comparing paths with `/` replaced by
 * NUL (below every character a name can hold) orders them segment by segment, which is that.
 */
export function sortInWalkOrder(paths: string[]): string[] {
  return paths
    .map((p) => [p.replaceAll('/', '\0'), p] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, p]) => p);
}

export interface RipgrepProcess {
  rg: string;
  cwd: string;
  /** The caller's: cancelled, or out of time. */
  signal: AbortSignal;
  /** When ripgrep is not worth waiting for any more: it is killed and the JavaScript walk searches. */
  giveUp?: AbortSignal;
}

/** The records of ripgrep's `--count` output as they stream in: counts the files with a match. */
export class CountStream {
  private readonly chunks: Buffer[] = [];
  bytes = 0;
  /** Files with a match seen so far: with --max-count 1 the count is 0 or 1, so a NUL then `1`. */
  withMatch = 0;
  private nulAtEnd = false;

  /** Takes a chunk; returns how many files with a match were seen so far. */
  add(chunk: Buffer): number {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.nulAtEnd && chunk[0] !== 0x30) this.withMatch++;
    for (let nul = chunk.indexOf(0); nul >= 0; nul = chunk.indexOf(0, nul + 1)) {
      if (nul + 1 < chunk.length && chunk[nul + 1] !== 0x30) this.withMatch++;
    }
    this.nulAtEnd = chunk.length > 0 && chunk[chunk.length - 1] === 0;
    return this.withMatch;
  }

  output(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export interface Finished {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Killed because `enough` said so, or because the listing was no longer wanted. */
  stopped: boolean;
  /** Killed because it stalled, or `giveUp` fired: what it printed says nothing. */
  abandoned: boolean;
  /** Killed because its stderr passed the `stderrBudget`. */
  overBudget: boolean;
}

/**
 * Runs ripgrep to its end, or until `enough(chunk)` returns true (then kills it). With a
 * `stderrBudget`, all of stderr is kept (through a file: `--debug` lines are written a piece at a
 * time) up to that many bytes; past it ripgrep is killed (`overBudget`).
 *
 * With `enough`, ripgrep writes into an unlinked temporary file that is read every few
 * milliseconds, not into a pipe: a multi-threaded ripgrep writes each file's record with its own
 * write, and through a pipe each of those woke this process for one read of a few dozen bytes
 * (28,700 wake-ups and reads for a 28,700-file tree, ~0.2 s of CPU here and a context switch each
 * on ripgrep's side). A file takes them all without waking anyone. `--files` output is written in
 * large blocks by one thread: a pipe is as cheap there.
 */
export function run(search: RipgrepProcess, args: string[], enough?: (chunk: Buffer) => boolean, stderrBudget?: number): Promise<Finished> {
  const output = enough ? openScratchFile() : null;
  const errors = stderrBudget !== undefined ? openScratchFile() : null;
  const stderrKept = stderrBudget ?? STDERR_KEPT;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // No inherited environment: RIPGREP_CONFIG_PATH and friends must not change the search.
      const { command, argv } = cappedCommand(search.rg, args);
      child = spawn(command, argv, { cwd: search.cwd, env: {}, stdio: ['ignore', output?.fd ?? 'pipe', errors?.fd ?? 'pipe'] });
    } catch {
      output?.close();
      errors?.close();
      resolve({ code: null, stdout: Buffer.alloc(0), stderr: '', stopped: false, abandoned: false, overBudget: false });
      return;
    }
    const chunks: Buffer[] = [];
    let stderr = '';
    let stopped = false;
    let abandoned = false;
    let overBudget = false;
    let outputBytes = 0;
    const kill = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    const abandon = () => {
      abandoned = true;
      child.kill('SIGKILL');
    };
    const checkStderr = (bytes: number) => {
      if (stderrBudget === undefined || bytes <= stderrBudget || overBudget) return;
      overBudget = true;
      child.kill('SIGKILL');
    };
    const take = (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (chunk.length === 0 || stopped) return;
      if (enough ? enough(chunk) : (chunks.push(chunk), false)) kill();
    };
    if (search.signal.aborted) kill();
    else search.signal.addEventListener('abort', kill, { once: true });
    if (search.giveUp?.aborted) abandon();
    else search.giveUp?.addEventListener('abort', abandon, { once: true });
    const stopWatching = watchForStall(child.pid, () => outputBytes, abandon);
    const poll =
      output || errors
        ? setInterval(() => {
            if (output) take(output.readNew());
            if (errors) checkStderr(errors.size());
          }, OUTPUT_POLL_MS)
        : null;
    child.stdout?.on('data', take);
    let stderrBytes = 0;
    child.stderr?.on('data', (chunk: Buffer) => {
      checkStderr((stderrBytes += chunk.length));
      if (stderr.length < stderrKept) stderr += chunk.toString('utf8');
    });
    let settled = false;
    const settle = (error: Error | null, code: number | null) => {
      if (settled) return; // 'error' can be followed by 'close'
      settled = true;
      search.signal.removeEventListener('abort', kill);
      search.giveUp?.removeEventListener('abort', abandon);
      stopWatching();
      if (poll) clearInterval(poll);
      if (output) {
        if (!error) take(output.readNew());
        output.close();
      }
      if (errors) {
        stderr = errors.readNew().toString('utf8');
        errors.close();
      }
      // A ripgrep that cannot be started (removed since, not executable) leaves the search to JavaScript.
      resolve({ code: error ? null : code, stdout: Buffer.concat(chunks), stderr, stopped, abandoned, overBudget });
    };
    child.once('error', (error) => settle(error, null));
    child.once('close', (code) => settle(null, code));
  });
}

/** How often ripgrep's output file is read while it runs (for `enough`). */
const OUTPUT_POLL_MS = 10;

interface ScratchFile {
  fd: number;
  /** The bytes written since the last call. */
  readNew(): Buffer;
  /** The bytes written so far. */
  size(): number;
  close(): void;
}

/**
 * A temporary file for ripgrep's output, already unlinked (nothing is left behind, whatever
 * happens), readable by this process only; or null when the temporary directory cannot take one
 * (then a pipe is used).
 */
function openScratchFile(): ScratchFile | null {
  let fd: number;
  // Created exclusively (O_EXCL) and private: a name someone else took fails, and a pipe is used;
  // so the name need not be unguessable, and node:crypto is not loaded for it.
  const file = path.join(os.tmpdir(), `unattended-rg-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    fd = fs.openSync(file, 'wx+', 0o600);
  } catch {
    return null;
  }
  try {
    fs.unlinkSync(file);
  } catch {
    // left behind in the temporary directory: harmless, and rare
  }
  let offset = 0;
  const readNew = (): Buffer => {
    const size = fs.fstatSync(fd).size;
    if (size <= offset) return Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(size - offset);
    let got = 0;
    while (got < chunk.length) {
      const n = fs.readSync(fd, chunk, got, chunk.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    offset += got;
    return chunk.subarray(0, got);
  };
  return { fd, readNew, size: () => fs.fstatSync(fd).size, close: () => fs.closeSync(fd) };
}
