// Batch bookkeeping: --resume reruns what an outage cut short (whatever its error says) and keeps
// what is final (an outage in a real child run of the built CLI); after the batch was SIGKILLed, it
// reruns what the batch's deadline or budget cut short, not what the recipe's limit stopped (the
// built CLI and child runs, a run outliving its batch); --resume refuses another recipe or other
// parameters; `batch merge` of part of a sharded fleet says which shards are missing and fails
// (these, and the resume after the outage, run the CLI's entry in this process, the targets' runs
// too: in-process-launcher.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { targetSlug } from '../../src/batch/targets.js';
import { baseEnv, cli, CLI, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeStep } from '../helpers/fake-gemini.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { makePlainFleet, readBatch, RECIPE } from './fleet.js';

const inProcess = (args: string[], opts: { cwd?: string } = {}) => cliInProcess(args, { launchRun: inProcessLauncher, ...opts });

afterAll(cleanupRepos);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const OUTAGE_RECIPE = `version: 1
name: outage
prompt: Say hello.
provider: gemini
model: gemini-test
tools: [read_file]
confirmation: { mode: deny }
limits: { model_retries: 1 }
`;

describe('batch --resume', () => {
  it('runs a target again after an endpoint outage, and keeps the one that finished', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-outage-');
    await makeRepo(path.join(root, 'down'), { 'a.txt': 'a\n' });
    fs.writeFileSync(path.join(root, 'recipe.yaml'), OUTAGE_RECIPE);
    fs.writeFileSync(path.join(root, 'targets.txt'), 'down\n');
    const out = path.join(root, 'out');
    const args = ['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out];
    const endpoint = (url: string) => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url });

    const down = await startFakeGemini([{ status: 503 }, { status: 503 }]);
    try {
      // The built CLI, the run in a child process that exits 1 after its retries.
      const first = await cli(args, { env: endpoint(down.url), timeoutMs: 50_000 });
      expect(first.code).toBe(1);
    } finally {
      await down.close();
    }
    const failed = readBatch(out).rows[0];
    expect(failed).toMatchObject({ status: 'failed', category: 'infrastructure', cause: 'endpoint unavailable' });

    const up = await startFakeGemini([{ text: 'hello' }]);
    try {
      const again = await cliInProcess([...args, '--resume'], { env: endpoint(up.url), launchRun: inProcessLauncher });
      expect(again.code).toBe(0);
      expect(up.requests).toHaveLength(1);
    } finally {
      await up.close();
    }
    const rerun = readBatch(out).rows[0];
    expect(rerun).toMatchObject({ status: 'success', category: 'success' });
    expect(rerun.run_id).not.toBe(failed.run_id);
  });

  const hang: FakeStep = { hang: true };
  const slowAndCostly: FakeStep = { text: 'Reading it.', textChunks: 1, chunkDelayMs: 1500, calls: [{ name: 'read_file', args: { absolute_path: 'a.txt' } }], usage: { input: 5000, output: 10 } };
  // Each waits seconds on a deadline or a slow answer: side by side.
  it.concurrent.each([
    // The model never answers: the run stops at the deadline the batch passed down.
    ["the batch's deadline", '', ['--timeout', '4s'], hang, 'timeout', true],
    // A slow answer that spends more than the batch's budget passed down.
    ["the batch's token budget", '', ['--max-tokens', '1000'], slowAndCostly, 'max_tokens', true],
    // The recipe's own limit is stricter than the batch's: the run had its fair run.
    ["the recipe's own deadline", 'timeout: 2s', ['--timeout', '1h'], hang, 'timeout', false],
  ])('after a SIGKILL while its target ran, --resume judges a run %s stopped as the batch would have', { timeout: 60_000 }, async (_case, recipeLimits, limits, step, limit, rerun) => {
    const root = tempRoot('unattended-killed-');
    await makeRepo(path.join(root, 'slow'), { 'a.txt': 'a\n' });
    fs.writeFileSync(path.join(root, 'recipe.yaml'), recipeLimits ? OUTAGE_RECIPE.replace('limits: { ', `limits: { ${recipeLimits}, `) : OUTAGE_RECIPE);
    fs.writeFileSync(path.join(root, 'targets.txt'), 'slow\n');
    const out = path.join(root, 'out');
    const runDir = path.join(out, 'targets', targetSlug('slow'));
    const args = ['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out, ...limits];
    const endpoint = (url: string) => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url });

    const slow = await startFakeGemini([step]);
    let runner: number | null = null;
    try {
      // The built CLI, its target in a child process; the batch is killed once the run waits on the model.
      const batch = execa(process.execPath, [CLI, ...args], { cwd: ROOT, env: baseEnv(endpoint(slow.url)), extendEnv: false, reject: false, stdin: 'ignore' });
      for (let i = 0; i < 1200 && slow.requests.length === 0; i++) await sleep(25);
      expect(slow.requests).toHaveLength(1);
      batch.kill('SIGKILL');
      await batch;
      runner = Number(fs.readFileSync(path.join(runDir, 'runner.pid'), 'utf8'));
      expect(readBatch(out).rows[0]).toMatchObject({ status: 'running', category: 'pending' });
      // The run outlives its batch and ends as the batch's limit says, leaving its own report.
      for (let i = 0; i < 1200 && alive(runner); i++) await sleep(25);
      expect(alive(runner)).toBe(false);
    } finally {
      if (runner !== null && alive(runner)) process.kill(runner, 'SIGKILL');
      await slow.close();
    }
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'report.json'), 'utf8'))).toMatchObject({ status: 'limit', limit });
    expect(readBatch(out).rows[0]).toMatchObject({ status: 'running', category: 'pending' });

    // As it would be had the batch lived to conclude the row: cut short by the batch, it runs again;
    // stopped by the recipe's own limit, it is final.
    const up = await startFakeGemini([{ text: 'hello' }]);
    try {
      const again = await cli([...args, '--resume'], { env: endpoint(up.url), timeoutMs: 50_000 });
      expect(again.stderr.includes('1 of 1 targets already final')).toBe(!rerun);
      expect(again.code).toBe(rerun ? 0 : 1);
      expect(up.requests).toHaveLength(rerun ? 1 : 0);
    } finally {
      await up.close();
    }
    expect(readBatch(out).rows[0]).toMatchObject(rerun ? { status: 'success', category: 'success' } : { status: 'limit', category: 'agent', cause: 'limit: timeout' });
  });

  it('refuses to resume with other parameters or a changed recipe (exit 42), unless --force', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha']);
    const recipe = path.join(fleet.root, 'greet.yaml');
    const greet = fs
      .readFileSync(RECIPE, 'utf8')
      .replace('script: greet-turns.yaml', `script: ${path.join(path.dirname(RECIPE), 'greet-turns.yaml')}`)
      .replace('prompt: Make the greeting in README.md friendlier.', 'parameters:\n  tone: { type: string, required: true }\nprompt: Make the greeting in README.md {{ tone }}.');
    fs.writeFileSync(recipe, greet);
    const out = path.join(fleet.root, 'out');
    const batch = (args: string[]) => inProcess(['batch', recipe, '--targets', fleet.targetsFile, '--out', out, ...args]);
    expect((await batch(['--param', 'tone=warmer'])).code).toBe(0);

    const otherParams = await batch(['--resume', '--param', 'tone=colder']);
    expect(otherParams.code).toBe(42);
    expect(otherParams.stderr).toMatch(/cannot resume the batch in .*: the parameters were tone=warmer, now tone=colder.*--force/);

    fs.appendFileSync(recipe, '# edited\n');
    const changed = await batch(['--resume', '--param', 'tone=warmer']);
    expect(changed.code).toBe(42);
    expect(changed.stderr).toMatch(/the recipe .*greet\.yaml changed since/);
    // --dry-run checks what the batch checks: it refuses the same resume.
    const dry = await batch(['--resume', '--dry-run', '--param', 'tone=warmer']);
    expect(dry.code).toBe(42);
    expect(dry.stderr).toMatch(/the recipe .*greet\.yaml changed since/);

    // With --force it plans the resume, and says which rows it keeps.
    const plan = await batch(['--resume', '--force', '--dry-run', '--param', 'tone=warmer']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('resume     keeps 1 finished row, runs 0 again');
    expect(plan.stdout).toMatch(/1\. repos\/alpha {2}\(in place; report .*; kept: success\)/);

    const forced = await batch(['--resume', '--force', '--param', 'tone=warmer']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('resuming: 1 of 1 targets already final');
  });
});

