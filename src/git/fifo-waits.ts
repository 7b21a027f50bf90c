// git opens every `.gitignore` and `.gitattributes` it meets (and a repository's excludes file)
// with a plain blocking open(2). Any command can leave a FIFO at such a path (`mkfifo .gitignore`;
// git cannot commit one, so no clone has it), and then the runner's own git waits for a writer that
// never comes: each snapshot waited out its minute twice, the run ended minutes late, and what it
// changed was lost. Git cannot be told to skip such a file, so the runner watches its git: a git
// blocked opening a FIFO (the kernel's `wait_for_partner`) is let past by opening that FIFO for
// writing and closing it at once, so git reads it as the empty file it is. Only a FIFO is ever
// opened, without following a link, and nothing is written. Linux only (/proc); elsewhere, and
// where /proc does not tell, the snapshot's own time limit still ends the wait.
import fs from 'node:fs';

/** open and openat, by architecture: which argument holds the path, and the directory argument of openat. */
const OPEN_CALLS: Partial<Record<NodeJS.Architecture, Record<number, { pathArg: number; dirArg: number | null }>>> = {
  x64: { 2: { pathArg: 0, dirArg: null }, 257: { pathArg: 1, dirArg: 0 } },
  arm64: { 56: { pathArg: 1, dirArg: 0 } },
};
const AT_FDCWD = 0xffffff9c;
const POLL_MS = 250;

/** Watches git `pid` while it runs; returns the function that stops watching. */
export function releaseFifoWaits(pid: number): () => void {
  if (process.platform !== 'linux' || !OPEN_CALLS[process.arch]) return () => {};
  const timer = setInterval(() => releaseOnce(pid), POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** When `pid` is blocked opening a FIFO, opens it for writing and closes it; true when it did. */
export function releaseOnce(pid: number): boolean {
  try {
    if (fs.readFileSync(`/proc/${pid}/wchan`, 'utf8').trim() !== 'wait_for_partner') return false;
    const fifo = fifoBeingOpened(pid);
    if (fifo === null) return false;
    // A FIFO still, seen without following a link; O_NONBLOCK: with no reader left, fail rather than wait.
    if (!fs.lstatSync(fifo, { throwIfNoEntry: false })?.isFIFO()) return false;
    const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    try {
      return fs.fstatSync(fd).isFIFO();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** The path `pid`'s pending open(2) names, made absolute through its /proc links; null when /proc does not tell. */
function fifoBeingOpened(pid: number): Buffer | null {
  const fields = fs.readFileSync(`/proc/${pid}/syscall`, 'utf8').trim().split(/\s+/);
  const call = OPEN_CALLS[process.arch]?.[Number(fields[0])];
  if (!call) return null;
  const address = BigInt(fields[1 + call.pathArg] ?? '0');
  const name = readCString(pid, address);
  if (!name) return null;
  if (name[0] === 0x2f) return name;
  const dirFd = call.dirArg === null ? AT_FDCWD : Number(BigInt(fields[1 + call.dirArg] ?? '0') & 0xffffffffn);
  const base = fs.readlinkSync(dirFd === AT_FDCWD ? `/proc/${pid}/cwd` : `/proc/${pid}/fd/${dirFd}`, { encoding: 'buffer' });
  return Buffer.concat([base, Buffer.from('/'), name]);
}

/** A NUL-terminated string (at most PATH_MAX), as bytes (a file name need not be UTF-8), from `pid`'s memory, which its parent may read. */
function readCString(pid: number, address: bigint): Buffer | null {
  if (address === 0n) return null;
  const fd = fs.openSync(`/proc/${pid}/mem`, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const read = fs.readSync(fd, buffer, 0, buffer.length, address);
    const end = buffer.subarray(0, read).indexOf(0);
    return end > 0 ? Buffer.from(buffer.subarray(0, end)) : null;
  } finally {
    fs.closeSync(fd);
  }
}
