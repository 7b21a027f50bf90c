// A push origin refuses: the report says what the hand-off's user can do about it. git's own words
// for a branch origin already has ('integrate the remote changes (e.g. git pull ...)') are written
// for a person's checkout, not for a new branch a run made; a server's refusal names its reason.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineForHandoff } from '../../src/git/handoff-step.js';
import { handOff } from '../../src/git/handoff.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { gitDaemon } from './git-daemon.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const config: GitHandoff = { branch: 'unattended/fix', commitMessage: 'Fix', push: true, author: null, pullRequest: null };

/** A repository whose origin is `url`, with the run's change made after its baseline. */
async function changedRepo(root: string, url: string) {
  const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
  await gitIn(repo, 'remote', 'add', 'origin', url);
  const env = isolatedGitEnv(root);
  const outDir = path.join(root, 'out');
  const baseline = await baselineForHandoff(config, repo, outDir, env);
  fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
  return { repo, env, outDir, baseline };
}

describe('a push origin refuses', () => {
  it('a branch of that name on origin already (someone else pushed it): says so and what to do, not "git pull"', async () => {
    const root = tempRoot();
    const bare = path.join(root, 'origin.git');
    await gitIn(root, 'init', '-q', '--bare', bare);
    // Someone else's branch of that name, on origin only.
    const other = await makeRepo(path.join(root, 'other'), { 'theirs.txt': 'theirs\n' });
    await gitIn(other, 'push', '-q', bare, 'main:refs/heads/unattended/fix');
    const theirs = await gitIn(bare, 'rev-parse', 'unattended/fix');
    const { repo, env, outDir, baseline } = await changedRepo(root, bare);

    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/^origin already has a branch 'unattended\/fix'.*delete it on origin, or name another branch/);
    expect(report.push_error).not.toMatch(/git pull|integrate/);
    expect(await gitIn(bare, 'rev-parse', 'unattended/fix')).toBe(theirs);
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(report.commit);
  });

  it("a branch on origin at the commit the run started from: refused, not fast-forwarded with the run's commit", async () => {
    const root = tempRoot();
    const bare = path.join(root, 'origin.git');
    await gitIn(root, 'init', '-q', '--bare', bare);
    const { repo, env, outDir, baseline } = await changedRepo(root, bare);
    // Someone's branch of that name on origin only, at the repository's main: the run's commit is its descendant.
    await gitIn(repo, 'push', '-q', 'origin', 'main:refs/heads/unattended/fix');
    const theirs = await gitIn(bare, 'rev-parse', 'unattended/fix');

    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toBe("origin already has a branch 'unattended/fix': the hand-off's branch is new, so one on origin is neither overwritten nor added to; delete it on origin, or name another branch in the recipe's hand-off section (branch:)");
    expect(await gitIn(bare, 'rev-parse', 'unattended/fix')).toBe(theirs);
    expect(await gitIn(repo, 'rev-parse', 'unattended/fix')).toBe(report.commit);
  });

  it("origin's own refusal (a protected branch's hook) names its reason and the server's words", async () => {
    const root = tempRoot();
    const daemon = await gitDaemon(root);
    try {
      const bare = path.join(root, 'origin.git');
      await gitIn(root, 'init', '-q', '--bare', bare);
      fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\ncat >/dev/null\necho "GH006: Protected branch update failed for refs/heads/unattended/fix." >&2\nexit 1\n', { mode: 0o755 });
      const { repo, env, outDir, baseline } = await changedRepo(root, daemon.url('origin.git'));

      const report = await handOff({ config, workspace: repo, outDir, baseline, env });
      expect(report.pushed).toBe(false);
      expect(report.push_error).toBe("origin refused branch 'unattended/fix' (pre-receive hook declined): GH006: Protected branch update failed for refs/heads/unattended/fix.");
      expect(await gitIn(bare, 'branch', '--list')).toBe('');
    } finally {
      await daemon.close();
    }
  });
});
