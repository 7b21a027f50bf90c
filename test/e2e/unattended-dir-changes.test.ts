// A repository may keep its own files under .unattended (its recipes, say). Change tracking left
// the whole directory out, for the runs' records kept there, so a command that rewrote a tracked
// .unattended/recipes/ci.yaml (or added a script beside it) was missing from files_changed, the
// list a reviewer trusts, whenever the run's own directory was elsewhere (--out, the Action's).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

describe('files under the workspace’s .unattended that are not run records', () => {
  it('are in files_changed when a command changes them, and other runs’ records are not', async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n', '.unattended/recipes/ci.yaml': 'prompt: fix\n' });
    const run = await runCommands({
      workspace: ws,
      commands: ["echo 'prompt: something else' > .unattended/recipes/ci.yaml; echo x > .unattended/new.sh; mkdir -p .unattended/runs/other .unattended/batches/b; echo r > .unattended/runs/other/report.json; echo b > .unattended/batches/b/batch-report.json"],
    });
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(fs.readFileSync(path.join(ws, '.unattended/recipes/ci.yaml'), 'utf8')).toContain('something else');
    const paths = run.report.files_changed.map((f: { path: string }) => f.path);
    expect(paths).toEqual(['.unattended/new.sh', '.unattended/recipes/ci.yaml']);
  });
});
