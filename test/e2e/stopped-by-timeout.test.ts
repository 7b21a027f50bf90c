// A call stopped by a timeout that is not its own: the run's wall-clock timeout, or the
// limits.tool_timeout of the task whose sub-agent made it. The tool sees only a cancelled signal,
// so a shell call read "command cancelled; its process group was killed / Killed by SIGTERM", as
// if someone had stopped the run, beside a task result that said timeout. It says which timeout
// stopped it now, in the transcript, the report's tally and the progress lines, and its process
// group is gone all the same.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { processesWith } from '../helpers/processes.js';

afterAll(removeTempDirs);

/** A run of the scripted model with shell and task; its tool results as [name, error_type, content]. */
async function run(limits: string, turns: unknown[], flags: string[] = []) {
  const { r, report, events } = await runEvents(limits, turns, flags);
  return { r, report, results: events.filter((e) => e.type === 'tool_result').map((e) => [e.name, e.error_type, e.llm_content]) };
}

async function runEvents(limits: string, turns: unknown[], flags: string[] = []) {
  const root = tempDir('unattended-stopped-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(root, 'recipe.yaml'), `version: 1\nconfirmation: {mode: auto-approve}\ntools: [shell, task]\n${limits}`);
  fs.writeFileSync(path.join(root, 'turns.yaml'), JSON.stringify({ turns }));
  const out = path.join(root, 'run');
  const r = await cliInProcess(['run', path.join(root, 'recipe.yaml'), '--provider', 'scripted', '--script', path.join(root, 'turns.yaml'), '-p', 'go', '--workspace', ws, '--out', out, ...flags]);
  const { events, report } = readRun(out);
  return { r, report, events };
}

const sleep = () => `sleep ${40 + Math.floor(Math.random() * 1000)}.${process.pid}`;

describe('a call stopped by a timeout not its own', () => {
  it("a sub-agent's shell call, when its task runs past limits.tool_timeout, says the task's timeout stopped it", async () => {
    const command = sleep();
    const { r, results } = await run('limits: {tool_timeout: 1500ms}\n', [
      { calls: [{ name: 'task', args: { description: 'look', prompt: 'Look around.' } }] },
      { calls: [{ name: 'shell', args: { command } }] },
      { text: 'The task timed out.' },
    ]);
    expect(results).toEqual([
      ['shell', 'timeout', 'Error: shell was stopped: the task call that ran it (call_1_0) timed out after 1500 ms (limits.tool_timeout)\nKilled by SIGTERM (no output)'],
      ['task', 'timeout', 'Error: task timed out after 1500 ms (limits.tool_timeout) and was stopped'],
    ]);
    expect(r.stderr).toContain('✗ shell: sleep');
    expect(r.stderr).not.toContain('— aborted');
    expect(processesWith(command)).toEqual([]);
  });

  it("a sub-agent's shell call, and a main one, stopped by the run's --timeout say the run's timeout stopped them", async () => {
    const command = sleep();
    const sub = await run('', [{ calls: [{ name: 'task', args: { description: 'look', prompt: 'Look around.' } }] }, { calls: [{ name: 'shell', args: { command } }] }], ['--timeout', '2s']);
    expect(sub.r.code).toBe(55);
    expect(sub.results[0]).toEqual(['shell', 'timeout', "Error: shell was stopped: the run reached its wall-clock timeout (2s)\nKilled by SIGTERM (no output)"]);
    // The task's own result says why its sub-agent did not finish; the report reads it as the run's limit.
    expect(sub.results[1]).toEqual(['task', 'aborted', expect.stringContaining('limit reached: timeout (2s)')]);
    expect(sub.report.sub_agents).toEqual([expect.objectContaining({ status: 'limit' })]);
    const main = await run('', [{ calls: [{ name: 'shell', args: { command } }] }, { text: 'never' }], ['--timeout', '2s']);
    expect([main.r.code, main.results]).toEqual([55, [['shell', 'timeout', "Error: shell was stopped: the run reached its wall-clock timeout (2s)\nKilled by SIGTERM (no output)"]]]);
    expect(main.report.tool_calls.errors_by_type).toEqual({ timeout: 1 });
    expect(processesWith(command)).toEqual([]);
  });

  it('what the call had written, binary output described to the model, is still saved whole under tool-outputs/', async () => {
    const command = `printf 'BIN\\000\\001\\002'; ${sleep()}`;
    const { r, events } = await runEvents('', [{ calls: [{ name: 'shell', args: { command } }] }, { text: 'never' }], ['--timeout', '2s']);
    expect(r.code).toBe(55);
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(result.llm_content).toMatch(/^Error: shell was stopped: the run reached its wall-clock timeout \(2s\)\n[\s\S]*binary output/);
    expect(result.saved_output).toEqual(expect.any(String));
    expect(fs.readFileSync(result.saved_output, 'utf8')).toContain('BIN\u0000\u0001\u0002');
  });
});
