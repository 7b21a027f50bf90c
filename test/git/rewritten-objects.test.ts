// The hand-off's object-store check hashes each loose object a command touched. It read the whole
// inflated object into memory: a command's object that inflates to a gigabyte (a small file:
// zeros deflate a thousandfold) cost the runner that gigabyte, and one past Node's buffer limit
// the runner's memory before the check gave up.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { rewrittenObjects } from '../../src/git/rewritten-objects.js';
import { cleanupRepos, gitIn, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const MB = 1024 * 1024;

/** Deflates `header` then `zeros` bytes of zeros into `file`, a MB at a time; the hex id of what it holds. */
async function writeZerosObject(file: string, header: string, zeros: number): Promise<string> {
  const hash = createHash('sha1').update(header);
  const deflate = zlib.createDeflate({ level: 1 });
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => out.on('finish', () => resolve()).on('error', reject));
  deflate.pipe(out);
  deflate.write(header);
  const chunk = Buffer.alloc(MB);
  for (let left = zeros; left > 0; left -= MB) {
    const piece = left >= MB ? chunk : chunk.subarray(0, left);
    hash.update(piece);
    if (!deflate.write(piece)) await new Promise<void>((resolve) => deflate.once('drain', () => resolve()));
  }
  deflate.end();
  await done;
  return hash.digest('hex');
}

describe('the object-store check on a large loose object', () => {
  it('takes a genuine object of 300 MB as what its name says, in the memory of a few chunks', async () => {
    const ws = await makeRepo(path.join(tempRoot(), 'ws'), { 'a.txt': 'a\n' });
    const objects = path.join(ws, '.git', 'objects');
    const since = Date.now();
    const scratch = path.join(objects, 'scratch');
    const id = await writeZerosObject(scratch, `blob ${300 * MB}\0`, 300 * MB);
    fs.mkdirSync(path.join(objects, id.slice(0, 2)), { recursive: true });
    fs.renameSync(scratch, path.join(objects, id.slice(0, 2), id.slice(2)));
    // git agrees it is an object of that name.
    expect(await gitIn(ws, 'cat-file', '-s', id)).toBe(String(300 * MB));
    const before = process.resourceUsage().maxRSS;
    expect(await rewrittenObjects({ objects, since, verify: async () => true })).toEqual([]);
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(128);
  }, 60_000);

  it('finds an object that inflates far past the size its header gives without holding it in memory', async () => {
    const ws = await makeRepo(path.join(tempRoot(), 'ws'), { 'build.sh': 'echo safe\n' });
    const objects = path.join(ws, '.git', 'objects');
    const blob = await gitIn(ws, 'rev-parse', 'HEAD:build.sh');
    const since = Date.now();
    // HEAD's build.sh object, replaced by 'blob 10\0' followed by a gigabyte of zeros (about 1 MB on disk).
    const file = path.join(objects, blob.slice(0, 2), blob.slice(2));
    fs.rmSync(file, { force: true });
    await writeZerosObject(file, 'blob 10\0', 1024 * MB);
    expect(fs.statSync(file).size).toBeLessThan(16 * MB);
    const before = process.resourceUsage().maxRSS;
    const found = await rewrittenObjects({ objects, since, verify: async () => true });
    expect(found).toEqual([`${blob.slice(0, 2)}/${blob.slice(2)}`]);
    // maxRSS is in kilobytes: the whole inflated gigabyte would show here.
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(256);
  }, 60_000);
});
