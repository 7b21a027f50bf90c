// `--output-format stream-json` read the way Claude Code's and Qwen Code's headless docs tell a
// script to read theirs: JSON lines; a `system` message with subtype `init` first; `assistant`
// messages whose `message.content` holds `text` and `tool_use` blocks; `user` messages with
// `tool_result` blocks; a `result` message last with `subtype`, `is_error`, `result`, `num_turns`,
// `usage`, `total_cost_usd`, `session_id`. Our own events stay in the stream, every line stamped.
// In-process runs of the real runner (scripted model, real tools), no CLI spawn.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/runner/execute-run.js';
import { recipeFromArgs } from '../../src/cli/params.js';
import { classifyError } from '../../src/cli/errors.js';
import type { RecipeOverrides } from '../../src/recipe/index.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

type Line = Record<string, any>;

async function streamRun(turns: unknown[], overrides: RecipeOverrides = {}, prepareOut?: (out: string) => void) {
  const dir = tempDir('unattended-stream-');
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
  const script = path.join(dir, 'turns.json');
  fs.writeFileSync(script, JSON.stringify({ turns }));
  const out = path.join(dir, 'run');
  prepareOut?.(out);
  let stdout = '';
  const result = await executeRun({
    loadRecipe: () => recipeFromArgs(null, [], { provider: 'scripted', script, prompt: 'look around', approval: 'auto-approve', workspace: ws, sandbox: 'off', ...overrides }),
    stdinContext: null,
    outDir: out,
    format: 'stream-json',
    record: null,
    env: { PATH: process.env.PATH },
    streams: { stdout: (s) => (stdout += s), stderr: () => {} },
    classifySetupError: classifyError,
  });
  return { exitCode: result.exitCode, out, ws, lines: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) };
}

/** A consumer written from their docs: what it keeps of a stream. */
function readAsPeer(lines: Line[]) {
  const init = lines.find((l) => l.type === 'system' && l.subtype === 'init');
  const text: string[] = [];
  const toolUses: Array<{ id: string; name: string }> = [];
  const toolResults: string[] = [];
  for (const l of lines) {
    if (l.type === 'assistant') {
      for (const block of l.message.content) {
        if (block.type === 'text') text.push(block.text);
        if (block.type === 'tool_use') toolUses.push({ id: block.id, name: block.name });
      }
    }
    if (l.type === 'user') for (const block of l.message.content) if (block.type === 'tool_result') toolResults.push(block.tool_use_id);
  }
  const result = lines.findLast((l) => l.type === 'result');
  return { init, text, toolUses, toolResults, result };
}

describe('stream-json init, with MCP servers', () => {
  it('lists each of them as Claude Code does, one that failed to start as failed', async () => {
    const dir = tempDir('unattended-stream-mcp-');
    const config = path.join(dir, 'mcp.json');
    const server = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [server, dir] }, broken: { command: path.join(dir, 'no-such-server') } } }));
    const run = await streamRun([{ text: 'Done.' }], { mcpConfig: [config] });
    expect(run.exitCode).toBe(0);
    const init = readAsPeer(run.lines).init!;
    expect(init.mcp_servers).toEqual([
      { name: 'files', status: 'connected' },
      { name: 'broken', status: 'failed' },
    ]);
  });
});

