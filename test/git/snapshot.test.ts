// Workspace snapshots as git trees: what a run changed, whichever tool changed it, and nothing the
// workspace already had.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { changesBetween, inGitWorkTree, snapshotExcludes, snapshotTree, withDiffs } from '../../src/git/snapshot.js';
import { MAX_REPORTED_DIFF_BYTES } from '../../src/util/unified-diff.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

async function repo(): Promise<string> {
  const dir = tempDir('unattended-snap-');
  fs.writeFileSync(path.join(dir, 'kept.txt'), 'same\n');
  fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\ntwo\n');
  fs.writeFileSync(path.join(dir, 'gone.txt'), 'bye\n');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'ignored/\n');
  const git = (...args: string[]) => execa('git', args, { cwd: dir, env: { HOME: dir, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return dir;
}

describe('workspace snapshots', () => {
  it('knows a git work tree from a plain directory', async () => {
    const dir = await repo();
    fs.mkdirSync(path.join(dir, 'sub'));
    expect(inGitWorkTree(path.join(dir, 'sub'))).toBe(true);
    expect(inGitWorkTree(tempDir())).toBe(false);
    expect(await snapshotTree(tempDir(), [], process.env)).toBeNull();
  });

  it('sees a change behind assume-unchanged and skip-worktree marks, but leaves a sparse checkout\'s absent files alone', async () => {
    const dir = await repo();
    const git = (...args: string[]) => execa('git', args, { cwd: dir, env: { HOME: dir, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
    // Not in the work tree, as a sparse checkout leaves a file: not a deletion of the run's.
    await git('update-index', '--skip-worktree', 'gone.txt');
    fs.rmSync(path.join(dir, 'gone.txt'));
    const before = await snapshotTree(dir, [], process.env);
    await git('update-index', '--skip-worktree', 'edited.txt');
    await git('update-index', '--assume-unchanged', 'kept.txt');
    fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\nTWO\n');
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'changed\n');
    const after = await snapshotTree(dir, [], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['edited.txt', 'modified'],
      ['kept.txt', 'modified'],
    ]);
    // The marks stay in the repository's own index.
    expect((await git('ls-files', '-v')).stdout.split('\n').sort()).toEqual(['H .gitignore', 'S edited.txt', 'S gone.txt', 'h kept.txt']);
  });

  it('reports what changed between two snapshots, not what was dirty before, and leaves the index alone', async () => {
    const dir = await repo();
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'dirty before the run\n');
    const index = fs.readFileSync(path.join(dir, '.git/index'));
    const before = await snapshotTree(dir, ['.out'], process.env);
    expect(before).toMatch(/^[0-9a-f]{40}$/);

    fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\nTWO\n');
    fs.rmSync(path.join(dir, 'gone.txt'));
    fs.writeFileSync(path.join(dir, 'new.txt'), 'hello\n');
    fs.mkdirSync(path.join(dir, 'ignored'));
    fs.writeFileSync(path.join(dir, 'ignored/x.txt'), 'not seen\n');
    fs.mkdirSync(path.join(dir, '.out'));
    fs.writeFileSync(path.join(dir, '.out/report.json'), '{}\n');
    const after = await snapshotTree(dir, ['.out'], process.env);

    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['edited.txt', 'modified'],
      ['gone.txt', 'deleted'],
      ['new.txt', 'added'],
    ]);
    expect(changes[0]!.diff).toBe('--- a/edited.txt\n+++ b/edited.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n');
    // The repository's own index is untouched: git status still sees only the user's state.
    expect(fs.readFileSync(path.join(dir, '.git/index'))).toEqual(index);
  });

  it('excludes an output directory literally: out[1] is left out, out1 is a change like any other', async () => {
    const dir = await repo();
    const before = await snapshotTree(dir, ['out[1]'], process.env);
    fs.mkdirSync(path.join(dir, 'out[1]'));
    fs.writeFileSync(path.join(dir, 'out[1]/report.json'), '{}\n');
    fs.writeFileSync(path.join(dir, 'out1'), 'made by the run\n');
    const after = await snapshotTree(dir, ['out[1]'], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([['out1', 'added']]);
  });

  it('in a repository that ignores .unattended and the output directory (a common .gitignore), still snapshots, and finds the change', async () => {
    const dir = await repo();
    fs.appendFileSync(path.join(dir, '.gitignore'), '.unattended/\nrun-out/\n');
    fs.mkdirSync(path.join(dir, '.unattended/runs/r1'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.unattended/runs/r1/transcript.jsonl'), '{}\n');
    fs.mkdirSync(path.join(dir, 'run-out'));
    const before = await snapshotTree(dir, ['run-out'], process.env);
    expect(before).toMatch(/^[0-9a-f]{40}$/);
    fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\nTWO\n');
    fs.writeFileSync(path.join(dir, 'run-out/report.json'), '{}\n');
    const after = await snapshotTree(dir, ['run-out'], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([['edited.txt', 'modified']]);
  });

  it('excludes an output directory given through a link into the workspace, as git sees it', async () => {
    const dir = await repo();
    const link = path.join(tempDir(), 'to-ws');
    fs.symlinkSync(dir, link);
    const outThroughLink = path.join(link, 'results');
    fs.mkdirSync(outThroughLink);
    expect(snapshotExcludes(dir, outThroughLink)).toEqual(['results']);
    const before = await snapshotTree(dir, snapshotExcludes(dir, outThroughLink), process.env);
    fs.writeFileSync(path.join(outThroughLink, 'transcript.jsonl'), '{}\n');
    const after = await snapshotTree(dir, snapshotExcludes(dir, outThroughLink), process.env);
    expect((await changesBetween(dir, before!, after!, process.env))!).toEqual([]);
  });

  it('a file a changed ignore rule now hides is not reported deleted: it is still there', async () => {
    const dir = await repo();
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine\n');
    fs.writeFileSync(path.join(dir, 'scratch.txt'), 'mine too\n');
    const before = await snapshotTree(dir, [], process.env);
    fs.appendFileSync(path.join(dir, '.git/info/exclude'), 'notes.txt\n');
    fs.rmSync(path.join(dir, 'scratch.txt'));
    const after = await snapshotTree(dir, [], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([['scratch.txt', 'deleted']]);
  });

  it('a file a directory of the same name replaced is reported deleted, as the commit of the change has it', async () => {
    const dir = await repo();
    const before = await snapshotTree(dir, [], process.env);
    fs.rmSync(path.join(dir, 'gone.txt'));
    fs.mkdirSync(path.join(dir, 'gone.txt'));
    fs.writeFileSync(path.join(dir, 'gone.txt', 'inner.txt'), 'now a directory\n');
    const after = await snapshotTree(dir, [], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['gone.txt', 'deleted'],
      ['gone.txt/inner.txt', 'added'],
    ]);
  });

  it('never uses an index file named by the caller environment (a run started from a git hook)', async () => {
    const dir = await repo();
    const foreign = path.join(tempDir(), 'not-an-index');
    fs.writeFileSync(foreign, 'garbage, not a git index\n');
    const env = { ...process.env, GIT_INDEX_FILE: foreign };
    const before = await snapshotTree(dir, [], env);
    expect(before).toMatch(/^[0-9a-f]{40}$/);
    fs.writeFileSync(path.join(dir, 'new.txt'), 'hello\n');
    const after = await snapshotTree(dir, [], env);
    expect(((await changesBetween(dir, before!, after!, env))!).map((c) => c.path)).toEqual(['new.txt']);
    expect(fs.readFileSync(foreign, 'utf8')).toBe('garbage, not a git index\n');
  });

  // The runner's own git runs on the host, outside the sandbox: what a command plants in the
  // repository between two snapshots must not run there. Each planted program leaves a marker.
  describe('runs nothing a command planted in the repository', () => {
    const plant = (dir: string, script: string) => execa('sh', ['-c', script], { cwd: dir, env: { HOME: dir, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
    const filter = (marker: string) => `"touch ${marker}; cat"`;

    it('a config that .git/commondir moves git to, after the first snapshot', async () => {
      const dir = await repo();
      const marker = path.join(tempDir(), 'ran');
      const before = await snapshotTree(dir, [], process.env);
      await plant(
        dir,
        [
          'mkdir .git/evil && cp -r .git/objects .git/refs .git/HEAD .git/config .git/evil/',
          `git config -f .git/evil/config filter.x.clean ${filter(marker)}`,
          'echo evil > .git/commondir',
          "echo '* filter=x' > .gitattributes",
          'echo changed >> edited.txt',
        ].join(' && '),
      );
      const after = await snapshotTree(dir, [], process.env);
      expect(after).toMatch(/^[0-9a-f]{40}$/);
      expect(fs.existsSync(marker)).toBe(false);
      expect(((await changesBetween(dir, before!, after!, process.env))!).map((c) => c.path)).toEqual(['.gitattributes', 'edited.txt']);
    });

    it.each([
      ['', ''],
      [' (a split index: the gitlink in the shared part)', ' && git update-index --split-index'],
    ])("an embedded repository's own clean filter%s (git add runs status inside every gitlink)", async (_, split) => {
      const dir = await repo();
      const marker = path.join(tempDir(), 'ran');
      const before = await snapshotTree(dir, [], process.env);
      await plant(
        dir,
        [
          'git init -q sub && cd sub && echo a > f && git add f && git -c user.email=t@e -c user.name=t commit -qm f',
          `git config filter.x.clean ${filter(marker)}`,
          "echo '* filter=x' > .gitattributes",
          `cd .. && git add sub 2>/dev/null${split}`,
          // Older than the index, then changed: git has to hash it again, through the filter.
          'touch -d "2001-01-01" sub/f',
        ].join(' && '),
      );
      const after = await snapshotTree(dir, [], process.env);
      expect(fs.existsSync(marker)).toBe(false);
      // Recorded all the same, as the commit the embedded repository is at.
      const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: path.join(dir, 'sub') })).stdout.trim();
      const changes = (await changesBetween(dir, before!, after!, process.env))!;
      expect(changes.map((c) => [c.path, c.status])).toEqual([['sub', 'added']]);
      expect(changes[0]!.diff).toContain(`+Subproject commit ${head}`);
      // A gitlink with nothing checked out stays as the index has it.
      fs.rmSync(path.join(dir, 'sub'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'sub'));
      expect((await changesBetween(dir, after!, (await snapshotTree(dir, [], process.env))!, process.env))!.map((c) => c.path)).toEqual([]);
    });

    it("an embedded repository's diff program, whatever diff.submodule the repository asks for", async () => {
      const dir = await repo();
      const marker = path.join(tempDir(), 'ran');
      await plant(dir, 'git config diff.submodule diff && git init -q sub && cd sub && echo a > f && git add f && git -c user.email=t@e -c user.name=t commit -qm f');
      const before = await snapshotTree(dir, [], process.env);
      await plant(dir, `cd sub && git config diff.external "touch ${marker}" && echo b > f && git -c user.email=t@e -c user.name=t commit -qam g`);
      const after = await snapshotTree(dir, [], process.env);
      const changes = (await changesBetween(dir, before!, after!, process.env))!;
      expect(fs.existsSync(marker)).toBe(false);
      expect(changes.map((c) => [c.path, c.status])).toEqual([['sub', 'modified']]);
      expect(changes[0]!.diff).toContain('+Subproject commit');
    });
  });

  it('names files exactly as they are, whatever their bytes: non-ASCII, spaces, tabs, quotes; binary and mode-only changes too', async () => {
    const dir = await repo();
    const names = ['é.txt', 'sp ace/f.txt', 'x\ty.txt', 'q"uote.txt', 'img.bin', 'run.sh'];
    fs.mkdirSync(path.join(dir, 'sp ace'));
    for (const name of names) fs.writeFileSync(path.join(dir, name), name === 'img.bin' ? Buffer.from([0, 1, 2, 0]) : 'one\n');
    const git = (...args: string[]) => execa('git', args, { cwd: dir, env: { HOME: dir, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
    await git('add', '-A');
    await git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'more');
    const before = await snapshotTree(dir, [], process.env);
    for (const name of names.slice(0, 4)) fs.appendFileSync(path.join(dir, name), 'two\n');
    fs.writeFileSync(path.join(dir, 'img.bin'), Buffer.from([0, 9, 9, 0]));
    fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
    fs.writeFileSync(path.join(dir, 'né w.txt'), 'new\n');
    const after = await snapshotTree(dir, [], process.env);
    const changes = (await changesBetween(dir, before!, after!, process.env))!;
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['img.bin', 'modified'],
      ['né w.txt', 'added'],
      ['q"uote.txt', 'modified'],
      ['run.sh', 'modified'],
      ['sp ace/f.txt', 'modified'],
      ['x\ty.txt', 'modified'],
      ['é.txt', 'modified'],
    ]);
    const diffOf = (name: string) => changes.find((c) => c.path === name)!.diff;
    expect(diffOf('img.bin')).toMatch(/^Binary files /);
    expect(diffOf('run.sh')).toBe('old mode 100644\nnew mode 100755\n');
    expect(diffOf('é.txt')).toContain('\n one\n+two\n');
    expect(diffOf('sp ace/f.txt')).toContain('\n+two\n');
    expect(diffOf('né w.txt')).toContain('+new\n');
  });

  it('cuts a huge diff at a whole line, saying so; a patch git cannot give still names every file', async () => {
    const dir = await repo();
    const big = Array.from({ length: 60_000 }, (_, i) => `row ${i} aaaa`).join('\n');
    fs.writeFileSync(path.join(dir, 'data.csv'), `${big}\n`);
    const git = (...args: string[]) => execa('git', args, { cwd: dir, env: { HOME: dir, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
    await git('add', '-A');
    await git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'data');
    const before = await snapshotTree(dir, [], process.env);
    fs.writeFileSync(path.join(dir, 'data.csv'), `${big.replaceAll('aaaa', 'bbbb')}\n`);
    fs.writeFileSync(path.join(dir, 'small.txt'), 'changed\n');
    const changes = (await changesBetween(dir, before!, (await snapshotTree(dir, [], process.env))!, process.env))!;
    const data = changes.find((c) => c.path === 'data.csv')!;
    expect(Buffer.byteLength(data.diff)).toBeLessThan(MAX_REPORTED_DIFF_BYTES + 200);
    expect(data.diff).toMatch(/\n\[diff cut: \d+ bytes in all; git diff shows the rest\]\n$/);
    expect(data.diff.split('\n').slice(0, -2).every((line) => /^(---|\+\+\+|@@|[-+ ]row \d+ (aaaa|bbbb))/.test(line))).toBe(true);
    expect(changes.find((c) => c.path === 'small.txt')!.diff).toContain('+changed');
    // Larger than git's output buffer: no patch, the names all the same.
    expect(withDiffs([{ path: 'data.csv', status: 'modified' }], null)).toEqual([{ path: 'data.csv', status: 'modified', diff: expect.stringMatching(/^\(no diff: .*larger than 64 MB\)\n$/) }]);
  });

  it('records the workspace beside a nested repository with no commit yet (git refuses to add one), leaving only that out', async () => {
    const dir = await repo();
    fs.mkdirSync(path.join(dir, 'fixture'));
    fs.writeFileSync(path.join(dir, 'fixture/f.txt'), 'one\n');
    await execa('git', ['init', '-q'], { cwd: path.join(dir, 'fixture') });
    const before = await snapshotTree(dir, [], process.env);
    expect(before).toMatch(/^[0-9a-f]{40}$/);
    fs.writeFileSync(path.join(dir, 'edited.txt'), 'one\nTWO\n');
    fs.writeFileSync(path.join(dir, 'fixture/f.txt'), 'two\n');
    const changes = (await changesBetween(dir, before!, (await snapshotTree(dir, [], process.env))!, process.env))!;
    expect(changes.map((c) => c.path)).toEqual(['edited.txt']);
  });
});
