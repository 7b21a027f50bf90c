// Creating a directory and its missing parents, without mkdirSync's recursive mode: on some
// pseudo file systems (/proc) that never returns, spinning a core until the process is killed.
import fs from 'node:fs';
import path from 'node:path';

/** Creates `dir` one missing component at a time, from its nearest existing ancestor; throws the first failure. */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let current = path.resolve(dir);
  while (!fs.existsSync(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const part of missing) fs.mkdirSync(part);
}
