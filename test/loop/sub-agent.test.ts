// Sub-agents in process: the run-wide budget they share with the main loop, and a fatal tool error
// inside one ending the whole run.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/types/events.js';
import { newBudget } from '../../src/loop/loop-hooks.js';
import { runLoop } from '../../src/loop/run-loop.js';
import { subAgentRunner } from '../../src/loop/sub-agent.js';
import { ScriptedProvider, type ScriptedTurn } from '../../src/providers/scripted.js';
import { TaskTool } from '../../src/tools/builtin/task.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { BaseTool, errorResult, type ToolResult } from '../../src/tools/tools.js';

/** Answers "pong", or a fatal error when asked to. */
class PingTool extends BaseTool<{ fatal?: boolean }> {
  readonly name = 'ping';
  readonly displayName = 'Ping';
  readonly description = 'ping';
  readonly parameterSchema = { type: 'object', properties: { fatal: { type: 'boolean' } }, additionalProperties: false };
  readonly kind = 'read' as const;
  getDescription(): string {
    return 'ping';
  }
  async shouldConfirmExecute(): Promise<false> {
    return false;
  }
  async execute(params: { fatal?: boolean }): Promise<ToolResult> {
    return params.fatal ? errorResult('fatal', 'the disk is full') : { llmContent: 'pong', returnDisplay: 'pong' };
  }
}

async function run(turns: ScriptedTurn[], maxToolCalls: number | null) {
  const provider = new ScriptedProvider(turns, '/ws', 'script.yaml');
  const events: RunEvent[] = [];
  const emit = (e: RunEvent) => events.push(e);
  const budget = newBudget();
  const registry = new ToolRegistry();
  const limits = { maxTurns: 10, maxToolCalls, maxTokens: null };
  const judge = async () => ({ decision: 'allow' as const, reason: 'test', rule: null });
  const cap = { threshold: 10_000, save: () => '/nonexistent' };
  const options = { provider, registry, judge, systemInstruction: 'sys', prompt: 'go', limits, signal: new AbortController().signal, emit, cap, budget };
  registry.register(new PingTool());
  registry.register(new TaskTool(subAgentRunner(options, { maxTurns: 5, currentCallId: () => 'call_1_0' })));
  const result = await runLoop(options);
  return { result, events, budget };
}

const task = { name: 'task', args: { description: 'ping twice', prompt: 'Ping.' } };

describe('sub-agents share the run budget', () => {
  it('counts their tool calls against max_tool_calls: the sub-agent is stopped, then the main loop', async () => {
    const { result, events, budget } = await run(
      [
        { calls: [task] },
        { calls: [{ name: 'ping', args: {} }] },
        { calls: [{ name: 'ping', args: {} }] }, // the third call of the run: over the budget
        { calls: [{ name: 'ping', args: {} }] }, // the main loop tries again
      ],
      2,
    );
    const taskResult = events.find((e) => e.type === 'tool_result' && e.name === 'task');
    expect(taskResult).toMatchObject({ error_type: 'execution_failed', llm_content: expect.stringMatching(/limit reached: max_tool_calls \(2\)/) });
    expect(result).toMatchObject({ status: 'limit', exitCode: 55 });
    expect(budget.toolCalls).toBe(2);
  });

  it('ends the whole run on a fatal tool error inside a sub-agent (exit 54)', async () => {
    const { result, events } = await run([{ calls: [task] }, { calls: [{ name: 'ping', args: { fatal: true } }] }, { text: 'unreachable' }], null);
    expect(events.find((e) => e.type === 'tool_result' && e.name === 'task')).toMatchObject({ error_type: 'fatal' });
    expect(result).toMatchObject({ status: 'failed', exitCode: 54, error: expect.stringMatching(/the disk is full/) });
  });
});
