// A batch without --out, as a nightly cron job runs it: the recipe's default directory holds the
// last night's batch. It is moved aside (renamed, nothing copied or deleted) and the new batch runs
// in the default directory; a named --out holding a batch is refused. The built CLI, real git.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, gitIn, makeRepo, tempRoot } from '../git/repos.js';
import { cli, ROOT } from '../helpers/cli.js';
import { makePlainFleet, readBatch, RECIPE, tree } from './fleet.js';

afterAll(cleanupRepos);

/** Its started_at as the moved directory's name says it: UTC, no `:` and no milliseconds. */
const stamp = (iso: string) => iso.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');

describe('a new batch into the default directory an earlier batch left', () => {
  it('moves the earlier batch aside, whole, and runs in the default directory; --dry-run and --resume move nothing; a named --out is refused', { timeout: 90_000 }, async () => {
    // A local target (runs in place) and a URL (cloned under checkouts/).
    const fleet = await makePlainFleet(['alpha', 'beta']);
    fs.writeFileSync(fleet.targetsFile, `repos/alpha\nfile://${path.join(fleet.root, 'repos/beta')}\n`);
    const batches = path.join(fleet.root, '.unattended/batches');
    const defaultOut = path.join(batches, 'greet');
    const nightly = (...extra: string[]) => cli(['batch', RECIPE, '--targets', fleet.targetsFile, ...extra], { cwd: fleet.root });

    const first = await nightly();
    expect(first.code).toBe(0);
    expect(first.stderr).not.toContain('earlier batch');
    const earlier = readBatch(defaultOut);
    const before = tree(defaultOut);
    const moved = `${defaultOut}-${stamp(earlier.started_at)}`;

    // The dry run says where it would go, and moves nothing.
    const dry = await nightly('--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`the earlier batch there would be moved to ${moved} first`);
    expect(fs.readdirSync(batches)).toEqual(['greet']);
    expect(tree(defaultOut)).toEqual(before);

    const second = await nightly();
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`unattended batch: the earlier batch in ${defaultOut} was moved to ${moved} (continue it with --resume --out ${moved})`);
    expect(fs.readdirSync(batches).sort()).toEqual(['greet', path.basename(moved)]);
    // The earlier batch, byte for byte (and every file's time), under its new name.
    expect(tree(moved)).toEqual(before);
    const latest = readBatch(defaultOut);
    expect(latest.started_at).not.toBe(earlier.started_at);
    expect(latest.rows.map((row: any) => row.category)).toEqual(['success', 'success']);
    expect(latest.rows.map((row: any) => row.run_id)).not.toContain(earlier.rows[0].run_id);
    // A clone is a whole repository: renamed, it works, its run's edit still in its work tree.
    const [slug] = fs.readdirSync(path.join(moved, 'checkouts'));
    const clone = path.join(moved, 'checkouts', slug!);
    expect(await gitIn(clone, 'status', '--porcelain')).toBe('M README.md');
    await gitIn(clone, 'fsck', '--no-progress');
    expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('hello, friend from beta\n');

    // --resume without --out continues the default directory's batch: nothing moved.
    const resumed = await nightly('--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('resuming: 2 of 2 targets already final, skipped');
    expect(resumed.stderr).not.toContain('moved');
    expect(fs.readdirSync(batches).sort()).toEqual(['greet', path.basename(moved)]);
    expect(readBatch(defaultOut).rows.map((row: any) => row.run_id)).toEqual(latest.rows.map((row: any) => row.run_id));
    // The moved batch resumes where it now is.
    const resumedMoved = await nightly('--resume', '--out', moved);
    expect(resumedMoved.code).toBe(0);
    expect(resumedMoved.stderr).toContain('resuming: 2 of 2 targets already final, skipped');
    expect(readBatch(moved).rows.map((row: any) => row.run_id)).toEqual(earlier.rows.map((row: any) => row.run_id));

    // A name already taken (by the first batch, when both started in the same second, else by
    // someone's directory): the next one, never over it.
    // (A resume's report starts when the resume did.)
    const lastRan = readBatch(defaultOut).started_at;
    const taken = `${defaultOut}-${stamp(lastRan)}`;
    const theirs = !fs.existsSync(taken);
    if (theirs) fs.mkdirSync(taken);
    fs.writeFileSync(path.join(taken, 'mine.txt'), 'not a batch\n');
    const occupied = tree(taken);
    const third = await nightly();
    expect(third.code).toBe(0);
    expect(third.stderr).toContain(`was moved to ${taken}-2 (continue it with --resume --out ${taken}-2)`);
    expect(tree(taken)).toEqual(occupied);
    expect(readBatch(`${taken}-2`).started_at).toBe(lastRan);

    // Named on the command line, the same directory is refused as before, left as it was.
    const kept = tree(defaultOut);
    const named = await nightly('--out', defaultOut);
    expect(named.code).toBe(42);
    expect(named.stderr).toContain(`--out ${defaultOut} already holds an earlier batch (its batch-report.json), which a new batch would replace`);
    expect(tree(defaultOut)).toEqual(kept);
    expect(fs.readdirSync(batches)).toHaveLength(theirs ? 4 : 3);
  });

  it('refuses (exit 42, nothing moved or written) when the earlier batch cannot be renamed, or a run of it is still going on', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha']);
    const batches = path.join(fleet.root, '.unattended/batches');
    const earlierBatch = (dir: string) => {
      fs.mkdirSync(path.join(dir, 'targets/alpha'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'batch-report.md'), '# Batch: an earlier one\n');
    };

    // A recipe whose name fills a file name: the timestamped one is too long for the file system.
    const longName = 'g'.repeat(240);
    for (const file of ['greet.yaml', 'greet-turns.yaml']) fs.copyFileSync(path.join(ROOT, 'test/fixtures/batch', file), path.join(fleet.root, file));
    const recipe = path.join(fleet.root, 'greet.yaml');
    fs.writeFileSync(recipe, fs.readFileSync(recipe, 'utf8').replace('name: greet', `name: ${longName}`));
    const longOut = path.join(batches, longName);
    earlierBatch(longOut);
    const before = tree(longOut);
    const refused = await cli(['batch', recipe, '--targets', fleet.targetsFile], { cwd: fleet.root });
    expect(refused.code).toBe(42);
    expect(refused.stderr).toContain(`the batch directory ${longOut} (the default --out for recipe ${longName}) holds an earlier batch, which could not be moved aside to ${longOut}-`);
    expect(refused.stderr).toContain('ENAMETOOLONG');
    expect(fs.readdirSync(batches)).toEqual([longName]);
    expect(tree(longOut)).toEqual(before);
    expect(fs.readFileSync(path.join(fleet.root, 'repos/alpha/README.md'), 'utf8')).toBe('hello from alpha\n');

    // A run of the earlier batch still going on (its runner.pid, a live process with that --out).
    const defaultOut = path.join(batches, 'greet');
    earlierBatch(defaultOut);
    const runDir = path.join(defaultOut, 'targets/alpha');
    const run = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', '--', '--out', runDir], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(runDir, 'runner.pid'), `${run.pid}\n`);
      const live = tree(defaultOut);
      for (const extra of [[], ['--dry-run']]) {
        const running = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, ...extra], { cwd: fleet.root });
        expect(running.code).toBe(42);
        expect(running.stderr).toContain(`the batch directory ${defaultOut} (the default --out for recipe greet) holds a batch still running (target alpha's run, pid ${run.pid}); it is not moved aside while it runs`);
        expect(running.stdout).toBe('');
        expect(tree(defaultOut)).toEqual(live);
      }
      expect(fs.readdirSync(batches).sort()).toEqual([longName, 'greet'].sort());
    } finally {
      run.kill('SIGKILL');
    }
  });
});

