// A targets list written by another command, as a shell gives it: `--targets /dev/stdin` from a
// pipe, or `--targets <(ls -d svc-*)` (a path under /dev/fd). A relative target there was taken
// relative to /dev or /dev/fd ("/dev/fd/svc-a is not a directory"): it is the current directory's.
// The built CLI, real git repositories and the scripted provider.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { execa } from 'execa';
import { baseEnv, CLI, cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

async function fleet() {
  const root = tempRoot('unattended-batch-pipe-');
  for (const name of ['svc-a', 'svc-b']) await makeRepo(path.join(root, name), { 'README.md': `hello from ${name}\n` });
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - text: Looked.\n');
  fs.writeFileSync(path.join(root, 'recipe.yaml'), 'version: 1\nname: look\nprompt: Look.\nprovider: scripted\nscript: turns.yaml\nconfirmation: { mode: deny }\n');
  return root;
}

it('--targets /dev/stdin from a pipe: relative targets are in the current directory', { timeout: 60_000 }, async () => {
  const root = await fleet();
  // Through a shell's pipe, as a user types it.
  const r = await execa('sh', ['-c', 'printf "svc-a\\n./svc-b\\n" | "$NODE" "$CLI" batch recipe.yaml --targets /dev/stdin --out out'], {
    cwd: root,
    env: baseEnv({ NODE: process.execPath, CLI }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(readBatch(path.join(root, 'out')).rows.map((row: { target: string; status: string }) => [row.target, row.status])).toEqual([
    ['svc-a', 'success'],
    ['./svc-b', 'success'],
  ]);
});

it('--targets /dev/stdin when stdin is a socket (Node spawn with pipes, some CI runners): the list is read, not ENXIO', { timeout: 60_000 }, async () => {
  const root = await fleet();
  // cli() with input pipes through a socket pair: opening /dev/stdin then fails with ENXIO.
  const r = await cli(['batch', 'recipe.yaml', '--targets', '/dev/stdin', '--out', 'out'], { cwd: root, input: 'svc-a\n./svc-b\n' });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('ENXIO');
  expect(readBatch(path.join(root, 'out')).rows.map((row: { target: string; status: string }) => [row.target, row.status])).toEqual([
    ['svc-a', 'success'],
    ['./svc-b', 'success'],
  ]);
  const matrix = await cli(['batch', 'matrix', '--targets', '/dev/stdin', '--shards', '2'], { cwd: root, input: 'svc-a\nsvc-b\n' });
  expect(matrix.code, matrix.stderr).toBe(0);
  expect(JSON.parse(matrix.stdout).include).toHaveLength(2);
});

it('--targets naming a pipe (what <(ls -d svc-*) gives): relative targets are in the current directory', { timeout: 60_000 }, async () => {
  const root = await fleet();
  const fifo = path.join(tempRoot('unattended-batch-fifo-'), 'targets');
  execFileSync('mkfifo', [fifo]);
  // The writer blocks until the batch opens the pipe to read it.
  const writer = fs.promises.writeFile(fifo, 'svc-a\nsvc-b\n');
  const r = await cli(['batch', 'recipe.yaml', '--targets', fifo, '--out', 'out'], { cwd: root });
  await writer;
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('is not a directory');
  expect(readBatch(path.join(root, 'out')).rows.map((row: { status: string }) => row.status)).toEqual(['success', 'success']);
});

it.runIf(fs.existsSync('/dev/shm'))('a regular targets file under /dev (in /dev/shm) keeps its own directory for relative targets', { timeout: 60_000 }, async () => {
  const root = await fleet();
  const dir = fs.mkdtempSync('/dev/shm/unattended-targets-');
  try {
    for (const name of ['svc-a', 'svc-b']) fs.symlinkSync(path.join(root, name), path.join(dir, name));
    fs.writeFileSync(path.join(dir, 'targets.txt'), 'svc-a\nsvc-b\n');
    // Run from elsewhere: the targets are found through the file's directory only.
    const elsewhere = tempRoot('unattended-batch-elsewhere-');
    const r = await cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(dir, 'targets.txt'), '--out', 'out'], { cwd: elsewhere });
    expect(r.code, r.stderr).toBe(0);
    expect(readBatch(path.join(elsewhere, 'out')).rows.map((row: { status: string }) => row.status)).toEqual(['success', 'success']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
