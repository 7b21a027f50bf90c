// A server given by --mcp-config is written in the file's own keys (includeTools, excludeTools, as
// Gemini CLI's settings.json writes them): what is said about its filters names those keys and the
// file, not a recipe's mcp_servers.<name>.include_tools, which the user never wrote and cannot find.
// Through the built CLI, with a real stdio MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function setUp(server: Record<string, unknown>) {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(dir, 'turns.jsonl'), '{"text":"done"}\n');
  const config = path.join(dir, 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { shapes: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/mcp/shapes-server.mjs')], ...server } } }));
  return { dir, ws, config, run: ['run', '-p', 'Check', '--provider', 'scripted', '--script', path.join(dir, 'turns.jsonl'), '--mcp-config', config] };
}

it('an --allow rule for a tool the file\'s includeTools leaves out names "includeTools" in that file', async () => {
  const { ws, config, run } = setUp({ includeTools: ['nulls'] });
  const r = await cli([...run, '--approval', 'allowlist', '--allow', 'shapes__parts'], { cwd: ws });
  expect(r.code, r.stderr).toBe(42);
  expect(r.stderr).toContain(`'shapes__parts' is not offered to the model: "includeTools" of server 'shapes' in --mcp-config ${config} does not list 'parts'`);
  expect(r.stderr).not.toContain('mcp_servers.');
});

it("a tool the file's includeTools or excludeTools names that the server does not have is warned of by the file's key", { timeout: 30_000 }, async () => {
  const { dir, ws, config, run } = setUp({ includeTools: ['nulls', 'radar'], excludeTools: ['hail'] });
  const out = path.join(dir, 'out');
  const r = await cli([...run, '--out', out], { cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  const warnings = readRun(out).report.warnings as string[];
  expect(warnings).toContain(`MCP server 'shapes' has no tool 'radar' (named in includeTools in --mcp-config ${config})`);
  expect(warnings).toContain(`MCP server 'shapes' has no tool 'hail' (named in excludeTools in --mcp-config ${config})`);
});
