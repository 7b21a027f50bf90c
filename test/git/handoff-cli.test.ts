// The hand-off through the CLI: a recorded run edits a file and writes another with the shell
// (which only git's view can see), then the runner branches, commits and pushes. The first case runs
// the built CLI; the two that fail run the CLI's entry in this process (helpers/cli-in-process.ts).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeBareOrigin, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const RECIPE = `version: 1
name: handoff
prompt: Make the greeting friendlier.
parameters:
  ticket: { type: string }
provider: scripted
script: turns.yaml
tools: [edit, shell]
confirmation: { mode: auto-approve }
git:
  branch: "unattended/{{ ticket }}"
  commit_message: "Friendlier greeting ({{ ticket }})"
  push: true
`;

const editTurns = (final: string) => `turns:
  - calls:
      - name: edit
        args: { file_path: "{{workspace}}/README.md", old_string: "hello", new_string: "hello, friend" }
      - name: shell
        args: { command: "echo generated > gen.txt" }
  - text: "${final}"
`;

async function setup(final: string) {
  const root = tempRoot();
  const repo = await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n' });
  const origin = await makeBareOrigin(repo, path.join(root, 'origin.git'));
  fs.writeFileSync(path.join(root, 'recipe.yaml'), RECIPE);
  fs.writeFileSync(path.join(root, 'turns.yaml'), editTurns(final));
  const out = path.join(repo, '.unattended', 'run');
  const args = ['run', path.join(root, 'recipe.yaml'), '--workspace', repo, '--out', out, '--param', 'ticket=T-1'];
  const run = () => cli(args, { env: isolatedGitEnv(root) });
  const runInProcess = () => cliInProcess(args, { env: isolatedGitEnv(root) });
  return { root, repo, origin, out, run, runInProcess };
}

describe('git hand-off through the CLI', () => {
  it('branches, commits what git sees changed (not the run output), pushes, and names it all in the report', async () => {
    const { repo, origin, out, run } = await setup('Done.');
    const r = await run();
    expect(r.stderr).not.toMatch(/hand-off failed|push .* failed/);
    expect(r.code).toBe(0);

    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('success');
    expect(report.git).toMatchObject({ branch: 'unattended/T-1', pushed: true, error: null, push_error: null, skipped: null });
    expect(report.git.files.sort()).toEqual(['README.md', 'gen.txt']);
    expect(report.git.commit).toBe(await gitIn(origin, 'rev-parse', 'unattended/T-1'));
    expect(await gitIn(repo, 'log', '-1', '--format=%s|%an', 'unattended/T-1')).toBe('Friendlier greeting (T-1)|unattended');
    // The checkout stays on main, with the run's changes in the work tree and nothing staged.
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('main');
    expect((await gitIn(repo, 'status', '--porcelain')).split('\n').map((l) => l.trim()).sort()).toEqual(['?? .unattended/', '?? gen.txt', 'M README.md']);
    expect(reportMd).toContain('## Git');
    expect(reportMd).toContain(`- commit: \`${report.git.commit}\` (2 files)`);
    expect(reportMd).toContain('- pushed: yes');
    expect(events.at(-1)?.type).toBe('run_end');
  });

  it('commits nothing after a failed run and says why', async () => {
    const { repo, origin, out, runInProcess } = await setup('');
    const r = await runInProcess();
    expect(r.code).toBe(1);
    const { report, reportMd } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.git).toMatchObject({ commit: null, pushed: false, skipped: 'the run ended with status failed; nothing is committed' });
    expect(reportMd).toContain('- not committed: the run ended with status failed');
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
    expect(await gitIn(origin, 'branch', '--list')).toBe('');
  });

  it('fails the hand-off when none of what the run changed could be committed (it overlapped changes made before): handoff_failed, exit 58', async () => {
    const { repo, origin, out, runInProcess } = await setup('Done.');
    // The person's own uncommitted edit, on the line the run edits; and no shell-made file this time.
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n\n');
    fs.writeFileSync(path.join(repo, '..', 'turns.yaml'), editTurns('Done.').replace(/      - name: shell\n.*\n/, ''));
    const r = await runInProcess();
    expect(r.code).toBe(58);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'handoff_failed', exit_code: 58, final_answer: 'Done.' });
    expect(report.error).toMatch(/^git hand-off: nothing the run changed could be committed: README\.md \(it had uncommitted changes before the run/);
    expect(report.git).toMatchObject({ commit: null, pushed: false, left_out: [{ path: 'README.md' }] });
    expect(await gitIn(origin, 'branch', '--list')).toBe('');
  });

  it('commits a file whose name is not UTF-8, or holds a line break, under that very name, and the report names it as the tools do', async () => {
    const { repo, origin, out, runInProcess } = await setup('Done.');
    // A Latin-1 name (caf\xE9.txt) and one with a tab and a line break, made by a command.
    const command = String.raw`printf 'latin\n' > "$(printf 'caf\351.txt')" && printf 'lines\n' > "$(printf 'a\tb\nc.txt')"`;
    fs.writeFileSync(path.join(repo, '..', 'turns.yaml'), `turns:\n  - calls:\n      - name: shell\n        args: { command: ${JSON.stringify(command)} }\n  - text: "Done."\n`);
    const r = await runInProcess();
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    // Read as UTF-8 the byte became U+FFFD: the commit held a file 'caf\uFFFD.txt' the run never made.
    const tree = await execa('git', ['ls-tree', '-r', '-z', '--name-only', 'unattended/T-1'], { cwd: origin, encoding: 'buffer' });
    const names = Buffer.from(tree.stdout).toString('latin1').split('\0').filter(Boolean).sort();
    expect(names).toEqual(['README.md', 'a\tb\nc.txt', 'caf\xe9.txt']);
    expect(report.git.files.sort()).toEqual(['a\tb\nc.txt', 'caf\\xE9.txt']);
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['a\tb\nc.txt', 'caf\\xE9.txt']);
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('main');
  });

  it('fails the run clearly when the branch already exists: handoff_failed, exit 58', async () => {
    const { repo, out, runInProcess } = await setup('Done.');
    await gitIn(repo, 'branch', 'unattended/T-1');
    const r = await runInProcess();
    expect(r.code).toBe(58);
    expect(r.stderr).toContain("git hand-off: branch 'unattended/T-1' already exists");
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'handoff_failed', exit_code: 58, final_answer: 'Done.' });
    expect(report.git.commit).toBeNull();
  });

  it("says at the start, and in push_error, that a push cannot happen without a remote named origin (not git's 'does not appear to be a git repository')", async () => {
    const { repo, out, runInProcess } = await setup('Done.');
    await gitIn(repo, 'remote', 'remove', 'origin');
    const r = await runInProcess();
    expect(r.code).toBe(58);
    const { report, events } = readRun(out);
    expect(report.git).toMatchObject({ pushed: false, push_error: "the repository has no remote named 'origin', so the branch is not pushed: add one (git remote add origin URL), then push it (git push origin unattended/T-1)" });
    expect(await gitIn(repo, 'rev-parse', 'unattended/T-1')).toBe(report.git.commit);
    const warned = events.findIndex((e) => e.type === 'warning' && /^git: push is asked, and the repository has no remote named 'origin': the push will fail \(exit 58\)/.test(e.message ?? ''));
    expect(warned).toBeGreaterThan(-1);
    expect(warned).toBeLessThan(events.findIndex((e) => e.type === 'tool_call'));
  });

  it('says git refuses the repository, at the start and in the error, when there is one it cannot use (not "not inside a git repository")', async () => {
    const { repo, out, runInProcess } = await setup('Done.');
    // A repository git will not open (as one owned by another user is, or one from a newer git).
    await gitIn(repo, 'config', 'core.repositoryformatversion', '99');
    const r = await runInProcess();
    expect(r.code).toBe(58);
    const { report, events } = readRun(out);
    expect(report.error).toMatch(new RegExp(`^git hand-off: git cannot use the repository of the workspace ${repo}: fatal: .*repo version`));
    expect(report.error).not.toMatch(/not inside a git repository/);
    // Said before the model was asked anything, not only after the whole run.
    const warned = events.findIndex((e) => e.type === 'warning' && /^git: the hand-off will fail \(exit 58\) after the run: git cannot use the repository/.test(e.message ?? ''));
    expect(warned).toBeGreaterThan(-1);
    expect(warned).toBeLessThan(events.findIndex((e) => e.type === 'tool_call'));
  });
});
