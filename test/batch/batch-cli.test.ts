// `unattended batch` over a fleet of real git repositories with the scripted provider: reports,
// exit codes, resume after SIGKILL, shards, matrix and merge. The batch that is killed is the built
// CLI, each target in its own child process; every other batch runs the CLI's entry in this process
// with the targets' runs in this process too (in-process-launcher.ts): what those test is the
// batch's bookkeeping, not the process boundary, and a child run costs ~0.4 s of CPU each.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupRepos, gitIn } from '../git/repos.js';
import { baseEnv, cli, CLI, ROOT, type CliResult } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { copyFleet, makeFleet, makePlainFleet, readBatch, RECIPE, stableRow, tree, type Fleet } from './fleet.js';

afterAll(cleanupRepos);

const batch = (args: string[], env: Record<string, string> = {}) => cliInProcess(['batch', RECIPE, ...args], { env, launchRun: inProcessLauncher });

/** Made once; each case runs on a copy (the batch edits local targets in place). */
let template: Fleet;
/** The whole fleet in one batch, in GitHub Actions: the first case reads it, the shard case compares with it. */
let whole: Fleet;
let wholeOut: string;
let summary: string;
let first: CliResult;
let firstReport: Record<string, any>;

beforeAll(async () => {
  template = await makeFleet();
  whole = copyFleet(template);
  wholeOut = path.join(whole.root, 'out');
  summary = path.join(whole.root, 'summary.md');
  first = await batch(['--targets', whole.targetsFile, '--out', wholeOut], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
  firstReport = readBatch(wholeOut);
}, 60_000);

describe('unattended batch', () => {
  it('runs every target in its own workspace and reports rows, totals and failures by cause', { timeout: 60_000 }, async () => {
    const [fleet, out, r] = [whole, wholeOut, first];
    expect(r.code).toBe(1);

    const report = firstReport;
    expect(report.finished).toBe(true);
    expect(report.rows.map((row: any) => [row.target, row.status, row.category, row.cause])).toEqual([
      ['repos/alpha', 'success', 'success', null],
      ['repos/beta', 'success', 'success', null],
      [fleet.targets[2], 'success', 'success', null],
      ['repos/delta', 'success', 'success', null],
      // Denied calls but the run finished: exit 0, as `unattended run` says, so the row succeeded.
      ['repos/epsilon', 'denied', 'success', null],
      ['repos/missing', 'error', 'infrastructure', 'workspace not found'],
      [fleet.targets[6], 'error', 'infrastructure', 'clone failed'],
    ]);
    const alpha = report.rows[0];
    expect(alpha).toMatchObject({ exit_code: 0, turns: 2, tool_calls: 1, tokens: { input: 220, output: 18, total: 238 }, files_changed: 1 });
    expect(alpha.run_id).toMatch(/^\d{8}T\d{6}Z-/);
    expect(report.rows[4].error).toMatch(/denied.*\.git\/description/);
    expect(report.rows[6].error).toMatch(/no-such-repo/);
    expect(report.totals).toMatchObject({ targets: 7, turns: 10, tool_calls: 5, files_changed: 4 });
    expect(report.totals.by_category).toMatchObject({ success: 5, agent: 0, infrastructure: 2 });
    expect(report.failures).toEqual([
      { category: 'infrastructure', cause: 'clone failed', targets: [fleet.targets[6]] },
      { category: 'infrastructure', cause: 'workspace not found', targets: ['repos/missing'] },
    ]);

    // Local paths ran in place; the URL ran in a shallow clone inside the batch directory.
    expect(fs.readFileSync(path.join(fleet.root, 'repos/alpha/README.md'), 'utf8')).toBe('hello, friend from alpha\n');
    expect(fs.readFileSync(path.join(fleet.root, 'repos/gamma/README.md'), 'utf8')).toBe('hello from gamma\n');
    const clone = path.join(out, 'checkouts', report.rows[2].slug);
    expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('hello, friend from gamma\n');
    expect(await gitIn(clone, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(JSON.parse(fs.readFileSync(path.join(out, alpha.report), 'utf8')).run_id).toBe(alpha.run_id);

    const md = fs.readFileSync(path.join(out, 'batch-report.md'), 'utf8');
    expect(md).toContain('# Batch greet: 5/7 succeeded');
    expect(md).toContain('| ✅ | `repos/epsilon` | denied | 0 |');
    expect(md).toContain('| ✅ | `repos/alpha` | success | 0 | 2 | 1 | 238 |  | 1 |');
    // In Actions: one log group per finished target, and the batch's summary only (not 7 runs').
    expect(r.stderr.match(/^::group::/gm)).toHaveLength(7);
    expect(r.stderr).toMatch(/^::group::✓ repos\/epsilon: denied/m);
    expect(r.stderr.match(/^::endgroup::/gm)).toHaveLength(7);
    expect(fs.readFileSync(summary, 'utf8')).toBe(`${md}\n`);

    // --resume skips every final row; --allow-failures turns the failures into exit 0.
    const again = await batch(['--targets', fleet.targetsFile, '--out', out, '--resume', '--allow-failures']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('resuming: 5 of 7 targets already final, skipped');
    const after = readBatch(out);
    expect(after.rows.map((row: any) => row.run_id)).toEqual(report.rows.map((row: any) => row.run_id));
  });

  it('resumes after SIGKILL: finished targets are not run again, and every target ends', { timeout: 90_000 }, async () => {
    // The built CLI, each target in a child process: the batch process is killed, its runs are not.
    const fleet = copyFleet(template);
    const out = path.join(fleet.root, 'out');
    const args = [CLI, 'batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--concurrency', '1'];
    const child = execa(process.execPath, args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    let before: Record<string, any> | null = null;
    // Generous: two cores shared with other test files can make each run take a second or more.
    for (let i = 0; i < 1200 && !before; i++) {
      await sleep(25);
      try {
        const report = readBatch(out);
        if (report.rows.filter((row: any) => row.category === 'success').length >= 2) before = report;
      } catch {
        // Not written yet, or being renamed into place.
      }
    }
    child.kill('SIGKILL');
    await child;
    expect(before).not.toBeNull();
    const killed = readBatch(out);
    expect(killed.finished).toBe(false);
    expect(killed.rows.some((row: any) => row.category === 'pending')).toBe(true);
    const done = killed.rows.filter((row: any) => row.category === 'success');

    // A run the killed batch left behind is stopped (runner.pid) before its target starts again.
    const r = await batch(['--targets', fleet.targetsFile, '--out', out, '--resume', '--concurrency', '2']);
    expect(r.code).toBe(1);
    const resumed = readBatch(out);
    expect(resumed.finished).toBe(true);
    for (const row of done) expect(resumed.rows[row.index].run_id).toBe(row.run_id);
    expect(resumed.rows.map((row: any) => row.category)).toEqual(['success', 'success', 'success', 'success', 'success', 'infrastructure', 'infrastructure']);
    // Nothing ran twice on a target that had finished: its README was edited exactly once.
    expect(fs.readFileSync(path.join(fleet.root, 'repos/alpha/README.md'), 'utf8')).toBe('hello, friend from alpha\n');
  });

  it('splits the fleet into disjoint, complete shards, prints the matrix, and merges shard reports into the full report', { timeout: 90_000 }, async () => {
    const fleet = copyFleet(template);
    const matrix = await cliInProcess(['batch', 'matrix', '--targets', fleet.targetsFile, '--shards', '3']);
    expect(matrix.code).toBe(0);
    const include = JSON.parse(matrix.stdout).include as Array<{ shard: string }>;
    expect(include.length).toBeGreaterThan(0);
    for (const entry of include) expect(entry.shard).toMatch(/^[123]\/3$/);

    const shardDirs: string[] = [];
    const seen: string[] = [];
    for (const i of [1, 2, 3]) {
      const dir = path.join(fleet.root, `shard-${i}`);
      shardDirs.push(dir);
      const r = await batch(['--targets', fleet.targetsFile, '--out', dir, '--shard', `${i}/3`, '--allow-failures']);
      expect(r.code).toBe(0);
      const report = readBatch(dir);
      expect(report.shard).toBe(`${i}/3`);
      seen.push(...report.rows.map((row: any) => row.target));
      // A shard the matrix leaves out has no targets.
      expect(include.some((e) => e.shard === `${i}/3`)).toBe(report.rows.length > 0);
    }
    expect([...seen].sort()).toEqual([...fleet.targets].sort());
    expect(new Set(seen).size).toBe(seen.length);

    const mergedDir = path.join(fleet.root, 'merged');
    fs.mkdirSync(mergedDir);
    // Two of the fleet's targets fail: the merge fails as the one batch of them would (exit 1),
    // unless --allow-failures, as for batch itself.
    const merge = await cliInProcess(['batch', 'merge', ...shardDirs], { cwd: mergedDir });
    expect(merge.code, merge.stderr).toBe(1);
    expect(merge.stderr).toContain('2 of 7 targets did not succeed (--allow-failures exits 0 all the same)');
    expect((await cliInProcess(['batch', 'merge', ...shardDirs, '--allow-failures'], { cwd: mergedDir })).code).toBe(0);
    const merged = readBatch(mergedDir);
    expect(merged.merged_from).toEqual(shardDirs);
    expect(merged.rows.map((row: any) => row.target)).toEqual(fleet.targets);
    for (const row of merged.rows.filter((r: any) => r.report)) expect(fs.existsSync(path.join(mergedDir, row.report))).toBe(true);

    // The same fleet in one batch (the first case's): the same rows, totals (but time) and failure groups.
    const fullReport = firstReport;
    const comparable = (report: Record<string, any>, fleetRoot: string) =>
      JSON.parse(JSON.stringify(report.rows.map(stableRow)).replaceAll(fleetRoot, '<fleet>'));
    expect(comparable(merged, fleet.root)).toEqual(comparable(fullReport, whole.root));
    expect({ ...merged.totals, duration_ms: 0 }).toEqual({ ...fullReport.totals, duration_ms: 0 });
    expect(merged.failures.map((g: any) => [g.category, g.cause, g.targets.length])).toEqual(fullReport.failures.map((g: any) => [g.category, g.cause, g.targets.length]));
    expect(fs.readFileSync(path.join(mergedDir, 'batch-report.md'), 'utf8')).toContain('# Batch greet: 5/7 succeeded');
  });

  it("refuses a new batch into a directory an earlier batch left (exit 42), leaving it as it was; --resume continues it", { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const out = path.join(fleet.root, 'out');
    expect((await batch(['--targets', fleet.targetsFile, '--out', out])).code).toBe(0);
    const earlier = readBatch(out);
    const before = tree(out);

    // The built CLI, as cron would run it: a new batch (or its dry run) is refused before it writes anything.
    for (const extra of [[], ['--dry-run']]) {
      const again = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, ...extra]);
      expect(again.code).toBe(42);
      expect(again.stderr).toContain(`--out ${out} already holds an earlier batch (its batch-report.json), which a new batch would replace`);
      expect(again.stderr).toMatch(/--resume, or give this one another --out/);
      expect(again.stdout).toBe('');
      expect(tree(out)).toEqual(before);
    }
    // Nothing ran again: each README was edited once.
    expect(fs.readFileSync(path.join(fleet.root, 'repos/alpha/README.md'), 'utf8')).toBe('hello, friend from alpha\n');

    // Its runs are the record too, with or without the report (the recipe's default directory: earlier-batch.test.ts).
    const runsOnly = path.join(fleet.root, 'runs-only');
    fs.cpSync(out, runsOnly, { recursive: true });
    for (const name of ['batch-report.json', 'batch-report.md']) fs.rmSync(path.join(runsOnly, name));
    const orphaned = await batch(['--targets', fleet.targetsFile, '--out', runsOnly]);
    expect(orphaned.code).toBe(42);
    expect(orphaned.stderr).toContain('(its targets)');

    // --resume continues it; a new batch into an empty directory runs.
    const resumed = await batch(['--targets', fleet.targetsFile, '--out', out, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('resuming: 2 of 2 targets already final, skipped');
    expect(readBatch(out).rows.map((row: any) => row.run_id)).toEqual(earlier.rows.map((row: any) => row.run_id));
    const empty = path.join(fleet.root, 'empty');
    fs.mkdirSync(empty);
    expect((await batch(['--targets', fleet.targetsFile, '--out', empty, '--allow-failures'])).code).toBe(0);
    expect(readBatch(empty).rows).toHaveLength(2);
  });

  it.each([
    [['--targets', 'nope.txt'], /cannot read the targets file nope\.txt: there is no such file\ngive --targets FILE, a file with one target a line/],
    [['--targets', 'test/fixtures/batch/greet.yaml', '--shard', '4/3'], /--shard '4\/3' must be i\/n/],
    [['--targets', 'test/fixtures/batch/greet.yaml', '--concurrency', '0'], /--concurrency must be a whole number/],
    [['--targets', 'test/fixtures/batch/greet.yaml', '--timeout', 'soon'], /--timeout: 'soon' is not a duration/],
  ])('refuses bad input before running anything: %j', async (args, message) => {
    const r = await batch(args);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(message);
  });
});
