// Writes a file so that a reader (or a crash) sees the old content or the new, never half of it:
// a temporary file in the same directory (same file system, so rename is atomic), then rename.
// Synchronous: the files an agent writes are small, and each asynchronous step would cost an
// event-loop round trip (a run that edits a hundred files makes a thousand of them). Used by the
// file tools, the run's report files and the price cache.
import fs from 'node:fs';
import path from 'node:path';

let tempCounter = 0;

/**
 * `file` is an absolute path (the file tools pass a canonical, confined one); parent directories
 * are created. An existing file keeps its mode, unless `mode` is given: then the file has exactly it.
 * A link at `file` is replaced, never followed (not even for its target's mode).
 */
export function writeFileAtomic(file: string, content: string, options: { mode?: number } = {}): void {
  const dir = path.dirname(file);
  let mode = options.mode;
  try {
    const existing = fs.lstatSync(file);
    if (existing.isFile()) mode ??= existing.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Only a new file can need its directories (an existing one has them: one syscall less per edit).
    fs.mkdirSync(dir, { recursive: true });
  }
  // Bounded name: a long basename plus the suffix must still fit NAME_MAX. The name needs to be
  // unlikely, not secret ('wx' refuses an existing file): no call into crypto per write.
  const temp = path.join(dir, `.${path.basename(file).slice(0, 200)}.${process.pid.toString(36)}${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  try {
    const fd = fs.openSync(temp, 'wx', mode ?? 0o666);
    try {
      fs.writeFileSync(fd, content);
      // open() applied the umask; an existing file's exact mode is restored.
      if (mode !== undefined) fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