describe('stream-json', () => {
  let run: Awaited<ReturnType<typeof streamRun>>;
  beforeAll(async () => {
    run = await streamRun([
      { text: 'Looking.', calls: [{ name: 'ls', args: { path: '{{workspace}}' } }], usage: { input: 100, output: 10, cached: 40 } },
      { text: 'Done: one file.', usage: { input: 150, output: 5 } },
    ]);
  });

  it('opens with system/init and closes with a result a Claude Code or Qwen Code parser reads', () => {
    expect(run.exitCode).toBe(0);
    const first = run.lines[0]!;
    expect(first).toMatchObject({ type: 'system', subtype: 'init', cwd: run.ws, model: expect.any(String), permissionMode: 'bypassPermissions' });
    expect(first.tools).toContain('ls');
    const peer = readAsPeer(run.lines);
    expect(peer.result).toBe(run.lines.at(-1));
    expect(peer.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Done: one file.',
      num_turns: 2,
      total_cost_usd: expect.any(Number),
      duration_ms: expect.any(Number),
      duration_api_ms: expect.any(Number),
      // Their input_tokens leave out what the cache served.
      usage: { input_tokens: 210, output_tokens: 15, cache_read_input_tokens: 40, cache_creation_input_tokens: 0 },
      permission_denials: [],
    });
    expect(peer.result!.session_id).toBe(first.session_id);
    expect(peer.text).toEqual(['Looking.', 'Done: one file.']);
    expect(peer.toolUses.map((t) => t.name)).toEqual(['ls']);
    expect(peer.toolResults).toEqual(peer.toolUses.map((t) => t.id));
  });

  it('keeps our own events, and stamps every line (deltas included) with ts, run_id and a gapless seq', () => {
    const types = run.lines.map((l) => l.type);
    expect(types.indexOf('run_start')).toBe(1);
    expect(types.at(-2)).toBe('run_end');
    expect(types).toContain('text_delta');
    const runId = run.lines.find((l) => l.type === 'run_start')!.run_id;
    run.lines.forEach((l, i) => {
      expect(l.seq, `line ${i + 1} (${l.type})`).toBe(i + 1);
      expect(Number.isNaN(Date.parse(l.ts)), `ts of line ${i + 1}`).toBe(false);
      expect(l.run_id).toBe(runId);
    });
    expect(run.lines[0]!.session_id).toBe(runId);
    // The transcript numbers its own lines: no deltas, no peer messages, no gaps.
    const transcript = fs.readFileSync(path.join(run.out, 'transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    expect(transcript.map((l) => l.type)).not.toContain('text_delta');
    expect(transcript.map((l) => l.type)).not.toContain('result');
    transcript.forEach((l, i) => expect(l.seq).toBe(i + 1));
  });

  it('a turn limit ends in error_max_turns, is_error true', async () => {
    const loop = await streamRun([{ calls: [{ name: 'ls', args: {} }] }, { calls: [{ name: 'ls', args: {} }] }], { maxTurns: 1 });
    expect(loop.exitCode).toBe(53);
    expect(readAsPeer(loop.lines).result).toMatchObject({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 1, status: 'limit' });
  });

  it('denied calls are listed as permission_denials; the run still succeeds', async () => {
    const denied = await streamRun([{ calls: [{ name: 'shell', args: { command: 'rm -rf /tmp/x' } }] }, { text: 'Could not.' }], { approval: 'deny' });
    const { init, result } = readAsPeer(denied.lines);
    expect(init!.permissionMode).toBe('dontAsk');
    expect(result).toMatchObject({ subtype: 'success', is_error: false, status: 'denied' });
    expect(result!.permission_denials).toEqual([{ tool_name: 'shell', tool_use_id: expect.any(String), tool_input: { command: 'rm -rf /tmp/x' } }]);
  });

  it('when the transcript cannot be written, every printed line still carries ts and seq, and the result says the error', async () => {
    const failed = await streamRun([{ calls: [{ name: 'ls', args: {} }] }, { text: 'done' }], {}, (out) => {
      fs.mkdirSync(out);
      fs.symlinkSync('/dev/full', path.join(out, 'transcript.jsonl'));
    });
    expect(failed.exitCode).toBe(54);
    failed.lines.forEach((l, i) => {
      expect(l.seq).toBe(i + 1);
      expect(typeof l.ts).toBe('string');
    });
    expect(failed.lines.at(-2)).toMatchObject({ type: 'run_end', exit_code: 54 });
    const { result } = readAsPeer(failed.lines);
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true, exit_code: 54 });
    expect(result!.errors[0]).toMatch(/cannot write the transcript/);
  });
});

describe('a run refused before it had a directory', () => {
  it('still streams init first and a result last (an --out that holds a run, two prompts; a --continue of nothing, which has a directory)', async () => {
    const dir = tempDir('unattended-stream-refused-');
    const held = path.join(dir, 'held');
    fs.mkdirSync(held);
    fs.writeFileSync(path.join(held, 'transcript.jsonl'), '{"type":"run_start"}\n');
    const cases: Array<[string[], string]> = [
      [['-p', 'hi', '--out', held], 'already holds a run'],
      [['-c', path.join(dir, 'no-such-run'), '-p', 'more'], 'no such run directory'],
      [['Fix it', '-p', 'Fix that'], 'two prompts'],
    ];
    for (const [argv, error] of cases) {
      const r = await cliInProcess([...argv, '--output-format', 'stream-json'], { cwd: dir, env: {}, stdin: null });
      const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
      const types = lines.map((l) => `${l.type}/${l.subtype}`);
      expect({ argv, code: r.code, first: types[0], last: types.at(-1) }).toEqual({ argv, code: 42, first: 'system/init', last: 'result/error_during_execution' });
      const result = lines.at(-1)!;
      expect(result).toMatchObject({ is_error: true, num_turns: 0, total_cost_usd: 0, session_id: result.run_id, seq: lines.length, exit_code: 42 });
      expect(result.errors[0]).toContain(error);
      expect(typeof result.ts).toBe('string');
    }
  });
});

describe('a run refused before its recipe was built', () => {
  it('names the directory it was started in as init cwd, as a run refused before its directory does (not an empty string)', async () => {
    const dir = tempDir('unattended-stream-no-recipe-');
    for (const argv of [['-p', 'hi', '--output-schema', 'missing.json', '--out', path.join(dir, 'out')], ['-p', 'hi', '--out', path.join(dir, 'out')]]) {
      const r = await cliInProcess([...argv, '--output-format', 'stream-json'], { cwd: dir, env: {}, stdin: null });
      const init = JSON.parse(r.stdout.split('\n')[0]!) as Line;
      expect({ argv, subtype: init.subtype, cwd: init.cwd }).toEqual({ argv, subtype: 'init', cwd: fs.realpathSync(dir) });
    }
  });
});
