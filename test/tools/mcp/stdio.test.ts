// Published MCP servers over stdio, and broken ones: tools work, failures are reported, and no
// server process outlives close().
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/recipe/types.js';
import { connectMcpServer } from '../../../src/tools/mcp/client.js';
import { McpStartError, connectMcpServers, type McpServers } from '../../../src/tools/mcp/connect-all.js';
import { isBuiltinToolName } from '../../../src/tools/names.js';
import type { AnyTool } from '../../../src/tools/tools.js';
import { FIXTURES, REPO_ROOT, childPids, isAlive, makeTempDir, minimalEnv, readPid, removeDir, waitFor } from '../../helpers/child-processes.js';

const FILESYSTEM = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SILENT = path.join(FIXTURES, 'mcp/silent-server.mjs');
const CRASH = path.join(FIXTURES, 'mcp/crash-server.mjs');

function stdio(alias: string, args: string[], over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    alias,
    command: process.execPath,
    args,
    env: {},
    cwd: null,
    url: null,
    headers: {},
    timeoutMs: 10_000,
    includeTools: null,
    excludeTools: [],
    trust: false,
    required: false,
    ...over,
  };
}

async function start(configs: McpServerConfig[], signal = new AbortController().signal) {
  const warnings: string[] = [];
  const servers = await connectMcpServers(configs, {
    env: minimalEnv(),
    signal,
    reserved: isBuiltinToolName,
    onWarning: (m) => warnings.push(m),
  });
  return { ...servers, warnings };
}

function named(tools: AnyTool[], name: string): AnyTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return found;
}

const signal = () => new AbortController().signal;

