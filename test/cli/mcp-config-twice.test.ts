// The same --mcp-config file given twice (a wrapper script's flags and the user's, `--mcp-config
// mcp.json --mcp-config ./mcp.json`) was refused: "server 'shapes' is already defined; rename one",
// of a server defined once. And a server two files define was said to be defined "by the recipe"
// whenever the run had one, though the recipe defined none. Through the built CLI, with a real
// stdio MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function setUp() {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'turns.jsonl'), '{"text":"done"}\n');
  const server = { shapes: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/mcp/shapes-server.mjs')] } };
  fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: server }));
  fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ mcpServers: server }));
  fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nname: r\nprompt: go\nconfirmation: {mode: deny}\n');
  return dir;
}

it('the same file named twice is its servers once, and the run goes on with them', { timeout: 30_000 }, async () => {
  const dir = setUp();
  const out = path.join(dir, 'out');
  const r = await cli(['-p', 'Check', '--provider', 'scripted', '--script', 'turns.jsonl', '--mcp-config', 'mcp.json', '--mcp-config', `${dir}/./mcp.json`, '--out', out], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('already defined');
  const tools = readRun(out).events.find((e) => e.type === 'run_start')!.tools as string[];
  expect(tools.filter((t) => t.startsWith('shapes__')).length).toBeGreaterThan(0);
});

it('a server two files define names the other file, not a recipe that defines none', async () => {
  const dir = setUp();
  const r = await cli(['r.yaml', '--provider', 'scripted', '--script', 'turns.jsonl', '--mcp-config', 'mcp.json', '--mcp-config', 'other.json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(42);
  expect(r.stderr).toContain("--mcp-config other.json: server 'shapes' is already defined by --mcp-config mcp.json; rename one");
});
