// The git hand-off on real temporary repositories: branch, commit, author, hooks, push, refusals.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitHandoffStep } from '../../src/git/handoff-step.js';
import { handOff } from '../../src/git/handoff.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeBareOrigin, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const config = (over: Partial<GitHandoff> = {}): GitHandoff => ({ branch: 'unattended/fix', commitMessage: 'Fix the greeting', push: false, author: null, ...over });

async function repoWithChanges() {
  const root = tempRoot();
  const repo = await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n', 'old.txt': 'old\n', 'keep.txt': 'keep\n' });
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello, world\n');
  fs.rmSync(path.join(repo, 'old.txt'));
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src/new.ts'), 'export {};\n');
  return { root, repo, env: isolatedGitEnv(root) };
}

describe('handOff', () => {
  it('commits every change on a new branch as unattended, without running hooks, and leaves the run output out', async () => {
    const { repo, env } = await repoWithChanges();
    // A repository that tries to run its own code when we commit: both hooks would fail the commit.
    fs.mkdirSync(path.join(repo, '.githooks'));
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
      fs.writeFileSync(path.join(repo, '.githooks', hook), `#!/bin/sh\ntouch "${repo}/hook-ran-${hook}"\nexit 1\n`, { mode: 0o755 });
    }
    await gitIn(repo, 'add', '.githooks');
    await gitIn(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qm', 'hooks');
    await gitIn(repo, 'config', 'core.hooksPath', '.githooks');
    const outDir = path.join(repo, '.unattended/runs/r1');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'report.json'), '{}');

    const report = await handOff({ config: config(), workspace: repo, outDir, env });

    expect(report.error).toBeNull();
    expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(report.commit);
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('unattended/fix');
    expect(report.files.sort()).toEqual(['README.md', 'old.txt', 'src/new.ts']);
    expect(await gitIn(repo, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s')).toBe('unattended <unattended@localhost>|unattended <unattended@localhost>|Fix the greeting');
    expect(await gitIn(repo, 'status', '--porcelain')).toBe('?? .unattended/');
    expect(fs.readdirSync(repo).filter((f) => f.startsWith('hook-ran'))).toEqual([]);
    // main is where it was.
    expect(await gitIn(repo, 'log', '-1', '--format=%s', 'main')).toBe('hooks');
    expect(report.pushed).toBe(false);
  });

  it('leaves out a run output directory whose name starts with two dots (..runs)', async () => {
    const { repo, env } = await repoWithChanges();
    const outDir = path.join(repo, '..runs', 'r1');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'report.json'), '{}');
    const report = await handOff({ config: config(), workspace: repo, outDir, env });
    expect(report.error).toBeNull();
    expect(report.files.sort()).toEqual(['README.md', 'old.txt', 'src/new.ts']);
    expect(await gitIn(repo, 'status', '--porcelain')).toBe('?? ..runs/');
  });

  it('uses the configured author as author and committer', async () => {
    const { repo, env } = await repoWithChanges();
    const report = await handOff({ config: config({ author: { name: 'Fleet Bot', email: 'bot@example.com' } }), workspace: repo, outDir: path.join(repo, '..', 'out'), env });
    expect(report.error).toBeNull();
    expect(await gitIn(repo, 'log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe('Fleet Bot <bot@example.com>|Fleet Bot <bot@example.com>');
  });

  it('does nothing when nothing changed', async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
    const report = await handOff({ config: config(), workspace: repo, outDir: path.join(root, 'out'), env: isolatedGitEnv(root) });
    expect(report).toMatchObject({ commit: null, skipped: 'nothing changed', error: null });
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
  });

  it('refuses a branch that already exists and leaves the changes uncommitted', async () => {
    const { repo, env } = await repoWithChanges();
    await gitIn(repo, 'branch', 'unattended/fix');
    const report = await handOff({ config: config(), workspace: repo, outDir: path.join(repo, '..', 'out'), env });
    expect(report.error).toMatch(/branch 'unattended\/fix' already exists/);
    expect(report.commit).toBeNull();
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(await gitIn(repo, 'rev-parse', 'main'));
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('main');
    expect(await gitIn(repo, 'status', '--porcelain')).toMatch(/M README\.md/);
  });

  it('goes back to the original branch and deletes the new one when the commit fails, so a rerun can succeed', async () => {
    const { repo, env } = await repoWithChanges();
    // A message of comments only is empty after --cleanup=strip: git refuses the commit after add ran.
    const failed = await handOff({ config: config({ commitMessage: '# nothing but a comment' }), workspace: repo, outDir: path.join(repo, '..', 'out'), env });
    expect(failed.error).toMatch(/^git commit failed: .*empty commit message/);
    expect(failed.error).not.toMatch(/left/);
    expect(failed.commit).toBeNull();
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('main');
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
    expect(await gitIn(repo, 'status', '--porcelain')).toMatch(/README\.md/);

    const rerun = await handOff({ config: config(), workspace: repo, outDir: path.join(repo, '..', 'out'), env });
    expect(rerun.error).toBeNull();
    expect(rerun.files.sort()).toEqual(['README.md', 'old.txt', 'src/new.ts']);
  });

  it('says so when the workspace is not a git repository', async () => {
    const root = tempRoot();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a');
    const report = await handOff({ config: config(), workspace: root, outDir: path.join(root, 'out'), env: { ...isolatedGitEnv(root), GIT_CEILING_DIRECTORIES: path.dirname(root) } });
    expect(report.error).toMatch(/not inside a git repository/);
  });

  it('commits only inside the workspace when it is a subdirectory, whatever was staged elsewhere', async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'pkg/a.txt': 'a\n', 'other/b.txt': 'b\n' });
    fs.writeFileSync(path.join(repo, 'pkg/a.txt'), 'a2\n');
    fs.writeFileSync(path.join(repo, 'other/b.txt'), 'b2\n');
    await gitIn(repo, 'add', 'other/b.txt');
    const report = await handOff({ config: config(), workspace: path.join(repo, 'pkg'), outDir: path.join(root, 'out'), env: isolatedGitEnv(root) });
    expect(report.files).toEqual(['pkg/a.txt']);
    expect(await gitIn(repo, 'status', '--porcelain')).toBe('M  other/b.txt');
  });

  it('pushes the branch to origin with an upstream', async () => {
    const { root, repo, env } = await repoWithChanges();
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir: path.join(root, 'out'), env });
    expect(report).toMatchObject({ pushed: true, push_error: null, error: null });
    expect(await gitIn(bare, 'rev-parse', 'unattended/fix')).toBe(report.commit);
    expect(await gitIn(repo, 'rev-parse', '--abbrev-ref', 'unattended/fix@{upstream}')).toBe('origin/unattended/fix');
  });

  it('reports a failed push without losing the commit', async () => {
    const { root, repo, env } = await repoWithChanges();
    await gitIn(repo, 'remote', 'add', 'origin', path.join(root, 'no-such-origin.git'));
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir: path.join(root, 'out'), env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/no-such-origin|does not appear to be a git repository/);
    expect(report.error).toBeNull();
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(report.commit);
  });
});

