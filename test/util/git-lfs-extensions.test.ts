// The git-lfs extensions a repository declares in .lfsconfig, read as git-lfs reads them (the work
// tree's file, else the index's, else HEAD's), and never by waiting on a FIFO a command left.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { lfsConfigExtensions } from '../../src/util/git-lfs-extensions.js';

afterAll(removeTempDirs);

it("reads HEAD's .lfsconfig at once when a command left a FIFO in place of the index", async () => {
  const ws = await makeRepo(path.join(tempDir(), 'ws'), { '.lfsconfig': '[lfs "extension.x"]\n\tpriority = 0\n' });
  expect(lfsConfigExtensions(ws)).toEqual(['x']);
  fs.rmSync(path.join(ws, '.lfsconfig'));
  fs.rmSync(path.join(ws, '.git/index'));
  execFileSync('mkfifo', [path.join(ws, '.git/index')]);
  const started = Date.now();
  expect(lfsConfigExtensions(ws)).toEqual(['x']);
  expect(Date.now() - started).toBeLessThan(5_000);
}, 30_000);
