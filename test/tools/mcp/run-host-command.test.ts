// Which program a bare MCP command name runs on the host: never one inside the run's workspace or
// the repository around it, wherever the runner was started from (`--workspace`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/cli-in-process.js';
import { cleanupTempDirs, tempDir, writeRecipe } from '../../e2e/temp-recipe.js';

afterAll(cleanupTempDirs);

/** A repository whose `bin` directory (on PATH, as npx puts node_modules/.bin) holds `mcp-planted`. */
function plantedRepository(binDir: string) {
  const repo = tempDir();
  fs.mkdirSync(path.join(repo, '.git'));
  const bin = path.join(repo, binDir);
  fs.mkdirSync(bin, { recursive: true });
  const marker = path.join(tempDir(), 'planted-ran');
  fs.writeFileSync(path.join(bin, 'mcp-planted'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  return { repo, bin, marker };
}

async function runFromElsewhere(workspace: string, bin: string, spawned = false) {
  const { file, out } = writeRecipe({ prompt: 'probe', workspace, tools: ['read_file'], confirmation: { mode: 'deny' }, mcp_servers: { p: { command: 'mcp-planted' } } }, [{ text: 'done' }]);
  const opts = { cwd: tempDir(), env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } };
  const r = spawned ? await cli(['run', file, '--out', out], opts) : await cliInProcess(['run', file, '--out', out], opts);
  const warnings = readRun(out).events.filter((e) => e.type === 'warning').map((e) => String(e.message));
  return { ...r, warnings };
}

describe('a bare MCP command name, the runner started outside the workspace', () => {
  it("is not taken from the workspace's node_modules/.bin: the server is left out, the warning says where it was found", async () => {
    const { repo, bin, marker } = plantedRepository('node_modules/.bin');
    const r = await runFromElsewhere(repo, bin, true);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(r.warnings).toEqual([
      expect.stringMatching(new RegExp(`^MCP server 'p' is left out: command 'mcp-planted' was found only at ${bin}/mcp-planted, which is not searched \\(directories inside the workspace ${repo}`)),
    ]);
  });

  it('nor from the repository around the workspace', async () => {
    const { repo, bin, marker } = plantedRepository('tools/bin');
    const workspace = path.join(repo, 'sub');
    fs.mkdirSync(workspace);
    const r = await runFromElsewhere(workspace, bin);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(r.warnings).toEqual([expect.stringMatching(/^MCP server 'p' is left out: command 'mcp-planted' was found only at /)]);
  });
});
