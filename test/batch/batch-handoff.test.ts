// A target's hand-off in a batch commits its run's work and nothing of the batch's outputs: a batch
// run from inside a target repository with --out there has its other targets' runs writing into
// that repository (their reports, transcripts, the batch report) while this target's run is on.
// Real git repositories, the scripted provider, the CLI's entry and the runs in this process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, gitIn, makeRepo, tempRoot } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

const RECIPE = `version: 1
name: edit
prompt: Make the greeting shorter.
provider: scripted
script: turns.yaml
tools: [shell]
sandbox: { mode: off }
confirmation: { mode: auto-approve }
git: { branch: unattended/edit, commit_message: shorter }
`;

// In R, the edit waits until the other target's run has written its report into R/batch-out.
const TURNS = `turns:
  - calls:
      - name: shell
        args: { command: "case $PWD in */R) for i in $(seq 200); do ls batch-out/targets/*-other-*/report.json >/dev/null 2>&1 && break; sleep 0.05; done; sleep 0.3;; esac; sed -i s/hello/hi/ README.md" }
  - text: done
`;

describe('a batch target hand-off', () => {
  it("commits none of the batch's outputs, though another target's run writes them into the repository meanwhile", { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-batch-handoff-');
    const repo = await makeRepo(path.join(root, 'R'), { 'README.md': 'hello from R\n' });
    await makeRepo(path.join(root, 'other'), { 'README.md': 'hello from other\n' });
    fs.writeFileSync(path.join(root, 'recipe.yaml'), RECIPE);
    fs.writeFileSync(path.join(root, 'turns.yaml'), TURNS);
    fs.writeFileSync(path.join(root, 'targets.txt'), `${repo}\n${path.join(root, 'other')}\n`);
    const r = await cliInProcess(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', 'batch-out', '--concurrency', '2'], {
      cwd: repo,
      launchRun: inProcessLauncher,
    });
    expect(r.code).toBe(0);
    const rows = readBatch(path.join(repo, 'batch-out')).rows;
    expect(rows.map((row: any) => [row.status, row.files_changed])).toEqual([['success', 1], ['success', 1]]);
    expect(await gitIn(repo, 'show', '--name-only', '--format=', 'unattended/edit')).toBe('README.md');
    const report = JSON.parse(fs.readFileSync(path.join(repo, 'batch-out', rows[0].report), 'utf8'));
    expect(report.files_changed.map((f: any) => f.path ?? f)).toEqual(['README.md']);
  });
});
