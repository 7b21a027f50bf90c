// Writes a file so that a reader (or a crash) sees the old content or the new, never half of it:
// a temporary file in the same directory (same file system, so rename is atomic), then rename.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** `file` is canonical and confined; parent directories are created. An existing file keeps its mode. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await fs.stat(file)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Bounded name: a long basename plus the suffix must still fit NAME_MAX.
  const temp = path.join(dir, `.${path.basename(file).slice(0, 200)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(content);
      // open() applied the umask; an existing file's exact mode is restored.
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
