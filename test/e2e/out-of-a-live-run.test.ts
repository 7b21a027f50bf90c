// Two runs given the same --out, the second started while the first still opens (its MCP servers
// starting: its transcript is there, empty, until its run_start): the second used to go on, and
// both wrote into one transcript, which then folded into one report of two runs. The first run's
// run.pid names it from the moment its directory is opened: the second is refused, exit 42, and
// the first one's record is its own.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, cli, ROOT, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('an --out a run still going holds', () => {
  it('is refused while that run still starts (its transcript still empty), leaving its record alone', async () => {
    const dir = tempDir('unattended-out-live-');
    const out = path.join(dir, 'run');
    const config = path.join(dir, 'mcp.json');
    // A server that never answers initialize: the first run waits in its start-up.
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { silent: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/mcp/silent-server.mjs')] } } }));
    const script = path.join(dir, 'turns.yaml');
    fs.writeFileSync(script, 'turns:\n  - text: done\n');
    const args = ['-p', 'hi', '--provider', 'scripted', '--script', script, '--out', out];
    const first = execa(process.execPath, [CLI, ...args, '--mcp-config', config], { cwd: dir, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    try {
      for (let i = 0; i < 400 && !fs.existsSync(path.join(out, 'run.pid')); i++) await new Promise((r) => setTimeout(r, 50));
      expect(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8')).toBe('');
      const second = await cli(args, { cwd: dir });
      expect([second.code, second.stderr], second.stdout).toEqual([42, expect.stringContaining(`--out ${out} belongs to a run still going (pid ${first.pid})`)]);
      expect(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8')).toBe('');
      // Its report, asked for now, says it is starting, not that this is no run's transcript.
      const report = await cli(['report', out], { cwd: dir });
      expect([report.code, report.stderr]).toEqual([42, expect.stringContaining(`the run is still going (pid ${first.pid}) and has recorded nothing yet`)]);
      expect(report.stderr).not.toContain('holds no run events');
    } finally {
      first.kill('SIGTERM');
      await first;
    }
    // The first run's record holds it alone.
    const ids = new Set(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).run_id));
    expect(ids.size).toBe(1);
  }, 60_000);
});