describe('batch --max-cost-usd', () => {
  it("refuses once, before any target and in --dry-run too, a budget in dollars for a model without a price (exit 52); --dry-run shows the batch's limits", { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const out = path.join(fleet.root, 'out');
    const unpriced = (extra: string[]) => inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--max-cost-usd', '1', ...extra]);
    for (const extra of [['--dry-run'], []]) {
      const r = await unpriced(extra);
      expect(r.code).toBe(52);
      expect(r.stderr.match(/--max-cost-usd needs the price of model 'scripted'/g)).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
    expect(fs.existsSync(out)).toBe(false);

    const priced = path.join(fleet.root, 'priced.yaml');
    fs.writeFileSync(priced, fs.readFileSync(RECIPE, 'utf8').replace('script: greet-turns.yaml', `script: ${path.join(path.dirname(RECIPE), 'greet-turns.yaml')}\npricing: { input_per_mtok: 1, output_per_mtok: 2 }`));
    const dry = await inProcess(['batch', priced, '--targets', fleet.targetsFile, '--out', out, '--max-cost-usd', '1', '--max-tokens', '5000', '--timeout', '10m', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^batch +--timeout 600 s, --max-tokens 5000, --max-cost-usd 1, shared by the targets$/m);
  });
});

describe('a batch whose provider has no key', () => {
  it('is refused once, before any target and in --dry-run too (exit 41), not failed once per target', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const recipe = path.join(fleet.root, 'keyless.yaml');
    fs.writeFileSync(recipe, OUTAGE_RECIPE);
    const out = path.join(fleet.root, 'out');
    for (const extra of [['--dry-run'], []]) {
      const r = await cliInProcess(['batch', recipe, '--targets', fleet.targetsFile, '--out', out, ...extra], { launchRun: inProcessLauncher, env: { GEMINI_API_KEY: '', GOOGLE_API_KEY: '' } });
      expect(r.code).toBe(41);
      expect(r.stderr.match(/GEMINI_API_KEY is not set/g)).toHaveLength(1);
      // The way on that it names works for a batch too (there is no --provider flag there).
      expect(r.stderr).toContain('provider: scripted in a recipe');
      expect(r.stdout).toBe('');
    }
    expect(fs.existsSync(out)).toBe(false);
  });

  it('but a batch that names no targets, or a targets file that is not there, hears that first (exit 42): the key would not be the only fix', async () => {
    const fleet = await makePlainFleet(['alpha']);
    const recipe = path.join(fleet.root, 'keyless.yaml');
    fs.writeFileSync(recipe, OUTAGE_RECIPE);
    for (const targets of [[], ['--targets', path.join(fleet.root, 'missing.txt')]]) {
      const r = await cliInProcess(['batch', recipe, ...targets, '--dry-run'], { launchRun: inProcessLauncher, env: { GEMINI_API_KEY: '', GOOGLE_API_KEY: '' } });
      expect([r.code, r.stderr]).toEqual([42, expect.stringMatching(targets.length ? /missing\.txt/ : /name the targets: --targets FILE/)]);
      expect(r.stderr).not.toContain('GEMINI_API_KEY');
    }
  });
});

describe('batch stopped by two signals', () => {
  it('exits 130 with a report that says it was interrupted and has no target still running', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const recipe = path.join(fleet.root, 'hang.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: hang\nprompt: Wait.\nprovider: scripted\nscript: hang-turns.yaml\ntools: [shell]\nsandbox: { mode: off }\nconfirmation: { mode: auto-approve }\n');
    fs.writeFileSync(path.join(fleet.root, 'hang-turns.yaml'), 'turns:\n  - calls: [{ name: shell, args: { command: "sleep 30" } }]\n  - text: done\n');
    const out = path.join(fleet.root, 'out');
    // The built CLI, each target in a child process.
    const child = execa(process.execPath, [CLI, 'batch', recipe, '--targets', fleet.targetsFile, '--out', out, '--concurrency', '2'], { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    const transcripts = () => fleet.targets.filter((_, i) => fs.existsSync(path.join(out, 'targets', targetSlug(fleet.targets[i]!), 'transcript.jsonl'))).length;
    for (let i = 0; i < 600 && transcripts() < 2; i++) await sleep(25);
    expect(transcripts()).toBe(2);
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    const report = readBatch(out);
    expect(report).toMatchObject({ finished: false, interrupted: 'SIGINT' });
    // Each row as its run ended, or (still winding down when the batch left) cancelled by the batch.
    for (const row of report.rows) expect([row.status, row.category, row.cause]).toEqual(['cancelled', 'cancelled', expect.stringMatching(/^(batch interrupted|cancelled)$/)]);
    // The runs had their SIGTERM: they end on their own, cancelled.
    const reports = fleet.targets.map((t) => path.join(out, 'targets', targetSlug(t), 'report.json'));
    for (let i = 0; i < 600 && !reports.every((f) => fs.existsSync(f)); i++) await sleep(25);
    expect(reports.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')).status)).toEqual(['cancelled', 'cancelled']);
  });
});

describe('batch merge', () => {
  it('names the missing shards and fails, unless --allow-partial', { timeout: 90_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta', 'delta']);
    const dirs = [1, 2, 3].map((i) => path.join(fleet.root, `shard-${i}`));
    for (const [i, dir] of dirs.entries()) {
      const r = await inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', dir, '--shard', `${i + 1}/3`]);
      expect(r.code).toBe(0);
    }
    const merged = path.join(fleet.root, 'merged');
    const partial = await inProcess(['batch', 'merge', dirs[0]!, dirs[2]!, '--out', merged]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/partial: shard 2\/3 missing/);
    expect(readBatch(merged)).toMatchObject({ finished: false, missing_shards: ['2/3'] });

    expect((await inProcess(['batch', 'merge', dirs[0]!, dirs[2]!, '--out', merged, '--allow-partial'])).code).toBe(0);
    const whole = await inProcess(['batch', 'merge', ...dirs, '--out', merged]);
    expect(whole.code).toBe(0);
    expect(readBatch(merged)).toMatchObject({ finished: true, missing_shards: [] });
  });

  it('refuses an --out it cannot write (exit 42, not an unexpected error), without hanging on /proc', { timeout: 90_000 }, async () => {
    const fleet = await makePlainFleet(['alpha']);
    const shard = path.join(fleet.root, 'shard');
    expect((await inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', shard])).code).toBe(0);
    fs.writeFileSync(path.join(fleet.root, 'afile'), '');
    const outs: Array<[string, string]> = [[path.join(fleet.root, 'afile', 'merged'), 'ENOTDIR']];
    if (fs.existsSync('/proc/self')) outs.push(['/proc/no-such-dir/merged', 'ENOENT']);
    for (const [out, code] of outs) {
      // The built CLI: in process, a hang would stall the worker rather than fail the test.
      const r = await cli(['batch', 'merge', shard, '--out', out], { cwd: fleet.root, timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(42);
      expect(r.stderr).toContain(`cannot write the merged report to ${out} (${code})\nchoose a writable directory with --out DIR`);
    }
  });

  it("refuses to write over a batch's own report, and rewrites an earlier merge", { timeout: 90_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const dirs = [1, 2].map((i) => path.join(fleet.root, `shard-${i}`));
    for (const [i, dir] of dirs.entries()) {
      expect((await inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', dir, '--shard', `${i + 1}/2`])).code).toBe(0);
    }
    const shardReport = fs.readFileSync(path.join(dirs[0]!, 'batch-report.json'), 'utf8');
    // Into one of its own inputs: that shard's record would be gone.
    const intoShard = await inProcess(['batch', 'merge', ...dirs, '--out', dirs[0]!]);
    expect(intoShard.code).toBe(42);
    expect(intoShard.stderr).toMatch(/holds a batch's own record \(its batch-report\.json\)/);
    expect(fs.readFileSync(path.join(dirs[0]!, 'batch-report.json'), 'utf8')).toBe(shardReport);
    // The default --out is the working directory: one a batch ran in is refused the same way.
    const here = await inProcess(['batch', 'merge', ...dirs], { cwd: dirs[1]! });
    expect(here.code).toBe(42);
    expect(readBatch(dirs[1]!).merged_from).toBeUndefined();
    // A directory an earlier merge wrote is brought up to date.
    const merged = path.join(fleet.root, 'merged');
    expect((await inProcess(['batch', 'merge', dirs[0]!, '--out', merged, '--allow-partial'])).code).toBe(0);
    expect((await inProcess(['batch', 'merge', ...dirs, '--out', merged])).code).toBe(0);
    expect(readBatch(merged)).toMatchObject({ finished: true, missing_shards: [] });
  });

  it('expects only the shards the matrix lists: shards the hash leaves empty are not missing', { timeout: 90_000 }, async () => {
    // Split 8 ways, alpha and delta hash to shard 6, beta to 2: the other six are empty.
    const fleet = await makePlainFleet(['alpha', 'beta', 'delta']);
    const matrix = await inProcess(['batch', 'matrix', '--targets', fleet.targetsFile, '--shards', '8']);
    const shards = (JSON.parse(matrix.stdout).include as Array<{ shard: string }>).map((e) => e.shard);
    expect(shards).toEqual(['2/8', '6/8']);
    const dirs = shards.map((s) => path.join(fleet.root, `shard-${s.split('/')[0]}`));
    for (const [i, dir] of dirs.entries()) {
      expect((await inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', dir, '--shard', shards[i]!])).code).toBe(0);
    }
    const merged = path.join(fleet.root, 'merged');
    const whole = await inProcess(['batch', 'merge', ...dirs, '--out', merged]);
    expect(whole.stderr).not.toMatch(/partial/);
    expect(whole.code).toBe(0);
    expect(readBatch(merged)).toMatchObject({ finished: true, missing_shards: [] });
    expect(readBatch(merged).rows).toHaveLength(3);

    // A shard that has targets and no report is still missing.
    const partial = await inProcess(['batch', 'merge', dirs[1]!, '--out', merged]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/partial: shard 2\/8 missing/);
    expect(readBatch(merged)).toMatchObject({ finished: false, missing_shards: ['2/8'] });
  });
});
