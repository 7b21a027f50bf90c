// The git hand-off on real temporary repositories: only what the run changed is committed, on a
// new branch, without switching the user's checkout; refusals, pushes and statuses.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineForHandoff, gitHandoffStep } from '../../src/git/handoff-step.js';
import { RunStop } from '../../src/loop/stop.js';
import { handOff } from '../../src/git/handoff.js';
import { isLocalUrl } from '../../src/git/local-push.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeBareOrigin, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const config = (over: Partial<GitHandoff> = {}): GitHandoff => ({ branch: 'unattended/fix', commitMessage: 'Fix the greeting', push: false, author: null, pullRequest: null, ...over });

/** A repository as a run finds it, its baseline taken as the runner takes it, then the run's changes. */
async function runOn(files: Record<string, string>, before: (repo: string) => void | Promise<void>, run: (repo: string) => void) {
  const root = tempRoot();
  const repo = await makeRepo(path.join(root, 'repo'), files);
  await before(repo);
  const env = isolatedGitEnv(root);
  const outDir = path.join(repo, '.unattended/runs/this');
  const baseline = await baselineForHandoff(config(), repo, outDir, env);
  run(repo);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'report.json'), '{}');
  return { root, repo, env, outDir, baseline };
}

const write = (repo: string, rel: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), content);
};

async function typicalRun() {
  return runOn(
    { 'README.md': 'hello\n', 'old.txt': 'old\n', 'keep.txt': 'keep\n' },
    () => {},
    (repo) => {
      write(repo, 'README.md', 'hello, world\n');
      fs.rmSync(path.join(repo, 'old.txt'));
      write(repo, 'src/new.ts', 'export {};\n');
    },
  );
}

