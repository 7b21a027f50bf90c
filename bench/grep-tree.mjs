// A big, realistic tree for the grep benchmark: ~28,700 source-like text files (~616 MB by
// default), a few binary and over-1 MB files, a gitignored build directory and a hidden one.
// Deterministic (a seeded generator), so every round searches the same bytes.
import fs from 'node:fs';
import path from 'node:path';

const WORDS = 'const let function return export import from async await value result error index count items data node file path tree line match search pattern string number object array map filter reduce push length config options default module class interface type extends implements public private static readonly'.split(' ');

/** Writes the tree under `root` (which must exist and be empty); returns what it wrote. */
export function makeGrepTree(root, { files = 28_700, megabytes = 616 } = {}) {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  // 0.933: the lines overshoot each file's target size; this lands the total near `megabytes`.
  const averageBytes = (0.933 * megabytes * 1024 * 1024) / files;
  // One pool of text lines, reused: generating 600 MB of fresh text would dominate the set-up.
  const pool = Array.from({ length: 4096 }, (_, i) => {
    const n = 3 + Math.floor(random() * 10);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);
    return `${'  '.repeat(i % 4)}${words.join(' ')} = ${Math.floor(random() * 1e6)};`;
  });
  let bytes = 0;
  let written = 0;
  for (let i = 0; written < files; i++) {
    const dir = path.join(root, `pkg${String(Math.floor(i / 300)).padStart(3, '0')}`, `mod${String(Math.floor(i / 30) % 10)}`);
    if (i % 30 === 0) fs.mkdirSync(dir, { recursive: true });
    // Sizes spread from a few hundred bytes to ~4× the average, like a real tree.
    const target = Math.floor((averageBytes - 300) * 4 * random() * random() + 200);
    const lines = [];
    let size = 0;
    let k = Math.floor(random() * pool.length);
    while (size < target) {
      const line = pool[k++ % pool.length];
      lines.push(line);
      size += line.length + 1;
    }
    const content = lines.join('\n') + '\n';
    fs.writeFileSync(path.join(dir, `file${i % 30}.ts`), content);
    bytes += content.length;
    written++;
  }
  // What a real project also holds: binaries, a large generated file, ignored and hidden output.
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(root, 'assets', `image${i}.png`), Buffer.alloc(40_000, i));
  fs.writeFileSync(path.join(root, 'assets', 'bundle.js'), pool.join('\n').repeat(8));
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist', 'out.js'), pool.join('\n'));
  fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\n');
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
  fs.writeFileSync(path.join(root, '.cache', 'state.json'), '{"cached": true}\n');
  return { files: written + 24, bytes };
}
