// Writes a file so that a reader (or a crash) sees the old content or the new, never half of it:
// a temporary file in the same directory (same file system, so rename is atomic), then rename.
// Synchronous: the files an agent writes are small, and each asynchronous step would cost an
// event-loop round trip (a run that edits a hundred files makes a thousand of them). Used by the
// file tools, the run's report files and the price cache.
//
// The rename puts a new inode in the file's place, created by this process: it would be owned by
// the runner's user and group (or the directory's, when it is setgid). So the temporary file is
// given the existing file's owner and group first. Only root may give a file away, and only a
// member may give it a group: when that is refused (an ordinary user editing a file of a shared
// group, or one that another user owns but lets the group write), the file is written in place
// instead, as editors do (vim's backupcopy=auto): not atomic, but it stays whose it was, with its
// ACL and extended attributes. A file with other hard links is never written in place (the other
// names may lie anywhere): that is refused.
import fs from 'node:fs';
import path from 'node:path';

let tempCounter = 0;

/**
 * `file` is an absolute path (the file tools pass a canonical, confined one); parent directories
 * are created. An existing file keeps its mode, owner and group, unless `mode` is given: then the
 * file has exactly that mode. A link at `file` is replaced, never followed (not even for its
 * target's mode).
 */
export function writeFileAtomic(file: string, content: string, options: { mode?: number } = {}): void {
  const dir = path.dirname(file);
  let mode = options.mode;
  let existing: fs.Stats | null = null;
  try {
    existing = fs.lstatSync(file);
    if (existing.isFile()) mode ??= existing.mode & 0o7777;
    else existing = null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Only a new file can need its directories (an existing one has them: one syscall less per edit).
    fs.mkdirSync(dir, { recursive: true });
  }
  // Bounded name: a long basename plus the suffix must still fit NAME_MAX. The name needs to be
  // unlikely, not secret ('wx' refuses an existing file): no call into crypto per write.
  const temp = path.join(dir, `.${path.basename(file).slice(0, 200)}.${process.pid.toString(36)}${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  let inPlace = false;
  try {
    const fd = fs.openSync(temp, 'wx', mode ?? 0o666);
    try {
      inPlace = existing !== null && !takeOwnership(fd, existing);
      if (!inPlace) {
        fs.writeFileSync(fd, content);
        // open() applied the umask, and a change of owner clears the set-id bits: the exact mode is restored.
        if (mode !== undefined) fs.fchmodSync(fd, mode);
      }
    } finally {
      fs.closeSync(fd);
    }
    if (!inPlace) fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  if (inPlace) {
    fs.rmSync(temp, { force: true });
    writeInPlace(file, existing!, content);
  }
}

/** Gives the temporary file `existing`'s owner and group; false when this process may not. */
function takeOwnership(fd: number, existing: fs.Stats): boolean {
  const made = fs.fstatSync(fd);
  if (made.uid === existing.uid && made.gid === existing.gid) return true;
  try {
    fs.fchownSync(fd, existing.uid, existing.gid);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
    throw error;
  }
}

/** The fallback when a replacement would change the owner or group (see the top of the file). */
function writeInPlace(file: string, existing: fs.Stats, content: string): void {
  const owner = `owner ${existing.uid}, group ${existing.gid}`;
  if (existing.nlink > 1) {
    throw errorWithCode('EPERM', `replacing it would change its ${owner}, which this user cannot give a file, and it has ${existing.nlink} hard links, so it is not written in place either`);
  }
  let fd: number;
  try {
    // A link put in its place since the lstat is not written through, nor a FIFO waited on.
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw errorWithCode('EPERM', `replacing it would change its ${owner}, which this user cannot give a file, and it cannot be written in place (${reason})`);
  }
  try {
    const same = fs.fstatSync(fd);
    if (same.ino !== existing.ino || same.dev !== existing.dev) throw errorWithCode('EAGAIN', 'it was replaced while being written; nothing was written');
    fs.writeFileSync(fd, content);
    fs.ftruncateSync(fd, Buffer.byteLength(content));
  } finally {
    fs.closeSync(fd);
  }
}

function errorWithCode(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
