// workspace_mode: copy's copy: what it copies, and that it neither holds the event loop nor goes on
// after the run's signal (a SIGTERM during a copy of a big tree must be seen at once).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyTree, WorkspaceCopyError } from '../../src/runner/workspace-copy.js';
import { RunStop } from '../../src/loop/stop.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const skip = (name: string) => name === 'node_modules';
const never = new AbortController().signal;

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

describe('copyTree', () => {
  it('copies files with their modes, links as they are, read-only directories, and leaves node_modules out at any depth', async () => {
    const from = tempDir('unattended-copy-from-');
    fs.mkdirSync(path.join(from, 'src/deep'), { recursive: true });
    fs.writeFileSync(path.join(from, 'src/deep/a.txt'), 'a\n');
    fs.writeFileSync(path.join(from, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    fs.symlinkSync('../run.sh', path.join(from, 'src/link'));
    fs.mkdirSync(path.join(from, 'node_modules/x'), { recursive: true });
    fs.mkdirSync(path.join(from, 'src/node_modules'));
    fs.writeFileSync(path.join(from, 'src/node_modules/y.js'), '');
    fs.mkdirSync(path.join(from, 'locked'));
    fs.writeFileSync(path.join(from, 'locked/in.txt'), 'in\n');
    fs.chmodSync(path.join(from, 'locked'), 0o555);
    const to = path.join(tempDir('unattended-copy-to-'), 'workspace');

    await copyTree(from, to, { signal: never, skip });

    expect(fs.readFileSync(path.join(to, 'src/deep/a.txt'), 'utf8')).toBe('a\n');
    expect(fs.statSync(path.join(to, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(path.join(to, 'src/link'))).toBe('../run.sh');
    expect(fs.existsSync(path.join(to, 'node_modules'))).toBe(false);
    expect(fs.existsSync(path.join(to, 'src/node_modules'))).toBe(false);
    expect(fs.readFileSync(path.join(to, 'locked/in.txt'), 'utf8')).toBe('in\n');
    expect(fs.statSync(path.join(to, 'locked')).mode & 0o777).toBe(0o555);
    fs.chmodSync(path.join(from, 'locked'), 0o755);
    fs.chmodSync(path.join(to, 'locked'), 0o755);
  });

  it('leaves the event loop free, and stops at the run\'s signal with its reason', async () => {
    const from = tempDir('unattended-copy-from-');
    for (let d = 0; d < 20; d++) {
      fs.mkdirSync(path.join(from, `d${d}`));
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(from, `d${d}`, `f${f}.txt`), `${d}/${f}\n`);
    }
    const to = path.join(tempDir('unattended-copy-to-'), 'workspace');
    const controller = new AbortController();
    const stop = new RunStop('SIGTERM');
    const copying = copyTree(from, to, { signal: controller.signal, skip });
    // A timer fires while the copy runs (a copy that held the loop would have finished first), and
    // the copy settles with the stop at once, not after the rest of the tree.
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(stop);
    await expect(copying).rejects.toBe(stop);
    expect(countFiles(to)).toBeLessThan(2000);
  });

  it('a copy that cannot be made is an io error (exit 54) naming both places', async () => {
    const from = tempDir('unattended-copy-from-');
    fs.writeFileSync(path.join(from, 'a.txt'), 'a\n');
    const blocker = path.join(tempDir('unattended-copy-to-'), 'a-file');
    fs.writeFileSync(blocker, '');
    const error = await copyTree(from, path.join(blocker, 'workspace'), { signal: never, skip }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceCopyError);
    expect(error).toMatchObject({ kind: 'io', exitCode: 54 });
    expect((error as Error).message).toMatch(new RegExp(`^cannot copy the workspace ${from} to ${blocker}/workspace \\(workspace_mode: copy\\): ENOTDIR`));
  });
});