describe('a second batch into a directory whose batch is still running', () => {
  it('is refused, --resume too (a cron job firing again before the last batch ended), and goes on once that batch is gone', { timeout: 90_000 }, async () => {
    const fleet = await makePlainFleet(['alpha']);
    const out = path.join(fleet.root, 'out');
    expect((await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], { cwd: fleet.root })).code).toBe(0);
    // The batch as it leaves itself in its directory while it lives: its pid and start time.
    const batch = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const started = fs.readFileSync(`/proc/${batch.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      fs.writeFileSync(path.join(out, 'batch.pid'), `${batch.pid} ${started}\n`);
      const before = tree(out);
      const refused = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--resume'], { cwd: fleet.root });
      expect(refused.code).toBe(42);
      expect(refused.stderr).toContain(`the batch directory ${out} holds a batch still running (pid ${batch.pid})`);
      expect(tree(out)).toEqual(before);
      // Without --resume: not "an earlier batch … continue that batch with --resume", which the line above refuses.
      const again = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], { cwd: fleet.root });
      expect(again.code).toBe(42);
      expect(again.stderr).toContain(`--out ${out} holds a batch still running (pid ${batch.pid}), which a new batch would replace under it`);
      expect(again.stderr).toContain('wait for it to end (or stop it), then continue it with --resume');
      expect(again.stderr).not.toContain('earlier batch');
      expect(tree(out)).toEqual(before);
    } finally {
      batch.kill('SIGKILL');
      await new Promise((resolve) => batch.once('exit', resolve));
    }
    // Gone (killed, as a SIGKILLed batch leaves its file behind): --resume goes on, and gives the directory up at its end.
    const resumed = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--resume'], { cwd: fleet.root });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fs.existsSync(path.join(out, 'batch.pid'))).toBe(false);
  });
});

describe('targets in one git repository, under a recipe that hands off', () => {
  it('are refused before anything runs (each run would replace the other\'s commit on the one branch); without a hand-off they run', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-monorepo-');
    const mono = await makeRepo(path.join(root, 'mono'), { 'pkg-a/README.md': 'hello from a\n', 'pkg-b/README.md': 'hello from b\n' });
    const targetsFile = path.join(root, 'targets.txt');
    fs.writeFileSync(targetsFile, 'mono/pkg-a\nmono/pkg-b\n');
    for (const file of ['greet.yaml', 'greet-turns.yaml']) fs.copyFileSync(path.join(ROOT, 'test/fixtures/batch', file), path.join(root, file));
    const handsOff = path.join(root, 'greet-branch.yaml');
    fs.writeFileSync(handsOff, `${fs.readFileSync(path.join(root, 'greet.yaml'), 'utf8')}git:\n  branch: unattended/greet\n`);
    const refused = await cli(['batch', handsOff, '--targets', targetsFile, '--out', path.join(root, 'out')], { cwd: root });
    expect(refused.code).toBe(42);
    expect(refused.stderr).toContain(`targets 'mono/pkg-a' and 'mono/pkg-b' are in one git repository (${fs.realpathSync(path.join(mono, '.git'))})`);
    expect(fs.existsSync(path.join(root, 'out'))).toBe(false);
    const plain = await cli(['batch', path.join(root, 'greet.yaml'), '--targets', targetsFile, '--out', path.join(root, 'out2')], { cwd: root });
    expect(plain.code, plain.stderr).toBe(0);
  });
});

describe('a batch --out that cannot be written', () => {
  // Was 'unexpected error: ENOTDIR: not a directory, mkdir …' (exit 1); under /proc, mkdir's
  // recursive mode never returned and the batch spun a core.
  it('is a user error (exit 42) naming the directory, before any target runs', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha']);
    fs.writeFileSync(path.join(fleet.root, 'afile'), '');
    const outs = [path.join(fleet.root, 'afile', 'out')];
    if (fs.existsSync('/proc/self')) outs.push('/proc/no-such-dir/out');
    for (const out of outs) {
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], { cwd: fleet.root, timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(42);
      expect(r.stderr).toMatch(new RegExp(`cannot write the batch outputs to ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\((ENOTDIR|ENOENT)\\)\\nchoose a writable directory with --out DIR`));
    }
  });
});
