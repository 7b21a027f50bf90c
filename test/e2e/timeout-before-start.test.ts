// The run's --timeout met while the session still opens (an MCP server slow to start, a big
// workspace_mode: copy): the transcript and stream-json must still begin with run_start (stream-json:
// system/init), as every other run's do. The timeout's `limit` event was written the moment it
// fired, ahead of run_start: the first line of the transcript was `limit`, and a stream-json
// consumer waiting for init first got a limit event instead.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

function slowServerRecipe() {
  const dir = tempDir();
  const server = path.join(dir, 'slow-mcp.sh');
  // Never answers initialize within the run's timeout.
  fs.writeFileSync(server, '#!/bin/sh\nsleep 20\n', { mode: 0o755 });
  return writeRecipe({ prompt: 'List.', workspace: tempDir(), tools: ['ls'], confirmation: { mode: 'auto-approve' }, mcp_servers: { slow: { command: server } } }, [{ text: 'Done.' }], dir);
}

describe('the run timeout met before the run started', () => {
  it('the transcript begins with run_start; the limit follows it, and the report names it', async () => {
    const { file, out } = slowServerRecipe();
    const r = await cli(['run', file, '--out', out, '--timeout', '2s']);
    expect(r.code, r.stderr).toBe(55);
    const { events, report } = readRun(out);
    expect(events[0]!.type).toBe('run_start');
    expect(events.filter((e) => e.type === 'limit')).toEqual([expect.objectContaining({ limit: 'timeout', value: 2000 })]);
    expect(events.findIndex((e) => e.type === 'limit')).toBeGreaterThan(0);
    expect(report).toMatchObject({ status: 'limit', limit: 'timeout', exit_code: 55 });
    // The banner comes before the limit's line on stderr too.
    expect(r.stderr.indexOf('limit reached: timeout')).toBeGreaterThan(r.stderr.indexOf('scripted/scripted'));
  });

  it('stream-json: system/init is the first line', async () => {
    const { file, out } = slowServerRecipe();
    const r = await cli(['run', file, '--out', out, '--timeout', '2s', '--output-format', 'stream-json']);
    expect(r.code, r.stderr).toBe(55);
    const lines = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'limit', exit_code: 55 });
  });
});
