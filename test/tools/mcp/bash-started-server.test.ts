// An MCP server started through bash (`command: bash`, as wrapper scripts and `bash -c "source
// .env && exec server"` lines do). Its stdin is a socket (Node's pipes are socket pairs), and bash
// then reads ~/.bashrc as if sshd had started it: a user's shell set-up (pyenv, nvm, conda init)
// ran first, slow, and what it printed went into the JSON-RPC stream. The server must start and
// answer as it would from a terminal's shell.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, ROOT } from '../../helpers/cli.js';
import { cleanupTempDirs, tempDir, writeRecipe } from '../../e2e/temp-recipe.js';

afterAll(cleanupTempDirs);

describe('an MCP server started through bash', () => {
  it("does not run the user's ~/.bashrc, whose output would corrupt the protocol", async () => {
    const home = tempDir();
    const marker = path.join(tempDir(), 'bashrc-ran');
    // A chatty, slow shell set-up, as `conda init` or a banner leaves one.
    fs.writeFileSync(path.join(home, '.bashrc'), `touch '${marker}'\necho "Welcome back!"\nsleep 3\n`);
    const server = `exec '${process.execPath}' '${path.join(ROOT, 'test/fixtures/mcp/shapes-server.mjs')}'`;
    const { file, out } = writeRecipe(
      { prompt: 'probe', tools: [], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, mcp_servers: { shapes: { command: 'bash', args: ['-c', server], timeout: '2s' } } },
      [{ calls: [{ name: 'shapes__nulls', args: { v: 'x' } }] }, { text: 'done' }],
    );
    const r = await cli(['run', file, '--out', out], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const { events } = readRun(out);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ name: 'shapes__nulls', error_type: null });
    expect(fs.existsSync(marker)).toBe(false);
  });
});
