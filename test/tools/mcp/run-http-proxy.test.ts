// A Streamable HTTP MCP server behind the proxy HTTP_PROXY names: the run reaches it through the
// proxy (the global fetch the MCP SDK would use knows no proxy variable), and NO_PROXY sends it direct.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun } from '../../helpers/cli.js';
import { FIXTURES } from '../../helpers/child-processes.js';
import { proxiedName, startHttpProxy, type HttpProxy } from '../../helpers/http-proxy.js';
import { cleanupTempDirs, writeRecipe } from '../../e2e/temp-recipe.js';

const HTTP_SERVER = path.join(FIXTURES, 'mcp/http-server.mjs');
const started: ChildProcess[] = [];
const proxies: HttpProxy[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const proxy of proxies.splice(0)) await proxy.close();
});
afterAll(cleanupTempDirs);

async function startServer(): Promise<string> {
  const child = spawn(process.execPath, [HTTP_SERVER], { env: { ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', () => reject(new Error('the HTTP fixture ended before listening')));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function runThrough(url: string, env: Record<string, string>) {
  const { file, out } = writeRecipe(
    { prompt: 'probe', workspace: '.', tools: ['read_file'], confirmation: { mode: 'auto-approve' }, mcp_servers: { web: { url, timeout: '20s' } } },
    [{ calls: [{ name: 'web__echo', args: {} }] }, { text: 'done' }],
  );
  const r = await execa(process.execPath, [CLI, 'run', file, '--out', out], { env: baseEnv(env), extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
  const results = readRun(out).events.filter((e) => e.type === 'tool_result');
  return { code: r.exitCode, stderr: String(r.stderr), results };
}

describe('an MCP server over HTTP behind a proxy', () => {
  it('is reached through HTTP_PROXY, with its credentials', async () => {
    // Named as only the proxy resolves it: a loopback address never goes through a proxy.
    const url = proxiedName(await startServer());
    const proxy = await startHttpProxy({ credentials: 'carol:pw' });
    proxies.push(proxy);
    const r = await runThrough(url, { HTTP_PROXY: `http://carol:pw@127.0.0.1:${proxy.port}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => String(e.llm_content))).toEqual(['echo']);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.target === url && s.authorization === 'carol:pw')).toBe(true);
  });

  it('is reached directly on loopback, with no NO_PROXY entry', async () => {
    const url = await startServer();
    const proxy = await startHttpProxy();
    proxies.push(proxy);
    const r = await runThrough(url, { HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => String(e.llm_content))).toEqual(['echo']);
    expect(proxy.seen).toEqual([]);
  });
});
