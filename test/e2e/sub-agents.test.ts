// The task tool through the built CLI: a sub-agent with a subset of the tools, the same policy, its
// own turn limit, events tagged with the task call, and its answer as the tool result.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cleanupTempDirs, workspace, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

const u = (input: number) => ({ input, output: 10 });

describe('task: sub-agents', () => {
  it("runs a sub-agent on a subset of the tools and returns its answer; events and report count it", async () => {
    const ws = await workspace('rename');
    const { file, out } = writeRecipe(
      {
        prompt: 'Find where addNumbers is defined, then rename it to sumOf there.',
        workspace: ws,
        tools: ['grep', 'read_file', 'edit', 'task'],
        confirmation: { mode: 'allowlist', allow: [{ edit: 'src/**' }] },
      },
      [
        { calls: [{ name: 'task', args: { description: 'find addNumbers', prompt: 'Where is addNumbers defined?', tools: ['grep', 'read_file'] } }], usage: u(100) },
        { calls: [{ name: 'grep', args: { pattern: 'function addNumbers' } }], usage: u(200) },
        { calls: [{ name: 'edit', args: { file_path: '{{workspace}}/src/math.js', old_string: 'a', new_string: 'b' } }], usage: u(300) },
        { text: 'Defined in src/math.js, line 1.', usage: u(400) },
        { calls: [{ name: 'edit', args: { file_path: '{{workspace}}/src/math.js', old_string: 'function addNumbers', new_string: 'function sumOf' } }], usage: u(500) },
        { text: 'Renamed the definition in src/math.js.', usage: u(600) },
      ],
    );
    const r = await cli(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('Renamed the definition in src/math.js.');
    expect(fs.readFileSync(path.join(ws, 'src/math.js'), 'utf8')).toContain('function sumOf(a, b)');

    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('success');
    expect(report.turns).toBe(3); // the main agent's own; the sub-agent's are counted per task
    expect(report.usage.input).toBe(2100); // every turn's tokens, the sub-agent's included
    expect(report.sub_agents).toEqual([{ call_id: 'call_1_0', description: 'find addNumbers', status: 'success', turns: 3, tool_calls: 2 }]);
    expect(report.tool_calls.by_tool).toMatchObject({ task: { success: 1 }, grep: { success: 1 }, edit: { success: 1, error: 1 } });
    expect(reportMd).toMatch(/## Sub-agents[\s\S]*\| find addNumbers \| success \| 3 \| 2 \|/);

    const tagged = events.filter((e) => e.parent_call_id === 'call_1_0');
    expect(tagged.map((e) => e.type)).toEqual([
      'model_request', 'model_response', 'tool_call', 'tool_result',
      'model_request', 'model_response', 'tool_call', 'tool_result',
      'model_request', 'model_response',
    ]);
    // edit was not given to the sub-agent: it does not exist there.
    const subEdit = tagged.find((e) => e.type === 'tool_result' && e.name === 'edit');
    expect(subEdit?.error_type).toBe('unknown_tool');
    expect(subEdit?.llm_content).toMatch(/Available tools: grep, read_file\.$/);
    // task needs no rule of its own; its result is the sub-agent's answer.
    const taskCall = events.find((e) => e.type === 'tool_call' && e.name === 'task');
    expect(taskCall?.decision).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/each call of the sub-agent is judged/) });
    const taskResult = events.find((e) => e.type === 'tool_result' && e.name === 'task');
    expect(taskResult?.parent_call_id).toBeUndefined();
    expect(taskResult?.llm_content).toBe('Defined in src/math.js, line 1.');
  });

  it("holds the sub-agent to the run's policy and to its own turn limit: the task fails, the run goes on", async () => {
    const ws = await workspace('rename');
    const greps = Array.from({ length: 24 }, (_, i) => ({ calls: [{ name: 'grep', args: { pattern: `sumOf${i}` } }] }));
    const { file, out } = writeRecipe(
      {
        prompt: 'Update the README.',
        workspace: ws,
        tools: ['grep', 'edit', 'task'],
        confirmation: { mode: 'allowlist', allow: [{ edit: 'src/**' }] },
      },
      [
        { calls: [{ name: 'task', args: { description: 'update README', prompt: 'Mention sumOf in README.md.' } }] },
        { calls: [{ name: 'edit', args: { file_path: '{{workspace}}/README.md', old_string: 'addNumbers', new_string: 'sumOf' } }] },
        ...greps, // the sub-agent's 25 turns, its own limit
        { text: 'The sub-agent could not update the README.' },
      ],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("sub-agent stopped: its own turn limit (25)");
    expect(r.stderr).not.toMatch(/^ {2}\S+ limit reached/m);
    const { report, events } = readRun(out);
    expect(report.status).toBe('denied');
    expect(report.limit).toBeNull();
    expect(report.denials).toEqual([expect.objectContaining({ tool: 'edit', reason: expect.stringMatching(/README\.md.*not covered/) })]);
    expect(report.sub_agents[0]).toMatchObject({ status: 'error', turns: 25, tool_calls: 25 });
    const limit = events.find((e) => e.type === 'limit');
    expect(limit).toMatchObject({ limit: 'sub_agent_max_turns', value: 25, parent_call_id: 'call_1_0' });
    const taskResult = events.find((e) => e.type === 'tool_result' && e.name === 'task');
    expect(taskResult?.error_type).toBe('execution_failed');
    expect(taskResult?.llm_content).toMatch(/sub-agent "update README" did not finish \(25 turns, 25 tool calls\): limit reached: the sub-agent's own turn limit \(25\)/);
    expect(fs.readFileSync(path.join(ws, 'README.md'), 'utf8')).toContain('addNumbers');
  });

  it("bounds every model request of the run by max_turns, sub-agents' included: 10 means 10", async () => {
    const ws = await workspace('rename');
    const task = (i: number) => ({ calls: [{ name: 'task', args: { description: `look ${i}`, prompt: 'Look around.' } }] });
    const grep = (i: number) => ({ calls: [{ name: 'grep', args: { pattern: `x${i}` } }] });
    // One task call, then its sub-agent searches until the run's turns are spent. A request past
    // the tenth would find the script exhausted and fail the run differently.
    const { file, out } = writeRecipe(
      { prompt: 'Explore.', workspace: ws, tools: ['grep', 'task'], confirmation: { mode: 'deny' }, limits: { max_turns: 10 } },
      [task(0), ...Array.from({ length: 9 }, (_, i) => grep(i))],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(53);
    expect(r.stderr).toContain("sub-agent stopped: the run's max_turns (10)");
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'max_turns', turns: 1 });
    expect(report.sub_agents[0]).toMatchObject({ turns: 9 });
    // The report's turns are the agent's own: the error says where the other nine went.
    expect(report.error).toBe('limit reached: max_turns (10: 1 model request of the agent, 9 of its sub-agents)');
    expect(events.filter((e) => e.type === 'model_request')).toHaveLength(10);
  });

  it('a task call the policy refused, or whose parameters were invalid, started no sub-agent: none is listed', async () => {
    const ws = await workspace('rename');
    const { file, out } = writeRecipe(
      { prompt: 'Explore.', workspace: ws, tools: ['grep', 'task'], confirmation: { mode: 'auto-approve', deny: ['task'] } },
      [
        { calls: [{ name: 'task', args: { description: 'look around', prompt: 'Look around.' } }] },
        { calls: [{ name: 'task', args: { description: 'no prompt' } }] },
        { text: 'Could not delegate.' },
      ],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('denied');
    expect(report.denials).toEqual([expect.objectContaining({ tool: 'task', args: { description: 'look around', prompt: 'Look around.' } })]);
    expect(report.tool_calls.by_tool.task).toMatchObject({ denied: 1, error: 1, success: 0 });
    expect(events.filter((e) => e.parent_call_id !== undefined)).toEqual([]);
    expect(report.sub_agents).toEqual([]);
    expect(reportMd).not.toContain('## Sub-agents');
  });

  it.each([
    ['no rule needed, even in deny mode', { mode: 'deny' }, 'allow'],
    ['a deny rule refuses it', { mode: 'auto-approve', deny: ['task'] }, 'deny'],
  ])('policy check for task: %s', async (_name, confirmation, decision) => {
    const ws = await workspace('rename');
    const { file } = writeRecipe({ prompt: 'x', workspace: ws, tools: ['grep', 'task'], confirmation });
    const r = await cliInProcess(['policy', 'check', file, '--tool', 'task', '--args', JSON.stringify({ description: 'd', prompt: 'p' })]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).decision).toBe(decision);
  });
});
