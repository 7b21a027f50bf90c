// @modelcontextprotocol/server-everything in its Streamable HTTP mode, on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/recipe/types.js';
import { connectMcpServers } from '../../../src/tools/mcp/connect-all.js';
import { isBuiltinToolName } from '../../../src/tools/names.js';
import { REPO_ROOT, minimalEnv, waitFor } from '../../helpers/child-processes.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: ChildProcess;
let port: number;
let serverLog = '';

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

beforeAll(async () => {
  port = await freePort();
  server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...minimalEnv(), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (serverLog += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (serverLog += d.toString()));
  const listening = await waitFor(() => serverLog.includes(`listening on port ${port}`), 10_000);
  if (!listening) throw new Error(`server-everything did not start: ${serverLog}`);
});

afterAll(async () => {
  server?.kill('SIGKILL');
});

function http(over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    alias: 'web',
    command: null,
    args: [],
    env: {},
    cwd: null,
    url: `http://127.0.0.1:${port}/mcp`,
    headers: { 'X-Run': 'test' },
    timeoutMs: 5000,
    includeTools: ['echo', 'get-sum'],
    excludeTools: [],
    trust: true,
    required: true,
    ...over,
  };
}

describe('Streamable HTTP transport', () => {
  it('lists and calls tools, then ends the session politely on close()', async () => {
    const warnings: string[] = [];
    const servers = await connectMcpServers([http()], {
      env: {},
      signal: new AbortController().signal,
      reserved: isBuiltinToolName,
      onWarning: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([]);
    expect(servers.tools.map((t) => t.name)).toEqual(['web__echo', 'web__get-sum']);
    const sum = await servers.tools[1]!.execute({ a: 2, b: 40 }, new AbortController().signal);
    expect(sum.llmContent).toMatch(/42/);
    await servers.close();
    expect(await waitFor(() => serverLog.includes('Received session termination request'))).toBe(true);
  });

  it('an endpoint nobody listens on is left out with a warning (not required)', async () => {
    const warnings: string[] = [];
    const deadPort = await freePort();
    const servers = await connectMcpServers([http({ url: `http://127.0.0.1:${deadPort}/mcp`, required: false })], {
      env: {},
      signal: new AbortController().signal,
      reserved: isBuiltinToolName,
      onWarning: (m) => warnings.push(m),
    });
    expect(servers.tools).toEqual([]);
    expect(warnings[0]).toMatch(/^MCP server 'web' is left out: fetch failed \(.*ECONNREFUSED.*\)$/);
    await servers.close();
  });
});
