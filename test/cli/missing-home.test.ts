// A HOME that does not exist (`/nonexistent`, as service users and some containers have, run as
// root): the run works, and neither the launcher's code cache nor the record of the latest run
// makes that directory. Through the installed launcher, as a user runs it.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

it('runs without creating the HOME it was given', async () => {
  const dir = tempDir();
  const home = path.join(dir, 'nonexistent');
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(dir, 'turns.jsonl'), '{"text":"ok"}\n');
  // A copy of the build whose installation cache cannot be used, so the launcher looks to HOME.
  const install = path.join(dir, 'install');
  fs.cpSync(path.join(ROOT, 'dist'), path.join(install, 'dist'), { recursive: true, filter: (src) => !src.includes(`${path.sep}cache`) });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(install, 'package.json'));
  fs.chmodSync(path.join(install, 'dist', 'cli'), 0o777);
  const r = await execa(process.execPath, [path.join(install, 'dist/cli/unattended.cjs'), 'run', '-p', 'hi', '--provider', 'scripted', '--script', path.join(dir, 'turns.jsonl'), '--out', path.join(dir, 'out')], {
    cwd: ws,
    env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout).toBe('ok');
  expect(fs.existsSync(home)).toBe(false);
});
