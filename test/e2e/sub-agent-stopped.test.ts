// A sub-agent stopped with the run (Ctrl-C, SIGTERM, the run's --timeout) did not fail at its work:
// report.sub_agents must say it was stopped, in the run's own words. It said `error`, beside a
// run status of `cancelled` (or `limit`), as if the sub-agent had broken.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

/** A run whose sub-agent's shell call sleeps; `stop` ends it while that call runs. */
async function stopInsideSubAgent(flags: string[], stop: (child: ReturnType<typeof execa>) => void) {
  const ws = tempDir();
  const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } }, [
    { calls: [{ name: 'task', args: { description: 'slow work', prompt: 'Wait.' } }] },
    { calls: [{ name: 'shell', args: { command: 'sleep 30' } }] },
    { text: 'sub-agent done' },
    { text: 'Done.' },
  ]);
  const child = execa(process.execPath, [CLI, 'run', file, '--out', out, ...flags], { env: baseEnv(), extendEnv: false, reject: false, timeout: 60_000 });
  const transcript = path.join(out, 'transcript.jsonl');
  const deadline = Date.now() + 30_000;
  while (!(fs.existsSync(transcript) && fs.readFileSync(transcript, 'utf8').includes('"sleep 30"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  stop(child);
  const r = await child;
  return { code: r.exitCode, stderr: String(r.stderr), ...readRun(out) };
}

describe('a sub-agent stopped with the run', () => {
  it('SIGTERM: the run and its sub-agent are both cancelled', async () => {
    const r = await stopInsideSubAgent([], (child) => child.kill('SIGTERM'));
    expect(r.code, r.stderr).toBe(143);
    expect(r.report.status).toBe('cancelled');
    expect(r.report.sub_agents).toEqual([expect.objectContaining({ description: 'slow work', status: 'cancelled' })]);
    expect(r.reportMd).toMatch(/\| slow work \| cancelled \|/);
  });

  it("the run's --timeout: the sub-agent was stopped at a limit, as the run was", async () => {
    const r = await stopInsideSubAgent(['--timeout', '3s'], () => {});
    expect(r.code, r.stderr).toBe(55);
    expect(r.report).toMatchObject({ status: 'limit', limit: 'timeout' });
    expect(r.report.sub_agents).toEqual([expect.objectContaining({ description: 'slow work', status: 'limit' })]);
  });
});
