// What the runner overrides in a repository's git config: every program-running setting the
// repository sets, none of the user's own (global) settings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALWAYS_SAFE, neutralValue, safeGitConfig } from '../../src/util/git-safe-config.js';
import { cleanupRepos, gitIn, makeRepo, tempRoot } from '../git/repos.js';

afterAll(cleanupRepos);

describe('neutralValue', () => {
  it.each([
    ['filter.x.clean', 'evil', ''],
    ['filter.x.smudge', 'evil', ''],
    ['filter.x.process', 'evil', ''],
    ['filter.x.required', 'true', 'false'],
    ['diff.x.textconv', 'evil', ''],
    ['diff.x.command', 'evil', ''],
    ['diff.external', 'evil', ''],
    ['merge.x.driver', 'evil %A', ''],
    ['alias.st', '!evil', ''],
    ['submodule.s.update', '!evil', 'checkout'],
    ['core.sshCommand', 'evil', 'ssh'],
    ['core.askPass', 'evil', ''],
    ['core.editor', 'evil', 'true'],
    ['sequence.editor', 'evil', 'true'],
    ['gpg.program', 'evil', 'false'],
    ['gpg.ssh.program', 'evil', 'false'],
    ['difftool.x.cmd', 'evil', ''],
    ['trailer.x.command', 'evil', ''],
    ['pager.log', 'evil', 'cat'],
  ])('%s=%s becomes %j', (key, value, expected) => {
    expect(neutralValue(key, value)).toBe(expected);
  });

  it.each([
    ['alias.st', 'status --short'],
    ['submodule.s.update', 'rebase'],
    ['filter.lfs.clean', 'git-lfs clean -- %f'],
    ['filter.lfs.process', 'git-lfs filter-process'],
    ['user.name', 'someone'],
    ['core.autocrlf', 'true'],
    ['remote.origin.url', 'https://example.org/r.git'],
  ])('%s=%s is left alone', (key, value) => {
    expect(neutralValue(key, value)).toBeNull();
  });
});

describe('safeGitConfig', () => {
  it('is the fixed settings alone outside a repository', () => {
    expect(safeGitConfig(tempRoot())).toEqual(ALWAYS_SAFE);
  });

  it("overrides the repository's settings and its submodules', never the user's global ones", async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
    await gitIn(repo, 'config', 'filter.evil.clean', 'evil');
    await gitIn(repo, 'config', 'credential.helper', '!evil');
    fs.mkdirSync(path.join(repo, '.git/modules/sub'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git/modules/sub/config'), '[diff "s"]\n\ttextconv = evil\n');
    fs.writeFileSync(path.join(root, '.gitconfig'), '[filter "mine"]\n\tclean = my-tool\n[credential]\n\thelper = store\n');
    const previousHome = process.env.HOME;
    process.env.HOME = root;
    try {
      const pairs = safeGitConfig(repo);
      expect(pairs.slice(0, ALWAYS_SAFE.length)).toEqual(ALWAYS_SAFE);
      expect(pairs).toContainEqual(['filter.evil.clean', '']);
      expect(pairs).toContainEqual(['diff.s.textconv', '']);
      expect(pairs.some(([key]) => key === 'filter.mine.clean')).toBe(false);
      // The repository's helper is dropped (an empty value resets the list), the user's is kept.
      expect(pairs.filter(([key]) => key === 'credential.helper')).toEqual([
        ['credential.helper', ''],
        ['credential.helper', 'store'],
      ]);
    } finally {
      process.env.HOME = previousHome;
    }
  });

  it('notices a config file that changed since the last call', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    expect(safeGitConfig(repo).some(([key]) => key === 'diff.x.textconv')).toBe(false);
    await gitIn(repo, 'config', 'diff.x.textconv', 'evil');
    expect(safeGitConfig(repo)).toContainEqual(['diff.x.textconv', '']);
  });
});
