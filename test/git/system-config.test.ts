// The runner's git reads the system config (/etc/gitconfig) as the person's own git does. Here the
// system config is a file GIT_CONFIG_SYSTEM names, which git reads in place of /etc/gitconfig, and
// nothing else: HOME holds no config. Without it, the runner's git was another git: a container's
// `safe.directory = *` let the person's git into a mounted checkout and not the runner's (no change
// tracking, exit 58), and a system-wide `git lfs install` was unknown to the hand-off's `git add`,
// which committed an LFS file's whole content instead of its pointer.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineForHandoff } from '../../src/git/handoff-step.js';
import { handOff } from '../../src/git/handoff.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { cleanupRepos, INIT_AND_COMMIT, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const config: GitHandoff = { branch: 'unattended/sys', commitMessage: 'Run', push: false, author: null, pullRequest: null };

/** A repository made with `systemConfig` as the system's git config, and the environment the run has. */
function repoWithSystemConfig(systemConfig: string, files: Record<string, string>) {
  const root = tempRoot();
  fs.writeFileSync(path.join(root, 'system-gitconfig'), systemConfig);
  // As a person's shell has it: no GIT_CONFIG_NOSYSTEM.
  const env = { PATH: process.env.PATH ?? '', HOME: root, LANG: 'C.UTF-8', GIT_CONFIG_SYSTEM: path.join(root, 'system-gitconfig') };
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(repo, name), content);
  execSync(INIT_AND_COMMIT, { cwd: repo, env });
  return { root, repo, env, outDir: path.join(root, 'out') };
}

const hasGitLfs = (() => {
  try {
    execSync('git-lfs version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasGitLfs) console.warn('SKIPPED: the system-wide git-lfs test needs git-lfs (apt-get install git-lfs)');
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('SKIPPED: the safe.directory test needs root (to give the repository to another user)');

describe("the runner's git reads the system config", () => {
  it.skipIf(!hasGitLfs)('git-lfs installed system-wide: the hand-off commits an LFS file as its pointer, as the person\'s git add does', async () => {
    const lfs = '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n';
    const { repo, env, outDir } = repoWithSystemConfig(lfs, { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n', 'a.txt': 'a\n' });
    const baseline = await baselineForHandoff(config, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'asset.bin'), 'the whole content of a big asset\n');
    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ error: null, files: ['asset.bin'] });
    const committed = execSync('git cat-file -p unattended/sys:asset.bin', { cwd: repo, env, encoding: 'utf8' });
    expect(committed).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize 33\n$/);
  });

  it.skipIf(!isRoot)("a repository owned by another user, which the system config's safe.directory lets in: its changes are recorded and committed", async () => {
    const { repo, env, outDir } = repoWithSystemConfig('[safe]\n\tdirectory = *\n', { 'a.txt': 'a\n' });
    // A checkout mounted into a container: another user's files.
    execSync(`chown -R 65534 '${repo}'`);
    const baseline = await baselineForHandoff(config, repo, outDir, env);
    expect(baseline?.tree).toMatch(/^[0-9a-f]{40}$/);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
    const report = await handOff({ config, workspace: repo, outDir, baseline, env });
    expect(report).toMatchObject({ error: null, files: ['a.txt'] });
    expect(execSync('git show unattended/sys:a.txt', { cwd: repo, env, encoding: 'utf8' })).toBe('b\n');
    // The person's git still sees their checkout as they left it.
    expect(execSync('git branch --show-current', { cwd: repo, env, encoding: 'utf8' })).toBe('main\n');
  });
});
