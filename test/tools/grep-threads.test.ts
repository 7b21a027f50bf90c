// grep's worker threads cost ~40-100 ms of CPU (and as much wall time) each to start. A plain-text
// pattern, which cannot backtrack, is searched on the run's own thread up to a budget: a search of
// a few files (the usual case: ripgrep already found the files with a match) starts no thread. A
// regular expression starts one, a real backlog one per core. All give the same answer, in order.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BYTES_SEARCHED_HERE, GrepSearch } from '../../src/tools/builtin/grep-worker.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/** `count` files with `needle i` on their second line, each `padding` bytes bigger than that. */
function files(count: number, padding = 0): Array<[string, string]> {
  const dir = tempDir();
  return Array.from({ length: count }, (_, i) => {
    const relative = `f${i}.txt`;
    fs.writeFileSync(path.join(dir, relative), `line\nneedle ${i}\n${'x'.repeat(padding)}\n`);
    return [path.join(dir, relative), relative] as [string, string];
  });
}

async function search(all: Array<[string, string]>, batch: number, source = 'needle', maxMatches = 100_000) {
  const grep = new GrepSearch({ source, flags: '', maxMatches }, new AbortController().signal, 4);
  for (let i = 0; i < all.length; i += batch) grep.add(all.slice(i, i + batch));
  const outcome = await grep.finish();
  return { threads: grep.threads, matches: outcome.matches.length, searched: outcome.searched, first: outcome.matches[0], last: outcome.matches.at(-1), truncated: outcome.truncated };
}

describe('grep worker threads', () => {
  it('plain text in a hundred files: searched on this thread, every match', async () => {
    expect(await search(files(100), 2)).toEqual({ threads: 0, matches: 100, searched: 100, first: 'f0.txt:2: needle 0', last: 'f99.txt:2: needle 99', truncated: false });
  });

  it('a regular expression in a hundred files: one thread, the same answer', async () => {
    expect(await search(files(100), 2, 'needl[e]')).toEqual({ threads: 1, matches: 100, searched: 100, first: 'f0.txt:2: needle 0', last: 'f99.txt:2: needle 99', truncated: false });
  });

  it('plain text past the budget of this thread: the rest in workers, the answer in file order', async () => {
    // 2.5 times the budget, in batches that straddle it.
    const padding = 8192;
    const count = Math.ceil((2.5 * BYTES_SEARCHED_HERE) / padding);
    const result = await search(files(count, padding), 100);
    expect(result.threads).toBeGreaterThan(0);
    expect(result).toMatchObject({ matches: count, searched: count, first: 'f0.txt:2: needle 0', last: `f${count - 1}.txt:2: needle ${count - 1}` });
  });

  it('plain text that passes the match cap on this thread: stopped at the cap, no thread, counted as a worker counts', async () => {
    const all = files(300);
    const here = await search(all, 50, 'needle', 120);
    const inWorkers = await search(all, 50, 'needl[e]', 120);
    expect(here).toMatchObject({ threads: 0, matches: 120, first: 'f0.txt:2: needle 0', last: 'f119.txt:2: needle 119', truncated: true });
    expect({ ...here, threads: 1 }).toEqual(inWorkers);
  });

  it('a backlog of thousands of files: more threads, the same answer in the same order', async () => {
    const all = files(3000);
    const result = await search(all, 256, 'needl[e]');
    expect(result.threads).toBeGreaterThan(1);
    expect(result).toMatchObject({ matches: 3000, searched: 3000, first: 'f0.txt:2: needle 0' });
  });
});