describe('gitHandoffStep', () => {
  const success = { status: 'success' as const, exitCode: 0, finalAnswer: 'done', error: null };
  const signal = new AbortController().signal;

  it.each([
    ['failed', 1],
    ['denied', 0],
    ['limit', 55],
    ['cancelled', 130],
  ] as const)('never commits after a %s run', async (status, exitCode) => {
    const { repo, env } = await repoWithChanges();
    const outcome = { status, exitCode, finalAnswer: null, error: null };
    const result = await gitHandoffStep({ config: config(), outcome, workspace: repo, outDir: path.join(repo, '..', 'out'), signal, env, warn: () => {} });
    expect(result.outcome).toBe(outcome);
    expect(result.report?.skipped).toBe(`the run ended with status ${status}; nothing is committed`);
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
  });

  it('fails the run when the hand-off fails, and only warns when the push does', async () => {
    const { root, repo, env } = await repoWithChanges();
    await gitIn(repo, 'branch', 'unattended/fix');
    const failed = await gitHandoffStep({ config: config(), outcome: success, workspace: repo, outDir: path.join(root, 'out'), signal, env, warn: () => {} });
    expect(failed.outcome).toMatchObject({ status: 'error', exitCode: 1, finalAnswer: 'done' });
    expect(failed.outcome.error).toMatch(/^git hand-off: branch 'unattended\/fix' already exists/);

    const warnings: string[] = [];
    const pushed = await gitHandoffStep({ config: config({ branch: 'other', push: true }), outcome: success, workspace: repo, outDir: path.join(root, 'out'), signal, env, warn: (w) => warnings.push(w) });
    expect(pushed.outcome).toBe(success);
    expect(pushed.report?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^git push of branch 'other' failed: .*origin/);
  });

  it('never pushes from a copy of the workspace (workspace_mode: copy)', async () => {
    const root = tempRoot();
    const outDir = path.join(root, 'run');
    const repo = await makeRepo(path.join(outDir, 'workspace'), { 'a.txt': 'a\n' });
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
    const warnings: string[] = [];
    const result = await gitHandoffStep({ config: config({ push: true }), outcome: success, workspace: repo, outDir, signal, env: isolatedGitEnv(root), warn: (w) => warnings.push(w) });
    expect(result.report).toMatchObject({ pushed: false, push_error: expect.stringMatching(/workspace_mode: copy/) });
    expect(result.report?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitIn(bare, 'branch', '--list')).toBe('');
    expect(warnings).toHaveLength(1);
  });

  it('asks for nothing when the recipe has no git section', async () => {
    const result = await gitHandoffStep({ config: null, outcome: success, workspace: '/nonexistent', outDir: '/nonexistent', signal, warn: () => {} });
    expect(result).toEqual({ outcome: success, report: null });
  });
});
