// Issue 10 §6: SIGTERM/SIGINT at any moment leaves a report and a run_end event, and no process
// behind. Here the moments the signal tests of issue 3 do not reach: while stdin is read, while an
// MCP server starts, and while MCP servers close after the run (once, and twice in a row). The
// server is a stubborn one (ignores stdin closing and SIGTERM) started through bash, with a helper
// process of its own: only killing its whole process group takes everything down.
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { processesWith } from '../helpers/processes.js';

// Skipped: the stubborn server started through bash stopped answering `initialize` in the test
// runner on the CI machine late in the session that built it (also at earlier commits), and the
// cause was not found in time; the next session must find it and re-enable these.
afterAll(removeTempDirs);

const STUBBORN = path.join(ROOT, 'test/fixtures/mcp/stubborn-server.mjs');
const children: ResultPromise[] = [];
const markers: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const marker of markers.splice(0)) for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
});

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface McpRun {
  child: ResultPromise;
  out: string;
  marker: string;
}

/**
 * A run whose recipe has the stubborn server (through bash) and whose model calls it once. Killed
 * (with whatever carries its marker) after the case, unless `untracked`: the caller then does it.
 */
function startMcpRun(opts: { startDelayMs?: number; stdin?: 'ignore' | 'pipe'; untracked?: boolean } = {}): McpRun {
  const root = tempDir('unattended-shutdown-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
  if (!opts.untracked) markers.push(marker);
  // `; true` keeps bash as the parent: the server is the runner's grandchild, its helper one more down.
  const launch = `exec 2>/dev/null; '${process.execPath}' '${STUBBORN}' ${marker} ${opts.startDelayMs ?? 0}; true`;
  fs.writeFileSync(
    path.join(root, 'recipe.yaml'),
    [
      'version: 1',
      'name: shutdown-test',
      'prompt: ping the server',
      'provider: scripted',
      'script: turns.json',
      'tools: [ls]',
      'mcp_servers:',
      '  stubborn:',
      '    command: bash',
      `    args: ["-c", ${JSON.stringify(launch)}]`,
      '    timeout: 30s',
      'confirmation:',
      '  mode: auto-approve',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(root, 'turns.json'), JSON.stringify({ turns: [{ calls: [{ name: 'stubborn__ping', args: {} }] }, { text: 'All pinged.' }] }));
  const out = path.join(root, 'run');
  const child = execa(process.execPath, [CLI, 'run', path.join(root, 'recipe.yaml'), '--workspace', ws, '--out', out], {
    cwd: ROOT,
    env: baseEnv(),
    extendEnv: false,
    reject: false,
    stdin: opts.stdin ?? 'ignore',
  });
  if (!opts.untracked) children.push(child);
  return { child, out, marker };
}

/** Whether the process has a handler for the signal (its SigCgt mask in /proc). */
function catches(pid: number, signal: number): boolean {
  try {
    const mask = /SigCgt:\s*([0-9a-f]+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & (1n << BigInt(signal - 1))) !== 0n;
  } catch {
    return false;
  }
}

function transcriptHas(out: string, check: (event: Record<string, any>) => boolean): boolean {
  try {
    return fs
      .readFileSync(path.join(out, 'transcript.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .some((line) => check(JSON.parse(line)));
  } catch {
    return false;
  }
}

async function signalAndWait(run: McpRun, signals: NodeJS.Signals[]): Promise<{ code: number | undefined; signal: string | undefined; ms: number }> {
  const sent = performance.now();
  for (const [i, signal] of signals.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    run.child.kill(signal);
  }
  const result = await run.child;
  return { code: result.exitCode, signal: result.signal, ms: performance.now() - sent };
}

/** The final answer is recorded: the loop is over and the runner is closing the MCP server. */
async function untilShuttingDown(run: McpRun): Promise<void> {
  await until('the final answer', () => transcriptHas(run.out, (e) => e.type === 'model_response' && e.text === 'All pinged.'));
  // The server ignores stdin closing: the runner is now inside its 2 s grace for it.
  await new Promise((r) => setTimeout(r, 300));
  expect(run.child.exitCode).toBeNull();
}

function expectStopped(run: McpRun, exitCode: number): Record<string, any> {
  const { report, events } = readRun(run.out);
  expect(report.status).toBe('cancelled');
  expect(report.exit_code).toBe(exitCode);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled', exit_code: exitCode });
  return report;
}

describe('signals at every moment of a run with an MCP server (built CLI)', () => {
  // Without a signal, the run ends only after the server's grace periods (stdin closed, then
  // SIGTERM: about 3 s of waiting). It starts before the other cases and is judged after them, so
  // that wait overlaps their runs instead of adding to this file's time.
  let quiet: McpRun;
  beforeAll(() => {
    quiet = startMcpRun({ untracked: true });
  });
  afterAll(() => {
    if (!quiet) return;
    quiet.child.kill('SIGKILL');
    for (const pid of processesWith(quiet.marker)) process.kill(pid, 'SIGKILL');
  });

  it('SIGTERM while MCP servers close: exit 143 at once, report and run_end, final answer kept, nothing left', async () => {
    const run = startMcpRun();
    await untilShuttingDown(run);
    const { code, ms } = await signalAndWait(run, ['SIGTERM']);
    console.info(`SIGTERM during MCP shutdown to exit: ${Math.round(ms)} ms`);
    expect(code).toBe(143);
    expect(ms).toBeLessThan(5_000);
    const report = expectStopped(run, 143);
    expect(report.final_answer).toBe('All pinged.');
    expect(report.error).toMatch(/SIGTERM while shutting down/);
    await until('no server process left', () => processesWith(run.marker).length === 0, 5_000);
  });

  it('two Ctrl-C in a row while MCP servers close: exit 130, report and run_end, nothing left', async () => {
    const run = startMcpRun();
    await untilShuttingDown(run);
    const { code, signal, ms } = await signalAndWait(run, ['SIGINT', 'SIGINT']);
    console.info(`two SIGINT during MCP shutdown to exit: ${Math.round(ms)} ms`);
    // The first Ctrl-C can end the run within the 50 ms before the second: a second one that lands
    // while Node is already tearing the process down (its signal handlers gone) ends it by SIGINT,
    // which a shell reports as 130 too. What must hold either way: the report and run_end say 130.
    expect(code === 130 || signal === 'SIGINT', `exit code ${code}, signal ${signal}`).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expectStopped(run, 130);
    await until('no server process left', () => processesWith(run.marker).length === 0, 5_000);
  });

  it('SIGINT while the MCP server is still starting: exit 130, report and run_end, nothing left', async () => {
    const run = startMcpRun({ startDelayMs: 20_000 });
    await until('the server helper', () => processesWith(run.marker).length >= 1);
    const { code, ms } = await signalAndWait(run, ['SIGINT']);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(5_000);
    expectStopped(run, 130);
    await until('no server process left', () => processesWith(run.marker).length === 0, 5_000);
  });

  it('SIGTERM while piped stdin is still awaited: exit 143 with a report, before any server or model', async () => {
    const run = startMcpRun({ stdin: 'pipe' });
    // Nothing is ever written to stdin: the runner waits for its first byte (up to 10 s). Before
    // Node has even started the launcher, a signal can only kill it. Node's own handler catches
    // SIGINT and SIGTERM from its first moment (it resets the terminal, then dies by the signal),
    // so a caught SIGTERM says nothing: SIGHUP is caught by the launcher's listeners alone.
    await until('the launcher to hold signals', () => catches(run.child.pid!, 1));
    expect(run.child.exitCode).toBeNull();
    // At once, while the command's code may still be loading (a few hundred ms).
    const { code, ms } = await signalAndWait(run, ['SIGTERM']);
    expect(code).toBe(143);
    expect(ms).toBeLessThan(5_000);
    const { events } = readRun(run.out);
    expect(events.some((e) => e.type === 'model_request')).toBe(false);
    expectStopped(run, 143);
    expect(processesWith(run.marker)).toEqual([]);
  });

  it('without a signal, the stubborn server, its bash wrapper and its helper are all gone when the run exits', async () => {
    const result = await quiet.child;
    expect(result.exitCode).toBe(0);
    const { report, events } = readRun(quiet.out);
    expect(report.status).toBe('success');
    // The server ran (it answered the call), so it was there to be shut down.
    const ping = events.find((e) => e.type === 'tool_result' && e.name === 'stubborn__ping');
    expect(ping?.error_type).toBeNull();
    expect(JSON.stringify(ping?.llm_content)).toContain('pong');
    expect(processesWith(quiet.marker)).toEqual([]);
  });
});
