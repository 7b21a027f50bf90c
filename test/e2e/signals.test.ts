// Issue 3, "Limits and faults": SIGTERM/SIGINT during a long shell call. The built CLI is spawned,
// signalled once the command's processes are seen running, and must exit 143/130 within 5 s with
// report.json (status cancelled) and a whole transcript ending in run_end, leaving no process
// behind. A second signal ends it at once even when the command ignores SIGTERM, the call it cut
// short still answered in the transcript and counted in the report.
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { processesWith } from '../helpers/processes.js';

afterAll(removeTempDirs);

const dirs: string[] = [];
const children: ResultPromise[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface LongRun {
  child: ResultPromise;
  out: string;
  marker: string;
}

/** Starts a run whose one shell call takes long, and waits until `expected` of its processes run. */
async function startLongShell(command: (marker: string) => string, expected: number, flags: string[] = []): Promise<LongRun> {
  const root = tempDir('unattended-signals-');
  dirs.push(root);
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  // Digits only, so it fits in sleep's argument: `sleep 30.<marker>` is unique to this test.
  const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
  const script = path.join(root, 'turns.yaml');
  fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: command(marker), description: 'long' } }] }, { text: 'never' }] }));
  const out = path.join(root, 'run');
  const child = execa(process.execPath, [CLI, 'run', '--provider', 'scripted', '--script', script, '--prompt', 'wait', '--approval', 'auto-approve', '--workspace', ws, '--out', out, ...flags], {
    cwd: ROOT,
    env: baseEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  children.push(child);
  await until(`${expected} processes with marker ${marker}`, () => processesWith(marker).length >= expected);
  return { child, out, marker };
}

async function signalAndWait(run: LongRun, signal: NodeJS.Signals): Promise<{ code: number | undefined; ms: number }> {
  const sent = performance.now();
  run.child.kill(signal);
  const result = await run.child;
  return { code: result.exitCode, ms: performance.now() - sent };
}

function expectCancelledRun(run: LongRun, exitCode: number): void {
  const { report, events } = readRun(run.out);
  expect(report.status).toBe('cancelled');
  expect(report.exit_code).toBe(exitCode);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled', exit_code: exitCode });
  // The shell call was answered (aborted), and no call was started after the signal.
  const results = events.filter((e) => e.type === 'tool_result');
  expect(results).toHaveLength(1);
  expect(results[0]!.error_type).toBe('aborted');
  expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(1);
}

describe('signals during a long shell call (built CLI)', () => {
  it('SIGTERM: exit 143 within 5 s, report cancelled, transcript whole, no process left', async () => {
    // bash, a background sleep of its own, and a foreground sleep: three processes in the group.
    const run = await startLongShell((m) => `sleep 30.${m} & sleep 31.${m}; wait`, 3);
    // Mid-run, the transcript is already whole lines of JSON (a reader may tail it at any time).
    const partial = fs.readFileSync(path.join(run.out, 'transcript.jsonl'), 'utf8');
    expect(partial.endsWith('\n')).toBe(true);
    expect(partial.trim().split('\n').map((line) => JSON.parse(line).type)).toContain('tool_call');
    const { code, ms } = await signalAndWait(run, 'SIGTERM');
    expect(code).toBe(143);
    expect(ms).toBeLessThan(5_000);
    console.info(`SIGTERM to exit: ${Math.round(ms)} ms`);
    expectCancelledRun(run, 143);
    await until('no process left', () => processesWith(run.marker).length === 0, 1_000);
  });

  it('SIGINT: exit 130, report cancelled', async () => {
    const run = await startLongShell((m) => `sleep 30.${m}`, 1); // bash execs a lone command
    const { code, ms } = await signalAndWait(run, 'SIGINT');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(5_000);
    expectCancelledRun(run, 130);
    await until('no process left', () => processesWith(run.marker).length === 0, 1_000);
  });

  it('one SIGTERM is enough within 5 s even when the command ignores SIGTERM (SIGKILL escalation)', async () => {
    const run = await startLongShell((m) => `trap '' TERM; sleep 30.${m} & sleep 31.${m}; wait`, 3);
    const { code, ms } = await signalAndWait(run, 'SIGTERM');
    expect(code).toBe(143);
    expect(ms).toBeLessThan(5_000);
    console.info(`SIGTERM (ignored by the command) to exit: ${Math.round(ms)} ms`);
    expectCancelledRun(run, 143);
    await until('no process left', () => processesWith(run.marker).length === 0, 1_000);
  });

  it('a second signal exits at once, even while the command ignores SIGTERM', async () => {
    // The whole group ignores SIGTERM, so the first signal alone would wait for the kill escalation.
    // Unsandboxed: in the sandbox, bwrap itself dies of the SIGTERM and takes every process with it.
    const run = await startLongShell((m) => `trap '' TERM; sleep 30.${m} & sleep 31.${m}; wait`, 3, ['--sandbox', 'off']);
    run.child.kill('SIGTERM');
    // Let the first signal be handled: the run is now waiting for the group's SIGKILL escalation.
    await new Promise((r) => setTimeout(r, 200));
    expect(run.child.exitCode).toBeNull();
    const { code, ms } = await signalAndWait(run, 'SIGTERM');
    expect(code).toBe(143);
    expect(ms).toBeLessThan(1_000);
    console.info(`second SIGTERM to exit: ${Math.round(ms)} ms`);
    const { report, events } = readRun(run.out);
    expect(report.status).toBe('cancelled');
    expect(events.at(-1)!.type).toBe('run_end');
    // The command ran until the forced exit killed it: the call is answered and counted, as one
    // the first signal's wind-down cut short is, not left out of the report's tool calls.
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: 'shell', error_type: 'aborted' });
    expect(report.tool_calls.total).toBe(1);
    expect(report.tool_calls.errors_by_type).toEqual({ aborted: 1 });
    expect(events.at(-1)!.tool_calls).toBe(1);
    await until('no process left', () => processesWith(run.marker).length === 0, 1_000);
  });

  it('SIGTERM while a model stream hangs: exit 143 at once, no retry', async () => {
    const root = tempDir('unattended-signals-');
    dirs.push(root);
    const fake = await startFakeGemini([{ hang: true, partialText: 'Thinking' }, { text: 'never' }]);
    try {
      const out = path.join(root, 'run');
      const child = execa(process.execPath, [CLI, 'run', '--prompt', 'think', '--workspace', root, '--out', out], {
        cwd: ROOT,
        env: baseEnv({ GEMINI_API_KEY: 'signal-test-key-0123456789', GOOGLE_GEMINI_BASE_URL: fake.url }),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      children.push(child);
      await until('the model request', () => fake.requests.length === 1);
      const sent = performance.now();
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(143);
      expect(performance.now() - sent).toBeLessThan(2_000);
      const { report, events } = readRun(out);
      expect(report.status).toBe('cancelled');
      expect(events.some((e) => e.type === 'retry')).toBe(false);
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });
});
