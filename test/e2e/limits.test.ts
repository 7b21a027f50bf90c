// Issue 3, "Limits and faults": every limit ends the run with its exit code and names itself in the
// report; large tool output reaches the model as head and tail, with the whole of it saved.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, ROOT, tempDir, type CliResult, type RunFiles } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { processesWith } from '../helpers/processes.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface Case {
  root: string;
  ws: string;
  out: string;
}

function newCase(): Case {
  const root = tempDir('unattended-limits-');
  dirs.push(root);
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), '# limits\n');
  return { root, ws, out: path.join(root, 'run') };
}

/**
 * Runs the scripted model on `turns` (a list, written as JSON, which is YAML too), through the CLI's
 * entry in process, or with `builtCli` through the built CLI.
 */
async function runScripted(c: Case, turns: unknown[], flags: string[], { builtCli = false } = {}): Promise<CliResult & RunFiles & { ms: number }> {
  const script = path.join(c.root, 'turns.yaml');
  fs.writeFileSync(script, JSON.stringify({ turns }));
  const started = performance.now();
  const r = await (builtCli ? cli : cliInProcess)(['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--workspace', c.ws, '--out', c.out, ...flags]);
  const ms = performance.now() - started;
  return { ...r, ...readRun(c.out), ms };
}

describe('limits through the built CLI', () => {
  it('max_tool_calls: the call past the budget is not run; exit 55, limit max_tool_calls', async () => {
    const c = newCase();
    const ls = { name: 'ls', args: { path: '.' } };
    const run = await runScripted(c, [{ calls: [ls, { name: 'glob', args: { pattern: '*' } }] }, { calls: [{ name: 'read_file', args: { absolute_path: '{{workspace}}/README.md' } }] }, { text: 'never' }], [
      '--max-tool-calls',
      '2',
    ]);
    expect(run.code).toBe(55);
    expect(run.report.status).toBe('limit');
    expect(run.report.limit).toBe('max_tool_calls');
    expect(run.report.tool_calls.total).toBe(2);
    const third = run.events.find((e) => e.type === 'tool_result' && e.name === 'read_file');
    expect(third!.llm_content).toMatch(/not run: the tool-call limit/);
    expect(run.events.at(-1)!.type).toBe('run_end');
  });

  it('max_tokens: exit 55, limit max_tokens', async () => {
    const c = newCase();
    const run = await runScripted(
      c,
      [{ calls: [{ name: 'ls', args: {} }], usage: { input: 400, output: 20 } }, { calls: [{ name: 'glob', args: { pattern: '*' } }], usage: { input: 600, output: 20 } }, { text: 'never' }],
      ['--max-tokens', '800'],
    );
    expect(run.code).toBe(55);
    expect(run.report.status).toBe('limit');
    expect(run.report.limit).toBe('max_tokens');
    expect(run.report.usage.total).toBe(1040);
    expect(run.report.tool_calls.total).toBe(1); // the turn over budget asks for nothing more
  });

  it('timeout: the wall clock stops a long shell call, exit 55, limit timeout, and the command is gone', async () => {
    const c = newCase();
    const marker = `${30 + Math.floor(Math.random() * 1000)}.${process.pid}`; // `sleep 30.4242` is unique enough
    const run = await runScripted(c, [{ calls: [{ name: 'shell', args: { command: `sleep ${marker}`, description: 'wait' } }] }, { text: 'never' }], [
      '--approval',
      'auto-approve',
      '--timeout',
      '1500ms',
    ], { builtCli: true });
    expect(run.code).toBe(55);
    expect(run.report.status).toBe('limit');
    expect(run.report.limit).toBe('timeout');
    expect(run.ms).toBeLessThan(8_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect(run.events.at(-1)!.type).toBe('run_end');
  });

  it('timeout: a run that ended before its wall-clock limit does not reach it while its MCP servers close (success, no limit)', async () => {
    // A server that ignores stdin closing and SIGTERM: closing it takes the runner's whole grace
    // (about 3 s after the final answer). The limit must come inside that window, whatever the
    // start (the CLI, the server) takes on a busy machine: a first run without a limit measures
    // when the answer comes and how long the close takes, and the limit falls halfway through it.
    const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const config = { mcpServers: { stubborn: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/mcp/stubborn-server.mjs'), marker] } } };
    const at = (e: Record<string, unknown>) => Date.parse(String(e.ts));
    try {
      const first = await runScripted(newCase(), [{ text: 'Done.' }], ['--mcp-config', JSON.stringify(config)], { builtCli: true });
      // Its answer came the close's time before its end: the limit comes halfway through the close.
      const closeMs = at(first.events.at(-1)!) - at(first.events.find((e) => e.type === 'model_response')!);
      expect(closeMs).toBeGreaterThan(2000);
      const limitMs = Math.round(first.ms - closeMs / 2);
      const run = await runScripted(newCase(), [{ text: 'Done.' }], ['--mcp-config', JSON.stringify(config), '--timeout', `${limitMs}ms`], { builtCli: true });
      expect(run.ms).toBeGreaterThan(limitMs); // the limit's time did come before the run exited
      expect(run.code, run.stderr).toBe(0);
      expect(run.report).toMatchObject({ status: 'success', exit_code: 0, limit: null, final_answer: 'Done.' });
      expect(run.events.filter((e) => e.type === 'limit')).toEqual([]);
      expect(run.reportMd).not.toMatch(/timeout/i);
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);

  it('timeout: a limit met while git records what the run changed ends it limit (exit 55), keeping its answer, not success beside limit "timeout"', async () => {
    const c = newCase();
    fs.writeFileSync(path.join(c.ws, '.gitignore'), '');
    execFileSync('git', ['init', '-q'], { cwd: c.ws });
    // The model's one command makes 30,000 files, then waits until a second before the limit: its
    // answer comes just before it, and git's record of 30,000 new files (seconds) is under way when it comes.
    const limitMs = 9_000;
    const deadlineNs = (BigInt(Date.now() + limitMs - 1_000) * 1_000_000n).toString();
    const command = `mkdir many && cd many && seq 1 30000 | xargs touch && while [ "$(date +%s%N)" -lt ${deadlineNs} ]; do sleep 0.05; done; echo made`;
    const run = await runScripted(c, [{ calls: [{ name: 'shell', args: { command } }] }, { text: 'Made them.' }], ['--approval', 'auto-approve', '--timeout', `${limitMs}ms`], { builtCli: true });
    const answered = run.events.findIndex((e) => e.type === 'model_response' && e.text === 'Made them.');
    const limit = run.events.findIndex((e) => e.type === 'limit');
    expect(answered, 'the answer came before the limit').toBeGreaterThan(-1);
    expect(limit).toBeGreaterThan(answered);
    expect(run.code, run.stderr).toBe(55);
    expect(run.report).toMatchObject({ status: 'limit', exit_code: 55, limit: 'timeout', final_answer: 'Made them.' });
    expect(run.report.error).toMatch(/^limit reached: timeout \(9s\) while shutting down \(the run had ended with status success\)$/);
    expect(run.events.at(-1)).toMatchObject({ type: 'run_end', status: 'limit', exit_code: 55 });
  }, 60_000);

  it('tool_timeout clamps a longer timeout the model asks for', async () => {
    const c = newCase();
    const recipe = path.join(c.root, 'recipe.yaml');
    fs.writeFileSync(recipe, 'version: 1\nconfirmation: {mode: auto-approve}\ntools: [shell]\nlimits: {tool_timeout: 500ms}\n');
    const script = path.join(c.root, 'turns.yaml');
    const marker = `${40 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: `sleep ${marker}`, timeout_ms: 600_000 } }] }, { text: 'It timed out.' }] }));
    const r = await cliInProcess(['run', recipe, '--provider', 'scripted', '--script', script, '--prompt', 'go', '--workspace', c.ws, '--out', c.out]);
    expect(r.code).toBe(0);
    const result = readRun(c.out).events.find((e) => e.type === 'tool_result')!;
    expect(result.error_type).toBe('timeout');
    expect(result.llm_content).toMatch(/timed out after 500 ms/);
    expect(result.duration_ms).toBeLessThan(3_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('tool_timeout stops every tool: a web_fetch of a server that never answers, a web_search, a sub-agent', async () => {
    const c = newCase();
    const silent = http.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow`;
      const recipe = path.join(c.root, 'recipe.yaml');
      fs.writeFileSync(
        recipe,
        `version: 1\ntools: [web_fetch, web_search, task]\nconfirmation: {mode: allowlist, allow: [{web_fetch: "127.0.0.1"}]}\nlimits: {tool_timeout: 700ms}\n`,
      );
      gemini = await startFakeGemini([
        { calls: [{ name: 'web_fetch', args: { url } }] },
        { calls: [{ name: 'web_search', args: { query: 'node lts' } }] },
        { hang: true }, // the search request
        { calls: [{ name: 'task', args: { description: 'look', prompt: 'Look around.' } }] },
        { hang: true }, // the sub-agent's first request
        { text: 'All three timed out.' },
      ]);
      const started = performance.now();
      const r = await cliInProcess(['run', recipe, '--prompt', 'go', '--workspace', c.ws, '--out', c.out], {
        env: { GEMINI_API_KEY: 'limits-test-key-0123456789', GOOGLE_GEMINI_BASE_URL: gemini.url },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(performance.now() - started).toBeLessThan(8_000);
      const results = readRun(c.out).events.filter((e) => e.type === 'tool_result');
      expect(results.map((e) => [e.name, e.error_type, e.llm_content])).toEqual([
        ['web_fetch', 'timeout', 'Error: web_fetch timed out after 700 ms (limits.tool_timeout) and was stopped'],
        ['web_search', 'timeout', 'Error: web_search timed out after 700 ms (limits.tool_timeout) and was stopped'],
        ['task', 'timeout', 'Error: task timed out after 700 ms (limits.tool_timeout) and was stopped'],
      ]);
      for (const result of results) expect(result.duration_ms).toBeLessThan(3_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('tool output above the threshold: the model gets head and tail and a note naming the saved file', async () => {
    const c = newCase();
    const lines = Array.from({ length: 1500 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`);
    lines[0] = 'HEAD-MARKER';
    lines[750] = 'MIDDLE-MARKER';
    lines[1499] = 'TAIL-MARKER';
    const full = lines.join('\n');
    fs.writeFileSync(path.join(c.ws, 'big.log'), full);
    // read_file pages below the cap; the shell's output is what gets cut.
    gemini = await startFakeGemini([{ calls: [{ name: 'shell', args: { command: 'cat big.log' } }] }, { text: 'Read it.' }]);
    const r = await cliInProcess(['run', '--prompt', 'Read the log.', '--workspace', c.ws, '--out', c.out, '--approval', 'auto-approve'], {
      env: { GEMINI_API_KEY: 'limits-test-key-0123456789', GOOGLE_GEMINI_BASE_URL: gemini.url },
    });
    expect(r.code).toBe(0);
    const { events } = readRun(c.out);

    const seen: string = gemini.requests[1]!.body.contents.at(-1).parts[0].functionResponse.response.output;
    expect(seen.length).toBeLessThan(full.length);
    expect(seen).toContain('HEAD-MARKER');
    expect(seen).toContain('TAIL-MARKER');
    expect(seen).not.toContain('MIDDLE-MARKER');
    const note = /the full output is saved at (\S+) /.exec(seen);
    expect(note).not.toBeNull();
    const saved = note![1]!;
    // Beside the transcript, in the run's output directory, and holding everything.
    expect(path.dirname(path.dirname(saved))).toBe(c.out);
    expect(fs.readFileSync(saved, 'utf8')).toContain('MIDDLE-MARKER');
    expect(fs.readFileSync(saved, 'utf8')).toBe(`Exit code: 0\nStdout:\n${full}`);
    expect(events.find((e) => e.type === 'tool_result')!.saved_output).toBe(saved);
  });
});
