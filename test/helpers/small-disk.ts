// A real small file system for the full-disk tests: a tmpfs mounted at a fresh directory, unmounted
// by `unmountSmallDisks` (the test file's afterAll). Mounting needs root; where it is not permitted
// `smallDisk` returns null and the tests that need one are skipped, visibly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './cli.js';

const mounts: string[] = [];

/** A tmpfs of `size` at a fresh directory, or null where this process may not mount. */
export function smallDisk(size: string): string | null {
  const dir = tempDir('unattended-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}

/** A tmpfs of `size` filled until `pages` blocks are left free, or null where this process may not mount. */
export function fullDisk(size: string, pages: number): string | null {
  const dir = smallDisk(size);
  if (dir === null) return null;
  const { bavail, bsize } = fs.statfsSync(dir);
  fs.writeFileSync(path.join(dir, 'filler'), Buffer.alloc(Math.max(0, bavail - pages) * bsize));
  return dir;
}

export function unmountSmallDisks(): void {
  for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}
