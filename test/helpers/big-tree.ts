// A workspace of many files, for the listing and search tools' caps and speed: `files` small text
// files spread over nested directories (packages/pNNNN/mod-NN/file-NNN.ts), plus a few landmarks
// that sort last, so a walk that stops early misses them.
//
// Made cheaply: the first package (1,000 files, each with its own line) is written, and every other
// package is a copy of it made of hard links (`cp -al`, one child process for all of them). Every
// path is a file of its own to a walk, a glob or grep, but the tree costs one inode per file of the
// first package instead of one per path (200,000 files written one by one took 8-10 s and 800 MB
// of tmpfs pages; linked, a few seconds and a few MB). Removed by one `rm -rf` for the same reason:
// Node 20's recursive rm walks in JavaScript and took 6-12 s for the tree.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface BigTree {
  root: string;
  files: number;
  /** Workspace-relative paths of the landmarks: found only by a walk that reaches the end. */
  landmarks: string[];
  /** A word written in the landmarks only. */
  needle: string;
}

export const FILES_PER_DIR = 100;
export const DIRS_PER_PACKAGE = 10;
const FILES_PER_PACKAGE = FILES_PER_DIR * DIRS_PER_PACKAGE;

const packageName = (p: number) => `p${String(p).padStart(4, '0')}`;

/**
 * `files` must be a multiple of 1,000 (whole packages). Files of the first package hold
 * `export const vN = N;` (N = 0..999); every later package holds the same lines, as links to them.
 */
export function makeBigTree(root: string, files = 200_000): BigTree {
  if (files <= 0 || files % FILES_PER_PACKAGE !== 0) throw new Error(`makeBigTree: files must be a positive multiple of ${FILES_PER_PACKAGE}, not ${files}`);
  const needle = 'NEEDLE_IN_THE_LAST_PACKAGE';
  const packages = path.join(root, 'packages');
  let n = 0;
  for (let d = 0; d < DIRS_PER_PACKAGE; d++) {
    const dir = path.join(packages, packageName(0), `mod-${String(d).padStart(2, '0')}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++, n++) fs.writeFileSync(path.join(dir, `file-${String(f).padStart(3, '0')}.ts`), `export const v${n} = ${n};\n`);
  }
  const copies = Array.from({ length: files / FILES_PER_PACKAGE - 1 }, (_, i) => packageName(i + 1));
  linkCopies(packages, packageName(0), copies);
  const landmarks = ['zz-last/deep/landmark.md', 'zz-last/deep/landmark.ts'];
  for (const relative of landmarks) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), `// ${needle}\n`);
  }
  return { root, files: files + landmarks.length, landmarks, needle };
}

/** Copies `dir/source` to `dir/<each copy>` as hard links: one shell running `cp -al`, else linkSync. */
function linkCopies(dir: string, source: string, copies: string[]): void {
  if (copies.length === 0) return;
  try {
    execFileSync('sh', ['-c', 'cd "$1" && src=$2 && shift 2 && for p in "$@"; do cp -al "$src" "$p" || exit 1; done', 'sh', dir, source, ...copies], { stdio: 'pipe' });
    return;
  } catch {
    // No GNU cp (-l is not everywhere): link file by file below, over whatever the shell made.
  }
  const files = fs.readdirSync(path.join(dir, source), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  for (const copy of copies) {
    for (const file of files) {
      const relative = path.relative(path.join(dir, source), path.join(file.parentPath, file.name));
      const target = path.join(dir, copy, relative);
      if (fs.existsSync(target)) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.linkSync(path.join(dir, source, relative), target);
    }
  }
}

/** Removes a tree made by makeBigTree: one `rm -rf` child, else Node's own recursive rm. */
export function removeBigTree(root: string): void {
  try {
    execFileSync('rm', ['-rf', '--', root], { stdio: 'pipe' });
  } catch {
    // Not there, or no rm: the slow way, which also says what went wrong.
  }
  fs.rmSync(root, { recursive: true, force: true });
}
