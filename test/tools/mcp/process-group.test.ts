// Stdio MCP servers run as leaders of their own process group (src/tools/mcp/stdio-transport.ts):
// a server started through bash (as npx and uvx start theirs) goes down with everything it
// started, politely without a stop, at once when the run is being stopped.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/recipe/types.js';
import { connectMcpServer } from '../../../src/tools/mcp/client.js';
import { GroupStdioTransport } from '../../../src/tools/mcp/stdio-transport.js';
import { processesWith } from '../../helpers/processes.js';
import { FIXTURES, minimalEnv } from '../../helpers/child-processes.js';

const STUBBORN = path.join(FIXTURES, 'mcp/stubborn-server.mjs');
const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
});

function throughBash(): { cfg: McpServerConfig; marker: string } {
  const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
  markers.push(marker);
  const cfg: McpServerConfig = {
    alias: 'stubborn',
    command: 'bash',
    // `; true` keeps bash as the parent: the server is a grandchild, its helper one more down.
    args: ['-c', `'${process.execPath}' '${STUBBORN}' ${marker}; true`],
    env: {},
    cwd: null,
    url: null,
    headers: {},
    timeoutMs: 10_000,
    includeTools: null,
    excludeTools: [],
    trust: false,
    required: false,
  };
  return { cfg, marker };
}

describe('stdio MCP servers as process groups', () => {
  it('close() takes down bash, the server and its helper, though the server ignores stdin closing and SIGTERM', async () => {
    const { cfg, marker } = throughBash();
    const connection = await connectMcpServer(cfg, { env: minimalEnv(), signal: new AbortController().signal });
    expect(connection.tools.map((t) => t.name)).toEqual(['ping']);
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(2);
    const started = performance.now();
    await connection.close();
    const ms = performance.now() - started;
    console.info(`polite close of a stubborn server: ${Math.round(ms)} ms`);
    expect(processesWith(marker)).toEqual([]);
    expect(ms).toBeLessThan(5_000);
  });

  it('once the run is stopping, close() kills the group at once', async () => {
    const { cfg, marker } = throughBash();
    const run = new AbortController();
    const connection = await connectMcpServer(cfg, { env: minimalEnv(), signal: run.signal });
    const closing = connection.close();
    run.abort();
    const started = performance.now();
    await closing;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(processesWith(marker)).toEqual([]);
  });

  it('a command that does not exist: start() fails and close() returns at once', async () => {
    const transport = new GroupStdioTransport({ command: '/nonexistent/mcp-server', args: [], env: minimalEnv() });
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
    const started = performance.now();
    await transport.close();
    expect(performance.now() - started).toBeLessThan(100);
  });
});
