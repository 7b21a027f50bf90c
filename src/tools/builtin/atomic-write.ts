// Writes a file so that a reader (or a crash) sees the old content or the new, never half of it:
// a temporary file in the same directory (same file system, so rename is atomic), then rename.
// Synchronous: the files an agent writes are small, and each asynchronous step would cost an
// event-loop round trip (a run that edits a hundred files makes a thousand of them).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `file` is canonical and confined; parent directories are created. An existing file keeps its mode. */
export function writeFileAtomic(file: string, content: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = fs.statSync(file).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Bounded name: a long basename plus the suffix must still fit NAME_MAX.
  const temp = path.join(dir, `.${path.basename(file).slice(0, 200)}.${randomBytes(6).toString('hex')}.tmp`);
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
