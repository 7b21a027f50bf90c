// Whole runs against a Streamable HTTP MCP server (fixtures/mcp/http-server.mjs) that fails: what
// the model and the report are told, and how soon.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readRun } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/cli-in-process.js';
import { FIXTURES } from '../../helpers/child-processes.js';
import { cleanupTempDirs, writeRecipe, type Turn } from '../../e2e/temp-recipe.js';

const HTTP_SERVER = path.join(FIXTURES, 'mcp/http-server.mjs');

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});
afterAll(cleanupTempDirs);

async function startServer(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [HTTP_SERVER], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', () => reject(new Error('the HTTP fixture ended before listening')));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function runHttp(url: string, turns: Turn[], server: Record<string, unknown> = {}) {
  const { file, out } = writeRecipe(
    {
      prompt: 'probe',
      workspace: '.',
      tools: ['read_file'],
      confirmation: { mode: 'auto-approve' },
      mcp_servers: { web: { url, timeout: '30s', ...server } },
    },
    [...turns, { text: 'done' }],
  );
  const r = await cliInProcess(['run', file, '--out', out]);
  const run = readRun(out);
  const results = run.events.filter((e) => e.type === 'tool_result');
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => String(e.message));
  return { ...r, ...run, results, warnings };
}

describe('an HTTP server that dies in the middle of a call', () => {
  it('fails that call at once, saying the connection broke, not after the server\'s 30 s timeout', async () => {
    const url = await startServer();
    const r = await runHttp(url, [{ calls: [{ name: 'web__exit', args: {} }] }]);
    expect(r.code, r.stderr).toBe(0);
    const [call] = r.results;
    expect(call!.error_type).toBe('execution_failed');
    expect(String(call!.llm_content)).toMatch(/^Error: MCP server 'web' failed on exit: the connection to the server broke before it answered \(.*\); the server may have stopped$/);
    expect(call!.duration_ms).toBeLessThan(10_000);
  });
});

describe('an HTTP server that forgets the session (restarted behind its URL)', () => {
  it('is sent a new initialize, as the MCP spec says, and the call goes through', async () => {
    const url = await startServer();
    const r = await runHttp(url, [{ calls: [{ name: 'web__forget', args: {} }] }, { calls: [{ name: 'web__echo', args: {} }] }]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => [e.error_type, String(e.llm_content)])).toEqual([
      [null, 'forgotten'],
      [null, 'echo'],
    ]);
  });
});

describe('an HTTP server built from the SDK\'s example, restarted behind its URL', () => {
  it('answers the forgotten session 400 "No valid session ID provided": it is sent a new initialize too, and the call goes through', async () => {
    for (const forgotten of ['example', 'invalid']) {
      const url = await startServer({ FORGOTTEN: forgotten });
      const r = await runHttp(url, [{ calls: [{ name: 'web__forget', args: {} }] }, { calls: [{ name: 'web__echo', args: {} }] }]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.results.map((e) => [e.error_type, String(e.llm_content)]), forgotten).toEqual([
        [null, 'forgotten'],
        [null, 'echo'],
      ]);
    }
  });
});

describe('an HTTP server that refuses the start', () => {
  it('names the status, with what the server said, and for 401/403 where the credentials go', async () => {
    const cases: Array<{ env: Record<string, string>; warning: RegExp }> = [
      { env: { HTTP_STATUS: '401' }, warning: /^MCP server 'web' is left out: the server answered HTTP 401 Unauthorized; it wants credentials .*the server's `headers`/ },
      { env: { HTTP_STATUS: '403', HTTP_BODY: 'token lacks scope repo' }, warning: /^MCP server 'web' is left out: the server answered HTTP 403 Forbidden \(the server said: token lacks scope repo\); it wants credentials .*or the token lacks a permission$/ },
      { env: { HTTP_STATUS: '500' }, warning: /^MCP server 'web' is left out: the server answered HTTP 500 Internal Server Error$/ },
    ];
    for (const { env, warning } of cases) {
      const url = await startServer(env);
      const r = await runHttp(url, []);
      expect(r.code, r.stderr).toBe(0);
      expect(r.warnings).toEqual([expect.stringMatching(warning)]);
    }
  });
});

describe('an HTTP server whose reply breaks the protocol', () => {
  it('fails the call at once, saying what is wrong, in a JSON body or an event alike', async () => {
    for (const as of ['sse', 'json']) {
      const url = await startServer({ BAD_REPLY: as });
      const r = await runHttp(url, [{ calls: [{ name: 'web__bad', args: {} }] }, { calls: [{ name: 'web__echo', args: {} }] }], { timeout: '20s' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.results.map((e) => [e.error_type, String(e.llm_content)]), as).toEqual([
        ['execution_failed', "Error: MCP server 'web' failed on bad: the server's reply is no valid JSON-RPC response: its result is a number, not an object"],
        [null, 'echo'],
      ]);
      expect(r.results[0]!.duration_ms).toBeLessThan(10_000);
    }
  });
});
