// Files the runner reads on the host after a tool ran, which a command may have replaced: `mkfifo
// .git/index`, a FIFO where a file tool's file was, `.git/commondir` linked to /dev/zero. A plain
// readFileSync (or copyFileSync) of a FIFO waits for a writer that never comes, and it waits on
// the event loop's own thread, so neither the run's timeout nor SIGTERM nor Ctrl-C could end the
// run: only SIGKILL, with no report. A device reads without end. So such a file is read only when
// it is a regular file, seen on the descriptor opened without waiting (O_NONBLOCK changes nothing
// for a regular file), so that it cannot be swapped between the look and the read.
import fs from 'node:fs';

/** The bytes of `file` (links followed) when it is a regular file of at most `maxBytes`; null when it is not one, or cannot be read. */
export function readRegularFile(file: string, maxBytes: number): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return null;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const n = fs.readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** As readRegularFile, as UTF-8 text. */
export function readRegularText(file: string, maxBytes: number): string | null {
  return readRegularFile(file, maxBytes)?.toString('utf8') ?? null;
}

/** Whether `file` (links followed) is a regular file now: a stat, which opens nothing, so never waits on a FIFO. */
export function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