let dir: string;
let servers: McpServers & { warnings: string[] };
beforeAll(async () => {
  dir = makeTempDir('mcp-stdio');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'first line\nsecond line\n');
  process.env.UNATTENDED_TEST_SECRET = 'do-not-leak';
  // Both published servers at once: they start in parallel.
  servers = await start([
    stdio('fs', [FILESYSTEM, dir], { includeTools: ['read_text_file', 'write_file', 'list_directory'] }),
    stdio('everything', [EVERYTHING, 'stdio'], { env: { GREETING: 'hello from the recipe' } }),
  ]);
});
afterAll(async () => {
  // The everything server ends on stdin EOF once the aborted long operation (3 s) is over, which
  // it is by now; were it still busy, close() would wait out the SDK grace (2 s), then escalate.
  await servers?.close();
  delete process.env.UNATTENDED_TEST_SECRET;
  removeDir(dir);
});

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  it('offers only the included tools, named fs__<tool>', () => {
    expect(servers.tools.filter((t) => t.name.startsWith('fs__')).map((t) => t.name)).toEqual([
      'fs__read_text_file',
      'fs__write_file',
      'fs__list_directory',
    ]);
  });

  it('reads and writes files inside the allowed directory', async () => {
    const write = await named(servers.tools, 'fs__write_file').execute(
      { path: path.join(dir, 'out.txt'), content: 'written by MCP' },
      signal(),
    );
    expect(write.error).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('written by MCP');
    const read = await named(servers.tools, 'fs__read_text_file').execute({ path: path.join(dir, 'notes.txt'), head: 1 }, signal());
    expect(read.llmContent).toBe('first line');
  });

  it('a path outside the allowed directory comes back as an error result', async () => {
    const result = await named(servers.tools, 'fs__read_text_file').execute({ path: '/etc/hostname' }, signal());
    expect(result.error?.type).toBe('execution_failed');
    expect(result.error?.message).toMatch(/outside allowed directories|Access denied/i);
  });
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('echo, image content and resource links map to Parts', async () => {
    const echo = await named(servers.tools, 'everything__echo').execute({ message: 'hi' }, signal());
    expect(echo.llmContent).toBe('Echo: hi');
    const image = await named(servers.tools, 'everything__get-tiny-image').execute({}, signal());
    expect(image.llmContent).toEqual([
      { text: expect.any(String) },
      { inlineData: { mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) } },
      { text: expect.any(String) },
    ]);
    const links = await named(servers.tools, 'everything__get-resource-links').execute({ count: 2 }, signal());
    expect(links.llmContent).toMatch(/Resource link: .* <demo:\/\/resource\//);
  });

  it('the server gets the base env plus its own entries, and nothing else from the runner', async () => {
    const result = await named(servers.tools, 'everything__get-env').execute({}, signal());
    const env = JSON.parse(result.llmContent as string) as Record<string, string>;
    expect(env.GREETING).toBe('hello from the recipe');
    expect(env.PATH).toBe(minimalEnv().PATH);
    expect(env.UNATTENDED_TEST_SECRET).toBeUndefined();
  });

  it('the task-only tool is left out with the only warning of the start; the rest are offered', () => {
    expect(servers.warnings).toEqual([
      "MCP server 'everything': tool 'simulate-research-query' is left out: it only runs as an MCP task, which the runner does not support",
    ]);
    const names = servers.tools.map((t) => t.name);
    expect(names).toContain('everything__get-sum');
    expect(names).not.toContain('everything__simulate-research-query');
  });

  it('aborting a long-running call returns at once as aborted', async () => {
    const controller = new AbortController();
    // 3 s: long enough that only the abort can end the call within 2 s, short enough that the
    // server is idle again (and ends at once on stdin EOF) by the time the file closes it.
    const pending = named(servers.tools, 'everything__trigger-long-running-operation').execute(
      { duration: 3, steps: 2 },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await pending;
    expect(result.error?.type).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('stdio servers that fail to start', () => {
  it("a server's stderr of several lines comes after the reason, on lines of its own, whole", async () => {
    const result = await start([stdio('py', [path.join(FIXTURES, 'mcp/traceback-server.mjs')])]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^MCP server 'py' is left out: .*; its stderr ends with:\nTraceback \(most recent call last\):\n  File "server\.py", line 3, in <module>\n    import mcp\nModuleNotFoundError: No module named 'mcp'$/),
    ]);
  });

  it('silent, crashing and missing servers are left out with a reason; no process stays behind', async () => {
    const pidfile = path.join(dir, 'silent.pid');
    const started = Date.now();
    const result = await start([
      stdio('silent', [SILENT, pidfile], { timeoutMs: 1000 }),
      stdio('crash', [CRASH]),
      { ...stdio('missing', []), command: path.join(dir, 'no-such-server') },
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.tools).toEqual([]);
    expect(result.failures.map((f) => f.alias)).toEqual(['silent', 'crash', 'missing']);
    // (1 s, not less: on a loaded machine node takes that long to start the server and print.)
    expect(result.warnings[0]).toMatch(
      /^MCP server 'silent' is left out: did not start and list its tools within (1000 ms|1 s); its stderr ends with: silent server: listening but never answering$/,
    );
    expect(result.warnings[1]).toMatch(/^MCP server 'crash' is left out: .*its stderr ends with: fatal: API_TOKEN is not set$/);
    expect(result.warnings[2]).toMatch(/^MCP server 'missing' is left out: .*ENOENT/);
    // The silent one ignores SIGTERM: it takes a SIGKILL, before connectMcpServers returns.
    expect(isAlive(readPid(pidfile))).toBe(false);
  });

  it('a bare command name is never taken from inside the workspace (npx puts its node_modules/.bin on PATH)', async () => {
    const ws = path.join(dir, 'planted-ws');
    const bin = path.join(ws, 'node_modules', '.bin');
    fs.mkdirSync(bin, { recursive: true });
    const marker = path.join(dir, 'planted-ran');
    fs.writeFileSync(path.join(bin, 'docs-server'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const result = await start([{ ...stdio('docs', []), command: 'docs-server', cwd: ws, env: { PATH: `${bin}:${process.env.PATH}` } }]);
    expect(result.failures.map((f) => f.alias)).toEqual(['docs']);
    expect(result.warnings[0]).toMatch(/command 'docs-server' was found only at .*node_modules\/\.bin\/docs-server, which is not searched/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a required server that does not start fails the start, naming it', async () => {
    const pidfile = path.join(dir, 'required.pid');
    const error = await start([
      stdio('silent', [SILENT, pidfile], { timeoutMs: 1000, required: true }),
      stdio('everything', [EVERYTHING, 'stdio']),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpStartError);
    expect((error as Error).message).toMatch(/^required MCP server 'silent' failed to start: did not start/);
    expect(isAlive(readPid(pidfile))).toBe(false);
  });
});

describe('close()', () => {
  it('leaves no server process behind (checked by pid)', async () => {
    const connection = await connectMcpServer(stdio('fs', [FILESYSTEM, dir]), { env: minimalEnv(), signal: signal() });
    const pid = connection.pid;
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid!)).toBe(true);
    await connection.close();
    expect(isAlive(pid!)).toBe(false);
  });

  it('connectMcpServers().close() ends every stdio server it started', async () => {
    const before = childPids();
    const started = await start([stdio('a', [EVERYTHING, 'stdio']), stdio('b', [FILESYSTEM, dir])]);
    const during = childPids();
    await started.close();
    await started.close(); // idempotent
    if (before && during) {
      expect(during.length).toBeGreaterThanOrEqual(before.length + 2);
      expect(await waitFor(() => childPids()!.length <= before.length, 500)).toBe(true);
    }
  });
});
