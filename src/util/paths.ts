// Whether one path lies inside another, by path arithmetic only (no file system access). A name
// that merely starts with two dots (`..runs`) is inside; only `..` itself or `../…` climbs out.
// canonicalPath gives both sides their real names first where links could mislead the arithmetic.
import fs from 'node:fs';
import path from 'node:path';

/** The path with every link resolved, or (when it does not exist) simply resolved. */
export function canonicalPath(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** A directory's entries with their types; none when it cannot be read (gone, not a directory, no permission). */
export function direntsOf(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The path with every link resolved, or null when it cannot be (missing, a loop, no permission). */
export function realPathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** True when this process may access `p` as `mode` asks (fs.constants.R_OK, W_OK...). */
export function mayAccess(p: string, mode: number): boolean {
  try {
    fs.accessSync(p, mode);
    return true;
  } catch {
    return false;
  }
}

/** A `.` or `..` segment, an empty one (`//`) or a trailing slash: not a plain absolute path. */
const UNPLAIN = /\/\.{0,2}(?:\/|$)/;

/** True when `child` is `parent` itself or lies below it. */
export function isInside(parent: string, child: string): boolean {
  // Plain absolute paths (canonical ones always are): a prefix check, ~10x cheaper than
  // path.relative, which resolves both; it runs for every PATH entry at start and in every path rule.
  if (isPlainAbsolute(parent) && isPlainAbsolute(child)) return child === parent || (child.startsWith(parent) && child[parent.length] === '/');
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function isPlainAbsolute(p: string): boolean {
  return p.startsWith('/') && !UNPLAIN.test(p);
}

/** True when `child` lies below `parent` and is not `parent` itself. */
export function isStrictlyInside(parent: string, child: string): boolean {
  return path.relative(parent, child) !== '' && isInside(parent, child);
}

/** True when `p` names a directory, through links; false for anything else, missing or unreadable. */
export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
