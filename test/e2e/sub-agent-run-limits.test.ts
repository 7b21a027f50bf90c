// The run's budgets bind the whole run, sub-agents included: a budget spent inside a sub-agent ends
// the run at that limit, as one spent by the main agent does. max_turns and max_tokens did; the run's
// max_tool_calls, met inside a sub-agent, stopped only the sub-agent: the main agent answered next
// and the run ended `success`, exit 0, report.limit null, though its stderr had just said
// "sub-agent stopped: the run's max_tool_calls (2)" and a call it asked for never ran.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cleanupTempDirs, tempDir, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

const shell = (command: string) => ({ calls: [{ name: 'shell', args: { command } }] });
const task = { calls: [{ name: 'task', args: { description: 'work', prompt: 'Do the work.' } }] };

describe("the run's budgets met inside a sub-agent", () => {
  it('max_tool_calls: the run ends limit, exit 55, and the sub-agent reads limit', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, limits: { max_tool_calls: 2 } }, [
      task, // call 1
      shell('echo one'), // the sub-agent's call: 2
      shell('echo two > two.txt'), // 3: past the run's limit, never run
      { text: 'The sub-agent did the work.' },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.stderr).toContain("sub-agent stopped: the run's max_tool_calls (2)");
    expect(r.code, r.stderr).toBe(55);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'max_tool_calls', final_answer: null });
    expect(report.error).toContain('max_tool_calls (2)');
    expect(report.sub_agents).toEqual([expect.objectContaining({ description: 'work', status: 'limit' })]);
  });

  it('max_tokens (already ending the run): the sub-agent reads limit too, not error', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, limits: { max_tokens: 100 } }, [
      { ...task, usage: { input: 5, output: 1 } },
      { ...shell('echo one'), usage: { input: 500, output: 1 } },
      { text: 'The sub-agent did the work.' },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(55);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'max_tokens' });
    expect(report.sub_agents).toEqual([expect.objectContaining({ description: 'work', status: 'limit' })]);
  });

  it('max_denials: the run ends denied, exit 57, and so does its sub-agent, in the same word', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'deny' }, sandbox: { mode: 'off' }, limits: { max_denials: 1 } }, [
      task,
      { calls: [{ name: 'shell', args: { command: 'echo one' } }, { name: 'shell', args: { command: 'echo two' } }] },
      { text: 'The sub-agent did the work.' },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(57);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'denied', limit: 'max_denials' });
    expect(report.sub_agents).toEqual([expect.objectContaining({ description: 'work', status: 'denied' })]);
  });

  it('fail_on_denial: the first denial, made by a sub-agent, ends the run denied, exit 57, and the sub-agent reads denied too', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'deny' }, sandbox: { mode: 'off' }, fail_on_denial: true }, [
      task,
      shell('echo one'),
      { text: 'The sub-agent did the work.' },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(57);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'denied', exit_code: 57 });
    expect(report.sub_agents).toEqual([expect.objectContaining({ description: 'work', status: 'denied' })]);
  });

  it('a sub-agent that fails at its work, with no denial, still reads error under fail_on_denial', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, fail_on_denial: true }, [
      task,
      { text: '' },
      { text: 'The sub-agent gave no answer.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.sub_agents).toEqual([expect.objectContaining({ description: 'work', status: 'error' })]);
  });

  // The turn that asked for the task asked for more after it: a sub-agent that ended the run must
  // end that turn too. Before, the next call ran: a shell command after fail_on_denial, a second
  // sub-agent whose model request was billed past max_tokens.
  const laterCalls = {
    calls: [
      { name: 'task', args: { description: 'first', prompt: 'Do the work.' } },
      { name: 'task', args: { description: 'second', prompt: 'Do more.' } },
      { name: 'shell', args: { command: 'touch ran-after' } },
    ],
  };

  it('fail_on_denial met in a sub-agent: no later call of the same turn runs, no second sub-agent starts', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe(
      { prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'allowlist', allow: [{ shell: 'touch *' }] }, sandbox: { mode: 'off' }, fail_on_denial: true },
      [laterCalls, shell('rm -rf stuff'), { text: 'The second sub-agent answered.' }, { text: 'All done.' }],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(57);
    expect(fs.existsSync(path.join(ws, 'ran-after'))).toBe(false);
    const { report, events } = readRun(out);
    expect(report.sub_agents.map((s: { description: string }) => s.description)).toEqual(['first']);
    expect(events.filter((e) => e.type === 'model_request')).toHaveLength(2);
  });

  it('max_tokens spent by a sub-agent: no second sub-agent asks the model for more, no later call runs', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, limits: { max_tokens: 1000 } }, [
      laterCalls,
      { text: 'The first sub-agent answered.', usage: { input: 5000, output: 10 } },
      { text: 'The second sub-agent answered.', usage: { input: 5000, output: 10 } },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(55);
    expect(fs.existsSync(path.join(ws, 'ran-after'))).toBe(false);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'max_tokens' });
    expect(report.usage.total).toBe(5010);
    expect(report.sub_agents.map((s: { description: string }) => s.description)).toEqual(['first']);
  });
  it('max_turns spent by a sub-agent: no second sub-agent starts, no later call runs', async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Delegate.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, limits: { max_turns: 3 } }, [
      laterCalls, // request 1
      shell('echo one'), // request 2: the first sub-agent's
      shell('echo two'), // request 3: the run's last
      { text: 'The second sub-agent answered.' },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(53);
    expect(fs.existsSync(path.join(ws, 'ran-after'))).toBe(false);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'max_turns', tool_calls: { total: 3 } });
    expect(report.sub_agents.map((s: { description: string }) => s.description)).toEqual(['first']);
    expect(events.filter((e) => e.type === 'tool_call' && e.name === 'task')).toHaveLength(1);
  });

  it("max_turns met by the main agent's own request: that turn's calls still run", async () => {
    const ws = tempDir();
    const { file, out } = writeRecipe({ prompt: 'Work.', workspace: ws, tools: ['shell', 'task'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' }, limits: { max_turns: 2 } }, [
      shell('echo one'),
      { calls: [{ name: 'shell', args: { command: 'echo two' } }, { name: 'shell', args: { command: 'touch ran-after' } }] },
      { text: 'All done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(53);
    expect(fs.existsSync(path.join(ws, 'ran-after'))).toBe(true);
  });
});
