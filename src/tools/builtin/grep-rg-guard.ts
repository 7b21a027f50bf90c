// What keeps a repository from turning grep's ripgrep into a hazard. ripgrep runs on the host,
// unsandboxed, and reads the ignore files it meets (.gitignore, .rgignore) with a plain open():
// through a link, and blocking on a FIFO. A committed `.gitignore -> /dev/zero` made it read one
// endless "line" at 1.2 GB/s until killed; a FIFO `.gitignore` made it wait forever. Checking
// every directory for such files first would cost the walk ripgrep is there to save, so instead:
// - its data memory is capped (RLIMIT_DATA, through `sh -c 'ulimit -d'`: node cannot set a
//   child's limits; ~0.6 ms a call): the /dev/zero read ends with an allocation failure within
//   ~0.1 s, and the JavaScript walk, which reads only regular ignore files, answers;
// - a ripgrep that reads and writes nothing for STALL_MS is killed, and the JavaScript walk
//   answers (Linux: its byte counts in /proc/PID/io; elsewhere the caller's deadline does it).
//   Not its CPU time: a stuck ripgrep still uses some (its idle walker threads wake every
//   millisecond, ~2 ticks a second), while a waiting one reads no byte.
// A disk so slow that ripgrep reads nothing for STALL_MS leaves the search to the JavaScript walk
// too: slower, never a different answer.
import fs from 'node:fs';

/**
 * ripgrep's data memory: ~35x what it takes to search 200,000 files under 2,000 .gitignore files
 * (7 MB). One that needs more fails, and the JavaScript walk answers instead.
 */
export const RG_DATA_LIMIT_BYTES = 256 * 1024 * 1024;

/** Nothing read or written for this long: ripgrep is waiting on something that will not come. */
export const STALL_MS = 1500;
const STALL_POLL_MS = 250;

/**
 * The command and argv that run `rg args` under the memory cap. The shell only sets the soft limit
 * (which never fails for being above the hard one: that one applies then) and execs ripgrep, so
 * the process is ripgrep itself, with the same pid, exit code and signal.
 */
export function cappedCommand(rg: string, args: readonly string[]): { command: string; argv: string[] } {
  const kilobytes = RG_DATA_LIMIT_BYTES / 1024;
  return { command: '/bin/sh', argv: ['-c', `ulimit -S -d ${kilobytes} 2>/dev/null; exec "$0" "$@"`, rg, ...args] };
}

/**
 * Calls `onStall` once `pid` has read and written nothing and `output()` has not grown for
 * STALL_MS. Returns the function that stops watching. Where /proc cannot be read, it watches nothing.
 */
export function watchForStall(pid: number | undefined, output: () => number, onStall: () => void): () => void {
  if (pid === undefined) return () => {};
  let last = -1;
  let still = 0;
  const timer = setInterval(() => {
    const io = bytesMoved(pid);
    if (io === null) {
      clearInterval(timer);
      return;
    }
    const progress = io + output();
    still = progress === last ? still + STALL_POLL_MS : 0;
    last = progress;
    if (still < STALL_MS) return;
    clearInterval(timer);
    onStall();
  }, STALL_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The bytes a process has read and written through system calls (rchar + wchar), or null when /proc does not say. */
function bytesMoved(pid: number): number | null {
  let io: string;
  try {
    io = fs.readFileSync(`/proc/${pid}/io`, 'latin1');
  } catch {
    return null;
  }
  const read = /^rchar: (\d+)$/m.exec(io);
  const written = /^wchar: (\d+)$/m.exec(io);
  return read && written ? Number(read[1]) + Number(written[1]) : null;
}
