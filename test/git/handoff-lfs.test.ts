// The hand-off's push of a branch whose commit holds Git LFS files: their content goes to origin's
// LFS store too (git-lfs's pre-push hook never runs for the hand-off), and only to where the
// committed .lfsconfig sends it. A real git-lfs, set up as `git lfs install` does, and a bare origin
// reached by path (git-lfs stores objects in origin.git/lfs/objects for such a remote).
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineForHandoff } from '../../src/git/handoff-step.js';
import { handOff } from '../../src/git/handoff.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeBareOrigin, tempRoot } from './repos.js';

afterAll(cleanupRepos);

function hasGitLfs(): boolean {
  try {
    execSync('git-lfs version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const lfs = hasGitLfs();
// Visible in the output: a skipped test must never pass silently.
if (!lfs) console.warn('SKIPPED: the hand-off LFS tests need git-lfs (apt-get install git-lfs)');

const config: GitHandoff = { branch: 'unattended/lfs', commitMessage: 'New asset', push: true, author: null, pullRequest: null };

/** An LFS-tracking repository with a bare origin holding main (and its LFS objects), as a user's clone is. */
async function lfsRepository() {
  const root = tempRoot();
  fs.writeFileSync(path.join(root, '.gitconfig'), '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n');
  const env = isolatedGitEnv(root);
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  fs.writeFileSync(path.join(repo, '.gitattributes'), '*.bin filter=lfs diff=lfs merge=lfs -text\n');
  fs.writeFileSync(path.join(repo, 'old.bin'), 'old asset\n');
  // makeRepo's commit runs under HOME=repo: git-lfs's filter comes from HOME, so the first commit is made here.
  execSync('git init -q -b main && git add -A && git -c user.email=t@example.com -c user.name=test commit -qm init', { cwd: repo, env });
  const origin = await makeBareOrigin(repo, path.join(root, 'origin.git'));
  execSync('git push -q origin main', { cwd: repo, env, stdio: 'ignore' });
  return { root, repo, env, origin };
}

/** The oid of the LFS pointer a commit holds for `file`. */
async function oidIn(repo: string, rev: string): Promise<string> {
  return (await gitIn(repo, 'show', rev)).match(/oid sha256:([0-9a-f]{64})/)![1]!;
}

const storedIn = (bare: string, oid: string) => fs.existsSync(path.join(bare, 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid));

describe.skipIf(!lfs)('the hand-off of LFS files', () => {
  it("uploads the content of the branch's LFS files with the push, so a clone of the branch has it", async () => {
    const { repo, env, origin } = await lfsRepository();
    const outDir = path.join(repo, '.unattended/runs/this');
    const baseline = await baselineForHandoff(config, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'new.bin'), 'the run made this asset\n');
    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ pushed: true, push_error: null, error: null, files: ['new.bin'] });
    const oid = await oidIn(repo, 'unattended/lfs:new.bin');
    // Before: the pointer was pushed, its object never, and a clone said 'remote missing object'.
    expect(storedIn(origin, oid)).toBe(true);
    expect(await gitIn(origin, 'rev-parse', 'unattended/lfs')).toBe(report.commit);
  });

  it('uploads nothing, and pushes no branch, when the run rewrote .lfsconfig to send LFS objects elsewhere', async () => {
    const { root, repo, env, origin } = await lfsRepository();
    const elsewhere = path.join(root, 'elsewhere.git');
    execSync(`git init -q --bare ${elsewhere}`, { env });
    const outDir = path.join(repo, '.unattended/runs/this');
    const baseline = await baselineForHandoff(config, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'new.bin'), 'the run made this asset\n');
    fs.writeFileSync(path.join(repo, '.lfsconfig'), `[lfs]\n\turl = file://${elsewhere}\n`);
    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report.pushed).toBe(false);
    expect(report.push_error).toMatch(/\.lfsconfig is not as HEAD has it/);
    expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
    const oid = await oidIn(repo, 'unattended/lfs:new.bin');
    expect(storedIn(elsewhere, oid)).toBe(false);
    expect(await gitIn(origin, 'branch', '--list')).toBe('main');
  });
});
