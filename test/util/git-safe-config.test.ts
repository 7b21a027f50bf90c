// What the runner overrides in a repository's git config: every program-running setting the
// repository sets, none of the user's own (global) settings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALWAYS_SAFE, RUNNER_ONLY, neutralValue, safeGitArgs, safeGitConfig, safeGitEnv } from '../../src/util/git-safe-config.js';
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
    ['interactive.diffFilter', 'evil', ''],
    ['sendemail.smtpServer', '/tmp/evil', ''],
    ['sendemail.toCmd', 'evil', ''],
    ['sendemail.sendmailCmd', 'evil', ''],
    ['man.x.cmd', 'evil', ''],
    ['guitool.x.cmd', 'evil', ''],
    ['gpg.ssh.defaultKeyCommand', 'evil', ''],
    ['instaweb.httpd', 'evil', ''],
    // git-lfs's own: a user's `git lfs install` makes it the filter, and it reads these from the repository.
    ['lfs.extension.x.clean', 'evil %f', 'cat'],
    ['lfs.extension.x.smudge', 'evil %f', 'cat'],
    ['lfs.customtransfer.x.path', 'evil', ''],
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
    ['sendemail.smtpServer', 'smtp.example.org'],
    ['lfs.url', 'https://example.org/r.git/info/lfs'],
    ['lfs.extension.x.priority', '0'],
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

  it('holds core.worktree to the repository itself: git cannot be pointed at another directory', async () => {
    const root = tempRoot();
    const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.writeFileSync(path.join(root, 'elsewhere', 'victim.txt'), 'keep\n');
    await gitIn(repo, 'config', 'core.worktree', path.join(root, 'elsewhere'));
    expect(safeGitConfig(repo)).toContainEqual(['core.worktree', repo]);
    // What git itself then does: the repository's own files, not the other directory's.
    const { execa } = await import('execa');
    const status = await execa('git', ['status', '--porcelain'], { cwd: repo, env: { ...process.env, ...safeGitEnv(repo) } });
    expect(status.stdout).not.toContain('victim.txt');
  });

  it("leaves a submodule's own checkout to it: git in the submodule sees and checks out its files, not the superproject's", async () => {
    const root = tempRoot();
    const lib = await makeRepo(path.join(root, 'lib'), { 's.txt': 'one\n' });
    fs.writeFileSync(path.join(lib, 's.txt'), 'two\n');
    await gitIn(lib, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qam', 'two');
    const repo = await makeRepo(path.join(root, 'repo'), { 'r.txt': 'r\n' });
    await gitIn(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
    await gitIn(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qm', 'sub');
    const { execa } = await import('execa');
    const env = { ...process.env, ...safeGitEnv(repo) };
    // git submodule add wrote core.worktree = ../../../sub: held to the superproject, git there listed
    // the superproject's files as the submodule's, and a checkout wrote s.txt beside r.txt.
    expect((await execa('git', ['status', '--porcelain'], { cwd: path.join(repo, 'sub'), env })).stdout).toBe('');
    await execa('git', ['-C', 'sub', 'checkout', '-q', 'HEAD~1'], { cwd: repo, env });
    expect(fs.readFileSync(path.join(repo, 'sub', 's.txt'), 'utf8')).toBe('one\n');
    expect(fs.existsSync(path.join(repo, 's.txt'))).toBe(false);
  });

  it("still holds a submodule's core.worktree that points outside the work tree", async () => {
    const root = tempRoot();
    const lib = await makeRepo(path.join(root, 'lib'), { 's.txt': 'one\n' });
    const repo = await makeRepo(path.join(root, 'repo'), { 'r.txt': 'r\n' });
    await gitIn(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
    await gitIn(path.join(repo, 'sub'), 'config', 'core.worktree', path.join(root, 'elsewhere'));
    expect(safeGitConfig(repo)).toContainEqual(['core.worktree', repo]);
  });

  it('notices a change in a file the repository config includes (a work-tree file anyone can edit)', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n', 'shared.gitconfig': '[core]\n\tautocrlf = false\n' });
    await gitIn(repo, 'config', 'include.path', '../shared.gitconfig');
    expect(safeGitConfig(repo).some(([key]) => key === 'filter.evil.clean')).toBe(false);
    fs.writeFileSync(path.join(repo, 'shared.gitconfig'), '[filter "evil"]\n\tclean = touch pwned\n');
    expect(safeGitConfig(repo)).toContainEqual(['filter.evil.clean', '']);
  });

  it('notices an included file that did not exist yet', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    await gitIn(repo, 'config', 'includeIf.gitdir:/.path', '../later.gitconfig');
    expect(safeGitConfig(repo).some(([key]) => key === 'diff.x.textconv')).toBe(false);
    fs.writeFileSync(path.join(repo, 'later.gitconfig'), '[diff "x"]\n\ttextconv = evil\n');
    expect(safeGitConfig(repo)).toContainEqual(['diff.x.textconv', '']);
  });

  // Git, not a list of files, says what it reads: anything in .git can change that.
  it('follows a commondir written after the last call to the config git then reads', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    expect(safeGitConfig(repo).some(([key]) => key === 'filter.x.clean')).toBe(false);
    fs.mkdirSync(path.join(repo, '.git/evil'));
    for (const part of ['objects', 'refs', 'HEAD', 'config']) fs.cpSync(path.join(repo, '.git', part), path.join(repo, '.git/evil', part), { recursive: true });
    fs.appendFileSync(path.join(repo, '.git/evil/config'), '[filter "x"]\n\tclean = touch pwned\n');
    fs.writeFileSync(path.join(repo, '.git/commondir'), 'evil\n');
    expect(safeGitConfig(repo)).toContainEqual(['filter.x.clean', '']);
    // The tools' environment too.
    const env = safeGitEnv(repo);
    const pairs = Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]);
    expect(pairs).toContainEqual(['filter.x.clean', '']);
  });

  it('notices an onbranch include that a new HEAD meets (no config file changed)', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n', 'evil.gitconfig': '[diff "x"]\n\ttextconv = evil\n' });
    await gitIn(repo, 'config', 'includeIf.onbranch:evil.path', '../evil.gitconfig');
    expect(safeGitConfig(repo).some(([key]) => key === 'diff.x.textconv')).toBe(false);
    await gitIn(repo, 'symbolic-ref', 'HEAD', 'refs/heads/evil');
    expect(safeGitConfig(repo)).toContainEqual(['diff.x.textconv', '']);
  });

  it("reads a submodule's settings where its commondir moves them, and every file it includes", async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    const modules = path.join(repo, '.git/modules');
    fs.mkdirSync(path.join(modules, 'sub'), { recursive: true });
    fs.mkdirSync(path.join(modules, 'shared'));
    fs.writeFileSync(path.join(modules, 'sub/commondir'), '../shared\n');
    fs.writeFileSync(path.join(modules, 'shared/config'), '[includeIf "onbranch:later"]\n\tpath = more.gitconfig\n');
    expect(safeGitConfig(repo).some(([key]) => key === 'diff.y.textconv')).toBe(false);
    fs.writeFileSync(path.join(modules, 'shared/more.gitconfig'), '[diff "y"]\n\ttextconv = evil\n');
    expect(safeGitConfig(repo)).toContainEqual(['diff.y.textconv', '']);
  });

  it("keeps the runner's own git out of submodules and embedded repositories, not the tools'", async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    await gitIn(repo, 'config', 'diff.submodule', 'diff');
    const args = safeGitArgs(repo).join(' ');
    for (const [key, value] of RUNNER_ONLY) expect(args).toContain(`-c ${key}=${value}`);
    expect(args).toContain('-c diff.submodule=short');
    expect(Object.values(safeGitEnv(repo))).not.toContain('diff.submodule');
  });

  it('notices a config file that changed since the last call', async () => {
    const repo = await makeRepo(path.join(tempRoot(), 'repo'), { 'a.txt': 'a\n' });
    expect(safeGitConfig(repo).some(([key]) => key === 'diff.x.textconv')).toBe(false);
    await gitIn(repo, 'config', 'diff.x.textconv', 'evil');
    expect(safeGitConfig(repo)).toContainEqual(['diff.x.textconv', '']);
  });
});
