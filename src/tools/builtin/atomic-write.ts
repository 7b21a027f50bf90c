// Writes a file so that a reader (or a crash) sees the old content or the new, never half of it:
// a temporary file in the same directory (same file system, so rename is atomic), then rename.
// Synchronous: the files an agent writes are small, and each asynchronous step would cost an
// event-loop round trip (a run that edits a hundred files makes a thousand of them).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Why the file tools must not replace `file` (canonical and confined), or null when they may.
 * - Without write permission for its owner it is read-only on purpose: root could replace it
 *   anyway (the rename needs only the directory), so the tools check the mode themselves.
 * - With more than one hard link, the other names may lie outside the workspace, and finding
 *   them would mean searching every file system. Writing in place would change them all; the
 *   atomic rename would silently split them. Either surprises someone, so such files are refused.
 */
export function replaceRefusal(file: string, name: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return null;
  }
  if (!stat.isFile()) return null;
  if ((stat.mode & 0o200) === 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
    return `'${name}' is read-only (mode ${mode}: no write permission for its owner); the file tools do not override that`;
  }
  if (stat.nlink > 1) {
    return `'${name}' has ${stat.nlink} hard links, which may lead outside the workspace; the file tools do not replace hard-linked files`;
  }
  return null;
}

let tempCounter = 0;

/** `file` is canonical and confined; parent directories are created. An existing file keeps its mode. */
export function writeFileAtomic(file: string, content: string): void {
  const dir = path.dirname(file);
  let mode: number | undefined;
  try {
    mode = fs.statSync(file).mode & 0o7777;
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
