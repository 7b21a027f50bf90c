// Seeded random trees for the differential tests of the walking tools: names and .gitignore lines
// drawn from the shapes git, ripgrep and the ignore library read differently (classes, escapes,
// `**` inside a name, trailing spaces and tabs, CRLF, a byte-order mark, braces, non-ASCII bytes).
// Deterministic: a seed gives the same tree on every run and machine.
import fs from 'node:fs';
import path from 'node:path';

/** A small linear congruential generator: fast, and the same numbers everywhere. */
export function random(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    below: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
  };
}

export interface Random {
  next(): number;
  pick<T>(items: readonly T[]): T;
  below(n: number): number;
  chance(p: number): boolean;
}

/** File and directory names: plain, hidden, odd characters, non-ASCII, names a pattern would treat as syntax. */
export const NAMES = ['a', 'b', 'ab', 'a.txt', 'b.log', '.h', 'é', 'naïve.md', 'a b', '[a]', 'x*', 'c.js', 'd.ts', '{a,b}', 'A', 'a\\b', 'a\t', '#x', '!x', 'a ', 'A.TXT', '日本'];

/** Pieces of .gitignore patterns. */
export const PATTERN_PIECES = [
  'a', 'b', 'ab', '*', '**', '?', '[ab]', '[!a]', '[^a]', '[a-c]', '\\*', '{a,b}', '.txt', '.log', '.h', 'é', '?.md', '[[:alpha:]]', '[[:digit:]]',
  '\\', '\\ ', ' ', '\t', '#', '[]a]', '[', 'A', 'x', '***', 'a**', '**a', '[a-]', '[z-a]', '[\\]]', '[[:space:]]', '[[:nope:]]', '\r', '[!]]', '/**/', '\\\\', '[a/b]', '[.]', '日*',
];

/** Workspace-relative file paths, each 1 to 3 names deep. */
export function randomPaths(r: Random, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 1 + r.below(3) }, () => r.pick(NAMES)).join('/'));
}

/** A .gitignore of 1 to 4 random lines: negated, anchored, directory-only, with CRLF or a BOM now and then. */
export function randomGitignore(r: Random, pieces: readonly string[] = PATTERN_PIECES): string {
  const lines = Array.from({ length: 1 + r.below(4) }, () => {
    let line = (r.chance(0.2) ? '!' : '') + (r.chance(0.2) ? '/' : '');
    const n = 1 + r.below(3);
    for (let k = 0; k < n; k++) line += r.pick(pieces) + (k < n - 1 && r.chance(0.3) ? '/' : '');
    return line + (r.chance(0.15) ? '/' : '');
  });
  return (r.chance(0.1) ? '\ufeff' : '') + lines.join(r.chance(0.1) ? '\r\n' : '\n') + '\n';
}

/**
 * Writes `files` under `root` (a path that cannot be made, a file where a directory should be,
 * is skipped) and a random .gitignore in the root and in some of their directories. Returns the
 * .gitignore files written, by directory ('.' for the root).
 */
export function writeRandomTree(r: Random, root: string, files: readonly string[], content: (file: string) => string | Buffer, gitignoreChance = 0.4): Record<string, string> {
  for (const file of files) {
    try {
      fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content(file));
    } catch {
      // a name taken by a file and a directory: the first one stays
    }
  }
  const gitignores: Record<string, string> = {};
  const dirs = ['', ...new Set(files.map((file) => path.dirname(file)).filter((dir) => dir !== '.'))];
  for (const dir of dirs) {
    if (dir !== '' && !r.chance(gitignoreChance)) continue;
    const text = randomGitignore(r);
    try {
      if (!fs.statSync(path.join(root, dir)).isDirectory()) continue;
      fs.writeFileSync(path.join(root, dir, '.gitignore'), text);
      gitignores[dir || '.'] = text;
    } catch {
      // the directory is a file
    }
  }
  return gitignores;
}
