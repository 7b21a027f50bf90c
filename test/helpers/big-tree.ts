// A workspace of many files, for the listing and search tools' caps and speed: `files` small text
// files spread over nested directories (packages/pNNN/mod-NN/file-NNN.ts), plus a few landmarks
// that sort last, so a walk that stops early misses them. Written synchronously: ~200,000 files
// take a few seconds on a local disk.
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

export function makeBigTree(root: string, files = 200_000): BigTree {
  const needle = 'NEEDLE_IN_THE_LAST_PACKAGE';
  const packages = Math.ceil(files / (FILES_PER_DIR * DIRS_PER_PACKAGE));
  let written = 0;
  for (let p = 0; p < packages && written < files; p++) {
    for (let d = 0; d < DIRS_PER_PACKAGE && written < files; d++) {
      const dir = path.join(root, 'packages', `p${String(p).padStart(4, '0')}`, `mod-${String(d).padStart(2, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < FILES_PER_DIR && written < files; f++, written++) {
        fs.writeFileSync(path.join(dir, `file-${String(f).padStart(3, '0')}.ts`), `export const v${written} = ${written};\n`);
      }
    }
  }
  const landmarks = ['zz-last/deep/landmark.md', 'zz-last/deep/landmark.ts'];
  for (const relative of landmarks) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), `// ${needle}\n`);
  }
  return { root, files: written + landmarks.length, landmarks, needle };
}
