// When the file tools may replace a file at all; the replacing itself is util/atomic-write.ts.
import fs from 'node:fs';

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
