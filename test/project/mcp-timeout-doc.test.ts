// The MCP servers' default timeout, which bounds a server's start as well as each call, is what
// the README says it is: a user whose server takes a minute to start must be able to find why.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpServersFromFile } from '../../src/recipe/flag-files.js';
import { removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe("an MCP server's default timeout", () => {
  it('is the 60 s the README gives, for a recipe\'s servers and for --mcp-config ones', () => {
    const file = path.join(tempDir(), 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: 'x' } } }));
    const [server] = mcpServersFromFile(file, '/').value;
    expect(server!.timeoutMs).toBe(60_000);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### More tools: MCP servers'), readme.indexOf('### Run features'));
    expect(section).toMatch(/each within its `timeout` \(default 60 s: connecting, initialising and\s+listing its tools\)/);
    expect(section).toMatch(/the server's `timeout`, default 60 s, at most `limits.tool_timeout`/);
    expect(readme).toContain('`timeout` (ms; default 60000)');
  });
});
