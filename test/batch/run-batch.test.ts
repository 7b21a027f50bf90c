// runBatch with a stand-in runner (a real child process per target): the token budget and the
// deadline passed down and enforced, crashes contained, interruption, incremental reports.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { execa } from 'execa';
import { childProcessLauncher } from '../../src/batch/launch-run.js';
import { stopLeftoverRunner } from '../../src/batch/leftover-runner.js';
import type { BatchProgress } from '../../src/batch/progress.js';
import { runBatch, type BatchOptions } from '../../src/batch/run-batch.js';
import { runTarget } from '../../src/batch/run-target.js';
import { parseTargets } from '../../src/batch/targets.js';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { ROOT } from '../helpers/cli.js';

afterAll(cleanupRepos);

const FAKE_RUN = path.join(ROOT, 'test/fixtures/batch/fake-run.mjs');

interface Behaviour {
  tokens?: number;
  cost_usd?: number;
  sleep_ms?: number;
  crash?: string;
  status?: string;
  exit_code?: number;
  error?: string;
  error_kind?: string;
  limit?: string;
}

const silent: BatchProgress = { start() {}, event() {}, finish() {}, note() {}, close() {}, clear() {} };

function fleet(behaviours: Behaviour[]) {
  const root = tempRoot('unattended-batch-unit-');
  const names = behaviours.map((b, i) => {
    const dir = path.join(root, `t${i}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'behaviour.json'), JSON.stringify(b));
    return `t${i}`;
  });
  const { targets } = parseTargets(names.join('\n'), root);
  const options = (over: Partial<BatchOptions> = {}): BatchOptions => ({
    recipe: path.join(root, 'recipe.yaml'),
    recipeName: 'fake',
    inputs: { recipe_file: path.join(root, 'recipe.yaml'), recipe_sha256: 'test', params: ['who=world'] },
    targetsFile: path.join(root, 'targets.txt'),
    targets,
    shard: null,
    concurrency: 1,
    outDir: path.join(root, 'out'),
    params: ['who=world'],
    resume: false,
    timeoutMs: null,
    maxTokens: null,
    recipeLimits: { timeoutMs: null, maxTokens: null },
    launch: childProcessLauncher(FAKE_RUN),
    env: { PATH: process.env.PATH },
    signal: new AbortController().signal,
    progress: () => silent,
    ...over,
  });
  const argsOf = (i: number, outDir = path.join(root, 'out')) => JSON.parse(fs.readFileSync(path.join(outDir, 'targets', targets[i]!.slug, 'args.json'), 'utf8')) as string[];
  return { root, targets, options, argsOf };
}

const flagValue = (args: string[], name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);

describe('runBatch', () => {
  it('shares a budget in dollars like the token budget: the remainder passed down, no new start once spent', async () => {
    const f = fleet([{ cost_usd: 0.4 }, { cost_usd: 0.4 }, { cost_usd: 0.4 }, { cost_usd: 0.4 }]);
    const report = await runBatch(f.options({ maxCostUsd: 1 }));
    expect(report.rows.map((r) => [r.category, r.cause, r.cost_usd])).toEqual([
      ['success', null, 0.4],
      ['success', null, 0.4],
      ['success', null, 0.4],
      ['not_run', 'batch cost budget spent', null],
    ]);
    expect([0, 1, 2].map((i) => Number(flagValue(f.argsOf(i), '--max-cost-usd')))).toEqual([1, expect.closeTo(0.6, 9), expect.closeTo(0.2, 9)]);
    expect(report.totals.cost_usd).toBeCloseTo(1.2, 9);
    const md = fs.readFileSync(path.join(f.root, 'out', 'batch-report.md'), 'utf8');
    expect(md).toContain('| cost | $1.2000 |');
  });

  it('splits a budget among the targets there are, not among slots no target fills (8 at a time over 2)', async () => {
    const f = fleet([{ cost_usd: 0.1, tokens: 100, sleep_ms: 300 }, { cost_usd: 0.1, tokens: 100, sleep_ms: 300 }]);
    const report = await runBatch(f.options({ concurrency: 8, maxCostUsd: 1, maxTokens: 1000 }));
    expect(report.rows.map((r) => r.category)).toEqual(['success', 'success']);
    expect([0, 1].map((i) => Number(flagValue(f.argsOf(i), '--max-cost-usd')))).toEqual([0.5, 0.5]);
    expect([0, 1].map((i) => flagValue(f.argsOf(i), '--max-tokens'))).toEqual(['500', '500']);
  });

  it('counts what a run that died without a report had spent (its transcript) against the budget', async () => {
    const f = fleet([{ crash: 'SIGKILL', cost_usd: 0.7, tokens: 700 }, { cost_usd: 0.4 }, { cost_usd: 0.4 }]);
    const report = await runBatch(f.options({ maxCostUsd: 1 }));
    expect(report.rows.map((r) => [r.category, r.cost_usd, r.tokens.total])).toEqual([
      ['infrastructure', 0.7, 700],
      ['success', 0.4, 0],
      ['not_run', null, 0],
    ]);
    expect(Number(flagValue(f.argsOf(1), '--max-cost-usd'))).toBeCloseTo(0.3, 9);
    expect(report.totals.cost_usd).toBeCloseTo(1.1, 9);
  });

  it('stops starting targets once the token budget is spent, passing the remainder down', async () => {
    const f = fleet([{ tokens: 500 }, { tokens: 500 }, { tokens: 500 }, { tokens: 500 }]);
    const report = await runBatch(f.options({ maxTokens: 1200 }));
    expect(report.rows.map((r) => [r.category, r.cause])).toEqual([
      ['success', null],
      ['success', null],
      ['success', null],
      ['not_run', 'batch token budget spent'],
    ]);
    expect([0, 1, 2].map((i) => flagValue(f.argsOf(i), '--max-tokens'))).toEqual(['1200', '700', '200']);
    expect(f.argsOf(0)).toEqual(expect.arrayContaining(['run', '--param', 'who=world', '--output-format', 'stream-json', '--no-stdin']));
    expect(report.totals.tokens.total).toBe(1500);
  });

  it.each([
    ['no recipe limit: two overlapping runs get half each, not the whole remainder twice', null, [400, 400], ['500', '500']],
    ['a recipe limit: runs overlap, and the third gets only what is not promised', 400, [400, 400, 400], ['400', '400', '200']],
  ])('shares the token budget between runs that overlap (%s)', async (_case, recipeMax, spends, grants) => {
    const f = fleet(spends.map((tokens) => ({ tokens, sleep_ms: 150 })));
    const report = await runBatch(f.options({ concurrency: 2, maxTokens: 1000, recipeLimits: { timeoutMs: null, maxTokens: recipeMax } }));
    expect(report.rows.map((r) => r.category)).toEqual(spends.map(() => 'success'));
    expect(spends.map((_, i) => flagValue(f.argsOf(i), '--max-tokens'))).toEqual(grants);
  });

  it("never raises a recipe's own limits above what it says", async () => {
    const f = fleet([{ tokens: 10 }]);
    await runBatch(f.options({ maxTokens: 1_000_000, timeoutMs: 3_600_000, recipeLimits: { timeoutMs: 60_000, maxTokens: 5_000 } }));
    expect(flagValue(f.argsOf(0), '--max-tokens')).toBe('5000');
    expect(flagValue(f.argsOf(0), '--timeout')).toBe('60000ms');
  });

  it("runs again on --resume what the batch's budget cut short, not what the recipe's own limit stopped", async () => {
    const spent = { tokens: 900, status: 'limit', exit_code: 55, limit: 'max_tokens' };
    const f = fleet([spent, spent]);
    const first = await runBatch(f.options({ maxTokens: 1000 }));
    expect(first.rows.map((r) => [r.status, r.category, r.cause])).toEqual([
      ['limit', 'cancelled', 'batch token budget spent'],
      ['limit', 'cancelled', 'batch token budget spent'],
    ]);
    expect(flagValue(f.argsOf(1), '--max-tokens')).toBe('100');
    const own = await runBatch(f.options({ maxTokens: 1000, recipeLimits: { timeoutMs: null, maxTokens: 500 } }));
    expect(own.rows[0]).toMatchObject({ category: 'agent', cause: 'limit: max_tokens' });
  });

  it("calls a run stopped at its share of the batch's budget cut short by the batch, though the recipe's own limit is below the batch's remainder", async () => {
    // Two at a time share 1000 tokens: each is given 500, less than the recipe's 600.
    const spent = { tokens: 500, status: 'limit', exit_code: 55, limit: 'max_tokens', sleep_ms: 150 };
    const f = fleet([spent, spent]);
    const report = await runBatch(f.options({ concurrency: 2, maxTokens: 1000, recipeLimits: { timeoutMs: null, maxTokens: 600 } }));
    expect([0, 1].map((i) => flagValue(f.argsOf(i), '--max-tokens'))).toEqual(['500', '500']);
    expect(report.rows.map((r) => [r.category, r.cause])).toEqual([
      ['cancelled', 'batch token budget spent'],
      ['cancelled', 'batch token budget spent'],
    ]);
  });

  it("--resume runs again every target the batch's deadline or budgets cut short, and keeps what is final", async () => {
    const f = fleet([
      { status: 'limit', exit_code: 55, limit: 'max_tokens' },
      { status: 'limit', exit_code: 53, limit: 'timeout' },
      { status: 'limit', exit_code: 55, limit: 'max_cost_usd' },
      { status: 'limit', exit_code: 53, limit: 'max_turns' },
    ]);
    const limits = { maxTokens: 100_000, timeoutMs: 60_000, maxCostUsd: 10 };
    const first = await runBatch(f.options(limits));
    expect(first.rows.map((r) => [r.category, r.cause])).toEqual([
      ['cancelled', 'batch token budget spent'],
      ['cancelled', 'batch deadline reached'],
      ['cancelled', 'batch cost budget spent'],
      ['agent', 'limit: max_turns'],
    ]);
    // The endpoint is generous now: a target run again succeeds.
    for (const i of [0, 1, 2, 3]) fs.writeFileSync(path.join(f.root, `t${i}`, 'behaviour.json'), '{}');
    const resumed = await runBatch(f.options({ ...limits, resume: true }));
    expect(resumed.rows.map((r) => [r.category, r.cause])).toEqual([
      ['success', null],
      ['success', null],
      ['success', null],
      ['agent', 'limit: max_turns'],
    ]);
    expect(resumed.rows.slice(0, 3).map((r) => r.run_id)).not.toContain(first.rows[0]!.run_id);
    expect(resumed.rows[3]!.run_id).toBe(first.rows[3]!.run_id);
  });

  it('gives each run what remains of the deadline and starts none after it', async () => {
    const f = fleet([{ sleep_ms: 400 }, { sleep_ms: 10 }, { sleep_ms: 10 }]);
    const report = await runBatch(f.options({ timeoutMs: 300 }));
    expect(Number(flagValue(f.argsOf(0), '--timeout')!.replace('ms', ''))).toBeLessThanOrEqual(300);
    expect(report.rows.slice(1).map((r) => r.cause)).toEqual(['batch deadline passed', 'batch deadline passed']);
  });

  it('contains a crashing runner and tells its failure from the agent’s', async () => {
    const f = fleet([{ crash: 'SIGKILL' }, { status: 'limit', exit_code: 53 }, { status: 'failed', exit_code: 1, error: 'model call failed: cannot reach http://127.0.0.1:9/v1 (gave up after 4 attempts)', error_kind: 'network' }, {}]);
    const report = await runBatch(f.options({ concurrency: 2 }));
    expect(report.rows.map((r) => [r.status, r.category, r.cause])).toEqual([
      ['error', 'infrastructure', 'runner crashed (killed by SIGKILL, no report)'],
      ['limit', 'agent', 'limit: budget'],
      ['failed', 'infrastructure', 'endpoint unavailable'],
      ['success', 'success', null],
    ]);
    expect(report.finished).toBe(true);
  });

  it('on interruption stops the running target, starts no other, and says so in the report', async () => {
    const f = fleet([{ sleep_ms: 5_000 }, {}, {}]);
    const controller = new AbortController();
    const started = Date.now();
    const progress: BatchProgress = { ...silent, start: () => setTimeout(() => controller.abort(), 150) };
    const report = await runBatch(f.options({ signal: controller.signal, progress: () => progress, interruptedBy: () => 'SIGINT' }));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(report.rows.map((r) => [r.status, r.category])).toEqual([
      ['cancelled', 'cancelled'],
      ['skipped', 'not_run'],
      ['skipped', 'not_run'],
    ]);
    expect(report).toMatchObject({ finished: false, interrupted: 'SIGINT' });
    const onDisk = JSON.parse(fs.readFileSync(path.join(f.root, 'out', 'batch-report.json'), 'utf8'));
    expect(onDisk.interrupted).toBe('SIGINT');
  });

  it('writes the report when stopped, and a last one marking running targets cancelled when left at once (a second signal)', async () => {
    const f = fleet([{ sleep_ms: 5_000 }, { sleep_ms: 5_000 }, {}]);
    const controller = new AbortController();
    const leaving = new AbortController();
    const onDisk = () => JSON.parse(fs.readFileSync(path.join(f.root, 'out', 'batch-report.json'), 'utf8'));
    let seen: { first: any; last: any } | null = null;
    let started = 0;
    const progress: BatchProgress = {
      ...silent,
      start: () => {
        if (++started < 2) return;
        setTimeout(() => {
          controller.abort();
          const first = onDisk();
          leaving.abort();
          seen = { first, last: onDisk() };
        }, 150);
      },
    };
    await runBatch(f.options({ concurrency: 2, signal: controller.signal, leaving: leaving.signal, progress: () => progress, interruptedBy: () => 'SIGINT' }));
    const { first, last } = seen!;
    expect(first.interrupted).toBe('SIGINT');
    expect(last).toMatchObject({ finished: false, interrupted: 'SIGINT' });
    expect(last.rows.map((r: any) => [r.status, r.category, r.cause])).toEqual([
      ['cancelled', 'cancelled', 'batch interrupted'],
      ['cancelled', 'cancelled', 'batch interrupted'],
      ['skipped', 'not_run', 'batch interrupted'],
    ]);
  });

  it('calls a clone cut off by the batch stopping an interruption, not a failed clone', async () => {
    // A git server that accepts the connection and never answers: the clone hangs until stopped.
    const controller = new AbortController();
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      sockets.push(socket);
      controller.abort();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const root = tempRoot('unattended-clone-stop-');
      const { port } = server.address() as net.AddressInfo;
      const [target] = parseTargets(`git://127.0.0.1:${port}/repo.git`, root).targets;
      const row = await runTarget(target!, { launch: childProcessLauncher(FAKE_RUN), recipe: path.join(root, 'recipe.yaml'), params: [], batchDir: root, timeoutMs: 30_000, maxTokens: null, env: { PATH: process.env.PATH }, signal: controller.signal });
      expect(sockets).toHaveLength(1);
      expect(row).toMatchObject({ status: 'skipped', category: 'cancelled', cause: 'batch interrupted' });
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it.runIf(process.platform === 'linux')('stops a run a killed batch left behind, and never a process that is not one of its runs', async () => {
    const root = tempRoot('unattended-leftover-');
    const outDir = path.join(root, 'targets', 'a');
    fs.mkdirSync(outDir, { recursive: true });
    const spawnIdle = async (marker: string) => {
      const child = execa(process.execPath, ['-e', 'console.log("up"); setInterval(() => {}, 1000)', '--', '--out', marker], { env: { PATH: process.env.PATH }, extendEnv: false, reject: false });
      await new Promise((resolve) => child.stdout!.once('data', resolve));
      // Wrapped: the subprocess is a thenable, and an async function would wait for it to end.
      return { child };
    };
    const { child: stranger } = await spawnIdle(path.join(root, 'elsewhere'));
    fs.writeFileSync(path.join(outDir, 'runner.pid'), `${stranger.pid}\n`);
    await stopLeftoverRunner(outDir);
    expect(() => process.kill(stranger.pid!, 0)).not.toThrow();
    stranger.kill();
    await stranger;

    const { child: leftover } = await spawnIdle(outDir);
    fs.writeFileSync(path.join(outDir, 'runner.pid'), `${leftover.pid}\n`);
    await stopLeftoverRunner(outDir);
    expect((await leftover).signal).toBe('SIGTERM');
  });
});