describe('handOff and the ignore rules', () => {
  it('never commits a file that was there before the run, ignored, when the run un-ignores it; the run\'s own changes go in', async () => {
    const { repo, env, outDir, baseline } = await runOn(
      { 'README.md': 'hello\n', '.gitignore': '*.log\n.unattended/\n' },
      (repo) => write(repo, 'secret.log', 'token=abc\n'),
      (repo) => {
        write(repo, '.gitignore', '.unattended/\n');
        write(repo, 'README.md', 'hello, world\n');
      },
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    expect(report.files.sort()).toEqual(['.gitignore', 'README.md']);
    expect(report.left_out).toEqual([{ path: 'secret.log', reason: expect.stringContaining('ignored by git') }]);
    expect(await gitIn(repo, 'ls-tree', '-r', '--name-only', 'unattended/fix')).not.toContain('secret.log');
  });
});

describe('handOff', () => {
  it('commits exactly what the run changed on a new branch, as unattended, and leaves the checkout where it was', async () => {
    const { repo, env, outDir, baseline } = await typicalRun();
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });

    expect(report.error).toBeNull();
    expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(report.commit);
    expect(report.files.sort()).toEqual(['README.md', 'old.txt', 'src/new.ts']);
    expect(await gitIn(repo, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'unattended/fix')).toBe(
      'unattended <unattended@localhost>|unattended <unattended@localhost>|Fix the greeting',
    );
    expect(await gitIn(repo, 'show', 'unattended/fix:README.md')).toBe('hello, world');
    // The user's checkout: still on main, main unmoved, the run's changes still in the work tree, nothing staged.
    expect(await gitIn(repo, 'branch', '--show-current')).toBe('main');
    expect(await gitIn(repo, 'log', '-1', '--format=%s', 'main')).toBe('init');
    expect((await gitIn(repo, 'status', '--porcelain')).split('\n').map((l) => l.trim()).sort()).toEqual(['?? .unattended/', '?? src/', 'D old.txt', 'M README.md']);
    expect(report.pushed).toBe(false);
  });

  it('leaves out what the user had changed or created before the run, and earlier runs\' outputs', async () => {
    const { repo, env, outDir, baseline } = await runOn(
      { 'a.txt': 'a\n', 'mine.txt': 'mine\n' },
      (repo) => {
        write(repo, 'mine.txt', 'my uncommitted work\n');
        write(repo, 'notes.txt', 'my new file\n');
        write(repo, '.unattended/runs/earlier/report.json', '{}');
        write(repo, 'out-earlier/report.json', '{}');
      },
      (repo) => write(repo, 'a.txt', 'a, changed by the run\n'),
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    expect(report.files).toEqual(['a.txt']);
    expect(await gitIn(repo, 'show', 'unattended/fix:mine.txt')).toBe('mine');
    expect(fs.readFileSync(path.join(repo, 'mine.txt'), 'utf8')).toBe('my uncommitted work\n');
  });

  it('commits only the run\'s own change to a file the user had already modified, when it applies alone', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const { repo, env, outDir, baseline } = await runOn(
      { 'f.txt': `${lines.join('\n')}\n`, 'g.txt': 'g\n' },
      (repo) => write(repo, 'f.txt', `${['user edit', ...lines.slice(1)].join('\n')}\n`),
      (repo) => {
        const now = fs.readFileSync(path.join(repo, 'f.txt'), 'utf8').split('\n');
        now[18] = 'run edit';
        write(repo, 'f.txt', now.join('\n'));
        write(repo, 'g.txt', 'user and run\n');
      },
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    const committed = await gitIn(repo, 'show', 'unattended/fix:f.txt');
    expect(committed.split('\n')[0]).toBe('line 1');
    expect(committed.split('\n')[18]).toBe('run edit');
    expect(report.left_out).toEqual([]);
  });

  it('commits the run\'s own change to a file the user had modified byte for byte, when its lines are not UTF-8 (Latin-1)', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const { repo, env, outDir, baseline } = await runOn(
      { 'f.txt': `${lines.join('\n')}\n` },
      (repo) => write(repo, 'f.txt', `${['user edit', ...lines.slice(1)].join('\n')}\n`),
      (repo) => fs.appendFileSync(path.join(repo, 'f.txt'), Buffer.from('caf\xe9\n', 'latin1')),
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    expect(report.files).toEqual(['f.txt']);
    const shown = await execa('git', ['show', 'unattended/fix:f.txt'], { cwd: repo, env, extendEnv: false, encoding: 'buffer', stripFinalNewline: false });
    const committed = Buffer.from(shown.stdout);
    // The run's line as the file holds it (63 61 66 E9), not U+FFFD (EF BF BD); the user's edit stays out.
    expect(committed.subarray(-5).toString('hex')).toBe(Buffer.from('caf\xe9\n', 'latin1').toString('hex'));
    expect(committed.toString('latin1').split('\n')[0]).toBe('line 1');
  });

  it('leaves out (and names) a file whose pre-run changes clash with the run\'s', async () => {
    const { repo, env, outDir, baseline } = await runOn(
      { 'f.txt': 'one\n', 'a.txt': 'a\n' },
      (repo) => write(repo, 'f.txt', 'user\n'),
      (repo) => {
        write(repo, 'f.txt', 'run\n');
        write(repo, 'a.txt', 'b\n');
      },
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    expect(report.files).toEqual(['a.txt']);
    expect(report.left_out).toEqual([{ path: 'f.txt', reason: expect.stringMatching(/uncommitted changes before the run/) }]);
  });

  it('names why each clashing file is left out: untracked before the run, deleted before it, or changed near the run\u2019s lines', async () => {
    const { repo, env, outDir, baseline } = await runOn(
      { 'f.txt': 'one\n', 'gone.txt': 'was here\n', 'a.txt': 'a\n', 'old.txt': 'old\n', 'logo.bin': '\0\x01logo' },
      (repo) => {
        write(repo, 'f.txt', 'user\n');
        write(repo, 'old.txt', 'old, edited\n');
        write(repo, 'logo.bin', '\0\x01logo, edited');
        write(repo, 'untracked.txt', 'mine\n');
        fs.rmSync(path.join(repo, 'gone.txt'));
      },
      (repo) => {
        write(repo, 'f.txt', 'run\n');
        write(repo, 'untracked.txt', 'the run\u2019s\n');
        write(repo, 'gone.txt', 'made again\n');
        write(repo, 'a.txt', 'b\n');
        fs.rmSync(path.join(repo, 'old.txt'));
        write(repo, 'logo.bin', '\0\x01logo, edited by the run');
      },
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.files).toEqual(['a.txt']);
    expect(Object.fromEntries(report.left_out.map((f) => [f.path, f.reason]))).toEqual({
      'f.txt': expect.stringMatching(/uncommitted changes before the run, and the run changed lines at or near them/),
      'gone.txt': expect.stringMatching(/deleted \(not committed\) before the run, and the run made it again/),
      'untracked.txt': expect.stringMatching(/new and not committed before the run \(untracked\)/),
      'old.txt': expect.stringMatching(/uncommitted changes before the run, and the run deleted it/),
      'logo.bin': expect.stringMatching(/binary and had uncommitted changes before the run/),
    });
  });

  it('names the files the report lists that no commit can hold: ignored, or in a nested repository; with nothing else, the hand-off fails (58)', async () => {
    const { repo, env, outDir, baseline } = await runOn(
      { '.gitignore': 'gen/\n.unattended/\n', 'a.txt': 'a\n' },
      async (repo) => {
        write(repo, 'sub/f.txt', 'one\n');
        await gitIn(path.join(repo, 'sub'), 'init', '-q');
      },
      (repo) => {
        write(repo, 'gen/out.js', 'built\n');
        write(repo, 'sub/f.txt', 'two\n');
      },
    );
    const reported = ['gen/out.js', 'sub/f.txt'];
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env, reported });
    expect(report.commit).toBeNull();
    expect(report, JSON.stringify(report)).toMatchObject({ skipped: 'nothing git can commit changed' });
    expect(report.left_out).toEqual([
      { path: 'gen/out.js', reason: expect.stringMatching(/^git ignores it/) },
      { path: 'sub/f.txt', reason: expect.stringMatching(/^it lies in sub\/, a git repository of its own/) },
    ]);
    const success = { status: 'success' as const, exitCode: 0, finalAnswer: 'done', error: null };
    const step = await gitHandoffStep({ config: config(), outcome: success, workspace: repo, outDir, baseline, reported, signal: new AbortController().signal, env });
    expect(step.outcome).toMatchObject({ status: 'handoff_failed', exitCode: 58 });
    expect(step.outcome.error).toMatch(/nothing the run changed could be committed: gen\/out\.js \(git ignores it/);
    // Beside a change git can commit, they are named and the commit goes ahead.
    write(repo, 'a.txt', 'b\n');
    const withMore = await handOff({ config: config(), workspace: repo, outDir, baseline, env, reported: [...reported, 'a.txt'] });
    expect(withMore.files).toEqual(['a.txt']);
    expect(withMore.left_out.map((f) => f.path)).toEqual(['gen/out.js', 'sub/f.txt']);
  });

  it('commits nothing when HEAD moved during the run (a command committed), and says where', async () => {
    const { repo, env, outDir, baseline } = await runOn({ 'a.txt': 'a\n' }, () => {}, (repo) => write(repo, 'a.txt', 'b\n'));
    const before = await gitIn(repo, 'rev-parse', 'HEAD');
    await gitIn(repo, '-c', 'user.email=m@x', '-c', 'user.name=model', 'commit', '-qam', 'the model committed');
    write(repo, 'a.txt', 'c\n');
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.commit).toBeNull();
    expect(report.error).toMatch(new RegExp(`^HEAD moved during the run \\(${before.slice(0, 12)} → [0-9a-f]{12} on main\\): a command of the run committed or checked out`));
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
  });

  it('skips when nothing changed, even when the branch already exists', async () => {
    const { repo, env, outDir, baseline } = await runOn({ 'a.txt': 'a\n' }, (repo) => gitIn(repo, 'branch', 'unattended/fix').then(() => {}), () => {});
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ commit: null, skipped: 'nothing changed', error: null });
  });

  it('refuses a branch that already exists and leaves the changes uncommitted', async () => {
    const { repo, env, outDir, baseline } = await typicalRun();
    await gitIn(repo, 'branch', 'unattended/fix');
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toMatch(/branch 'unattended\/fix' already exists/);
    expect(report.commit).toBeNull();
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(await gitIn(repo, 'rev-parse', 'main'));
    expect(await gitIn(repo, 'status', '--porcelain')).toMatch(/M README\.md/);
  });

  it("never replaces its own earlier branch under a work tree that has it checked out (a reviewer's git worktree)", async () => {
    const pullRequest = { title: 'Fix', body: '', draft: false, labels: [], base: null };
    const first = await typicalRun();
    const made = await handOff({ config: config({ pullRequest }), workspace: first.repo, outDir: first.outDir, baseline: first.baseline, env: first.env });
    expect(made.commit).toMatch(/^[0-9a-f]{40}$/);
    const review = path.join(first.root, 'review');
    await gitIn(first.repo, 'worktree', 'add', '-q', review, 'unattended/fix');
    // The next run of the same recipe, with other work.
    const baseline = await baselineForHandoff(config({ pullRequest }), first.repo, first.outDir, first.env);
    write(first.repo, 'keep.txt', 'keep, changed\n');
    const report = await handOff({ config: config({ pullRequest }), workspace: first.repo, outDir: first.outDir, baseline, env: first.env });
    expect(report.error).toMatch(new RegExp(`branch 'unattended/fix' is checked out in the work tree at ${review}`));
    expect(report.commit).toBeNull();
    // Moved under it, the review checkout showed the new commit's reverse as staged changes.
    expect(await gitIn(first.repo, 'rev-parse', 'unattended/fix')).toBe(made.commit);
    expect(await gitIn(review, 'status', '--porcelain')).toBe('');
  });

  it('runs none of the repository\'s programs: hooks, filters, textconv, fsmonitor', async () => {
    const marks = tempRoot();
    const sentinel = (name: string) => `touch "${marks}/${name}"`;
    const { repo, env, outDir, baseline } = await runOn(
      { 'a.txt': 'a\n', '.gitattributes': '*.txt filter=evil diff=evil\n' },
      async (repo) => {
        fs.mkdirSync(path.join(repo, '.githooks'));
        for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction']) {
          fs.writeFileSync(path.join(repo, '.githooks', hook), `#!/bin/sh\n${sentinel(hook)}\nexit 1\n`, { mode: 0o755 });
        }
        await gitIn(repo, 'config', 'core.hooksPath', '.githooks');
        await gitIn(repo, 'config', 'filter.evil.clean', `${sentinel('clean')}; cat`);
        await gitIn(repo, 'config', 'filter.evil.smudge', `${sentinel('smudge')}; cat`);
        await gitIn(repo, 'config', 'diff.evil.textconv', `${sentinel('textconv')}; cat`);
        await gitIn(repo, 'config', 'core.fsmonitor', sentinel('fsmonitor'));
      },
      (repo) => write(repo, 'a.txt', 'b\n'),
    );
    const report = await handOff({ config: config(), workspace: repo, outDir, baseline, env });
    expect(report.error).toBeNull();
    expect(await gitIn(repo, 'show', 'unattended/fix:a.txt')).toBe('b');
    expect(fs.readdirSync(marks)).toEqual([]);
  });

  it('says so when the workspace is not a git repository', async () => {
    const root = tempRoot();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a');
    const report = await handOff({ config: config(), workspace: root, outDir: path.join(root, 'out'), baseline: null, env: { ...isolatedGitEnv(root), GIT_CEILING_DIRECTORIES: path.dirname(root) } });
    expect(report.error).toMatch(/not inside a git repository/);
  });

  it('commits only inside the workspace when it is a subdirectory, whatever was staged elsewhere', async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'pkg/a.txt': 'a\n', 'other/b.txt': 'b\n' });
    const env = isolatedGitEnv(root);
    const workspace = path.join(repo, 'pkg');
    const baseline = await baselineForHandoff(config(), workspace, path.join(root, 'out'), env);
    write(repo, 'pkg/a.txt', 'a2\n');
    // Meanwhile, outside the workspace, someone changes and stages a file.
    write(repo, 'other/b.txt', 'b2\n');
    await gitIn(repo, 'add', 'other/b.txt');
    const report = await handOff({ config: config(), workspace, outDir: path.join(root, 'out'), baseline, env });
    expect(report.error).toBeNull();
    expect(report.files).toEqual(['pkg/a.txt']);
    expect(await gitIn(repo, 'status', '--porcelain')).toMatch(/^M {2}other\/b\.txt/m);
  });

  it('pushes the branch to origin', async () => {
    const { root, repo, env, outDir, baseline } = await typicalRun();
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ pushed: true, push_error: null, error: null });
    expect(await gitIn(bare, 'rev-parse', 'unattended/fix')).toBe(report.commit);
  });

  // A local origin's receive-pack runs on this machine under the target's own hooks and config,
  // which no `-c` of the runner's reaches; the repository's config names the target (here a bare
  // repository inside the workspace itself, as a command could make one).
  it("runs none of a local origin's programs: its hooks, its alternate refs command", async () => {
    const marks = tempRoot();
    const { repo, env, outDir, baseline } = await typicalRun();
    const bare = path.join(repo, 'evil.git');
    await gitIn(repo, 'init', '-q', '--bare', bare);
    for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout']) {
      fs.writeFileSync(path.join(bare, 'hooks', hook), `#!/bin/sh\ntouch "${marks}/${hook}"\n`, { mode: 0o755 });
    }
    await gitIn(bare, 'config', 'core.alternateRefsCommand', `touch "${marks}/alternate-refs"`);
    fs.writeFileSync(path.join(bare, 'objects/info/alternates'), `${path.join(repo, '.git/objects')}\n`);
    await gitIn(repo, 'remote', 'add', 'origin', `file://${bare}`);
    await gitIn(repo, 'config', 'remote.origin.pushurl', bare);
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ pushed: true, push_error: null, error: null });
    expect(await gitIn(bare, 'rev-parse', 'unattended/fix')).toBe(report.commit);
    expect(fs.readdirSync(marks)).toEqual([]);
  });

  it("says why a push to a local origin failed, first: git's own refusal, not a line about a program of ours", async () => {
    const { root, repo, env, outDir, baseline } = await typicalRun();
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    // A ref named like the branch's directory: the remote cannot make refs/heads/unattended/fix.
    await gitIn(repo, 'push', '-q', bare, 'HEAD:refs/heads/unattended');
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/^origin refused branch 'unattended\/fix' \(failed to update ref\): error: cannot lock ref 'refs\/heads\/unattended\/fix'/);
  });

  it.each([
    ['/srv/repo.git', true],
    ['../repo', true],
    ['file:///srv/repo.git', true],
    ['./a:b', true],
    ['host:repo.git', false],
    ['git@github.com:o/r.git', false],
    ['https://github.com/o/r.git', false],
    ['ssh://host/r.git', false],
    ['ext::sh -c x', false],
  ])('%s is reached through the local transport: %s', (url, local) => {
    expect(isLocalUrl(url)).toBe(local);
  });

  it('pushes nowhere when origin was repointed during the run (a planted commondir or worktree config can do it)', async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    const env = isolatedGitEnv(root);
    const outDir = path.join(root, 'out');
    const baseline = await baselineForHandoff(config({ push: true }), repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
    const elsewhere = path.join(root, 'elsewhere.git');
    await gitIn(root, 'init', '-q', '--bare', elsewhere);
    await gitIn(repo, 'remote', 'set-url', '--push', 'origin', elsewhere);
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/origin changed during the run/);
    expect(await gitIn(elsewhere, 'branch', '--list')).toBe('');
    expect(await gitIn(bare, 'branch', '--list')).toBe('');
    // Unchanged, it pushes.
    await gitIn(repo, 'remote', 'set-url', '--delete', '--push', 'origin', elsewhere);
    const again = await handOff({ config: config({ push: true, branch: 'unattended/again' }), workspace: repo, outDir, baseline, env });
    expect(again).toMatchObject({ pushed: true, push_error: null });
  });

  it('reports a rejected push without losing the commit', async () => {
    const { root, repo, env, outDir, baseline } = await typicalRun();
    await gitIn(repo, 'remote', 'add', 'origin', path.join(root, 'no-such-origin.git'));
    const report = await handOff({ config: config({ push: true }), workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/no-such-origin|does not appear to be a git repository/);
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
    const { repo, env, outDir, baseline } = await typicalRun();
    const outcome = { status, exitCode, finalAnswer: null, error: null };
    const result = await gitHandoffStep({ config: config(), outcome, workspace: repo, outDir, baseline, signal, env });
    expect(result.outcome).toBe(outcome);
    expect(result.report?.skipped).toBe(`the run ended with status ${status}; nothing is committed`);
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
  });

  it('an existing branch is handoff_failed, exit 58', async () => {
    const { repo, env, outDir, baseline } = await typicalRun();
    await gitIn(repo, 'branch', 'unattended/fix');
    const failed = await gitHandoffStep({ config: config(), outcome: success, workspace: repo, outDir, baseline, signal, env });
    expect(failed.outcome).toMatchObject({ status: 'handoff_failed', exitCode: 58, finalAnswer: 'done', errorKind: 'handoff' });
    expect(failed.outcome.error).toMatch(/^git hand-off: branch 'unattended\/fix' already exists/);
  });

  it('a rejected push is handoff_failed, exit 58, and the commit stays', async () => {
    const { root, repo, env, outDir, baseline } = await typicalRun();
    await gitIn(repo, 'remote', 'add', 'origin', path.join(root, 'no-such-origin.git'));
    const result = await gitHandoffStep({ config: config({ push: true }), outcome: success, workspace: repo, outDir, baseline, signal, env });
    expect(result.outcome).toMatchObject({ status: 'handoff_failed', exitCode: 58 });
    expect(result.outcome.error).toMatch(/git push of branch 'unattended\/fix' failed: .*stays on the local branch/);
    expect(result.report?.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('never pushes from a copy of the workspace (workspace_mode: copy), and that is no failure', async () => {
    const root = tempRoot();
    const outDir = path.join(root, 'run');
    const repo = await makeRepo(path.join(outDir, 'workspace'), { 'a.txt': 'a\n' });
    const bare = await makeBareOrigin(repo, path.join(root, 'origin.git'));
    const env = isolatedGitEnv(root);
    const baseline = await baselineForHandoff(config(), repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
    const result = await gitHandoffStep({ config: config({ push: true }), outcome: success, workspace: repo, outDir, baseline, signal, env });
    expect(result.outcome).toBe(success);
    expect(result.report).toMatchObject({ pushed: false, push_error: expect.stringMatching(/workspace_mode: copy/) });
    expect(result.report?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitIn(bare, 'branch', '--list')).toBe('');
  });

  it('stopped during the hand-off: cancelled, keeping the answer the run had, nothing committed', async () => {
    const { repo, env, outDir, baseline } = await typicalRun();
    const controller = new AbortController();
    controller.abort(new RunStop('SIGTERM'));
    const result = await gitHandoffStep({ config: config(), outcome: { ...success, finalAnswer: 'Fixed the greeting.' }, workspace: repo, outDir, baseline, signal: controller.signal, env });
    expect(result.outcome).toMatchObject({ status: 'cancelled', exitCode: 143, finalAnswer: 'Fixed the greeting.' });
    expect(result.report?.commit).toBeNull();
    expect(result.report?.error).toBeTruthy();
  });

  it('asks for nothing when the recipe has no git section', async () => {
    const result = await gitHandoffStep({ config: null, outcome: success, workspace: '/nonexistent', outDir: '/nonexistent', baseline: null, signal });
    expect(result).toEqual({ outcome: success, report: null });
  });
});
