// grep's worker threads cost ~40-100 ms of CPU each to start: a search of a few files (the usual
// case: ripgrep already found the files with a match) starts one, a search with a real backlog
// one per core. Both give the same answer.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GrepSearch } from '../../src/tools/builtin/grep-worker.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function files(count: number): Array<[string, string]> {
  const dir = tempDir();
  return Array.from({ length: count }, (_, i) => {
    const relative = `f${i}.txt`;
    fs.writeFileSync(path.join(dir, relative), `line\nneedle ${i}\n`);
    return [path.join(dir, relative), relative] as [string, string];
  });
}

async function search(all: Array<[string, string]>, batch: number) {
  const grep = new GrepSearch({ source: 'needle', flags: '', maxMatches: 100_000 }, new AbortController().signal, 4);
  for (let i = 0; i < all.length; i += batch) grep.add(all.slice(i, i + batch));
  const outcome = await grep.finish();
  return { threads: grep.threads, matches: outcome.matches.length, searched: outcome.searched, first: outcome.matches[0] };
}

describe('grep worker threads', () => {
  it('a hundred files in small batches: one thread, every match', async () => {
    expect(await search(files(100), 2)).toEqual({ threads: 1, matches: 100, searched: 100, first: 'f0.txt:2: needle 0' });
  });

  it('a backlog of thousands of files: more threads, the same answer in the same order', async () => {
    const all = files(3000);
    const result = await search(all, 256);
    expect(result.threads).toBeGreaterThan(1);
    expect(result).toMatchObject({ matches: 3000, searched: 3000, first: 'f0.txt:2: needle 0' });
  });
});
