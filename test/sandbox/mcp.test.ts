// An MCP stdio server whose recipe entry says `sandbox: true` runs inside the run's sandbox: the
// reference filesystem server, told it may write a directory outside the workspace, cannot.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { bwrapWorks, runCommands } from './harness.js';
import { makeRepo } from '../git/repos.js';

const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Outside /tmp: the sandbox's /tmp is private, so a write there would vanish rather than fail. */
function outsideDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'unattended-mcp-')));
  made.push(dir);
  return dir;
}

describe.skipIf(!bwrapWorks)('an MCP stdio server with sandbox: true', () => {
  for (const sandboxed of [true, false]) {
    it(sandboxed ? 'cannot write outside the workspace, whatever it was told' : 'writes there without it (the control)', async () => {
      const outside = outsideDir();
      const run = await runCommands({
        commands: [],
        tools: [],
        calls: [{ name: 'fs__write_file', args: { path: path.join(outside, 'escaped.txt'), content: 'out\n' } }],
        extra: { mcp_servers: { fs: { command: process.execPath, args: [FILESYSTEM, outside], trust: true, required: true, sandbox: sandboxed } } },
      });
      expect(run.cli.code, run.cli.stderr).toBe(0);
      expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(!sandboxed);
      if (sandboxed) expect(run.outputs[0]).toMatch(/read-only|EROFS/i);
    });
  }
});

describe.skipIf(!bwrapWorks)('an MCP stdio server without sandbox: true', () => {
  // It runs on the host whatever the mode, while run_start and the report said `required` and
  // `bwrap`: the one process of the run that is not contained is named.
  it('under sandbox.mode: required, is named in a warning: it runs outside the sandbox', async () => {
    const outside = outsideDir();
    const run = await runCommands({
      commands: [],
      tools: [],
      sandbox: { mode: 'required' },
      calls: [{ name: 'fs__list_allowed_directories', args: {} }],
      extra: { mcp_servers: { fs: { command: process.execPath, args: [FILESYSTEM, outside], trust: true, required: true } } },
    });
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.report.sandbox).toMatchObject({ mode: 'required', kind: 'bwrap' });
    expect(run.report.warnings).toContainEqual(expect.stringMatching(/MCP server 'fs' runs outside the sandbox: its entry does not say sandbox: true/));
  });
});

describe.skipIf(!bwrapWorks)("an MCP server lives beside the runner's own git", () => {
  // A shell call ends before the runner's git runs; a server does not, and could switch what git
  // reads (.git/commondir) between the runner's check of the config and the git that follows.
  it("so it cannot write the repository's git directory, though it can write the work tree", async () => {
    const ws = await makeRepo(path.join(outsideDir(), 'ws'), { 'a.txt': 'a\n' });
    const run = await runCommands({
      workspace: ws,
      commands: [],
      tools: [],
      calls: [
        { name: 'fs__write_file', args: { path: path.join(ws, '.git/commondir'), content: 'evil\n' } },
        { name: 'fs__write_file', args: { path: path.join(ws, '.git/info/attributes'), content: '* filter=x\n' } },
        { name: 'fs__write_file', args: { path: path.join(ws, 'b.txt'), content: 'b\n' } },
      ],
      extra: { mcp_servers: { fs: { command: process.execPath, args: [FILESYSTEM, ws], trust: true, required: true, sandbox: true } } },
    });
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.outputs[0]).toMatch(/read-only|EROFS/i);
    expect(run.outputs[1]).toMatch(/read-only|EROFS/i);
    expect(fs.existsSync(path.join(ws, '.git/commondir'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('b\n');
  });
});
