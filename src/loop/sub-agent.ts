// Sub-agents for the `task` tool: a nested runLoop with a fresh conversation, its own turn limit,
// a subset of the run's tools (never task: no recursion), the same policy judge, provider and
// AbortSignal, and the run-wide tool-call and token budget. Its events go to the run's sink tagged
// with the task call's id; its final answer is the task's result, a failure an error result.
import type { SubAgentRequest, SubAgentRunner } from '../tools/builtin/task.js';
import { ToolRegistry } from '../tools/registry.js';
import { errorResult, type ToolResult } from '../tools/tools.js';
import type { EventSink, RunEvent } from '../types/events.js';
import { ExitCode } from '../types/outcome.js';
import type { PolicyJudge } from './prepare.js';
import { runLoop, type LoopOptions } from './run-loop.js';

export const SUB_AGENT_MAX_TURNS = 25;

/** Tools a sub-agent never gets: no recursion, and the main agent's plan and task list stay its own. */
export const NOT_FOR_SUB_AGENTS: ReadonlySet<string> = new Set(['task', 'exit_plan_mode', 'todo_write']);

const SUB_AGENT_NOTE =
  'You are a sub-agent: another agent handed you the task below and sees nothing of your work but your final answer. ' +
  'Do the task with your tools, then end with a final answer that gives it everything it needs: findings, file paths, what you changed.';

/** What a sub-agent adds to the options of the loop that starts it. */
export interface SubAgentLimits {
  /** The sub-agent's own turn limit; turns, tool calls and tokens also count toward the run's, through the parent's budget. */
  maxTurns: number;
  /** The id of the task call being executed (calls that can change things run one at a time). */
  currentCallId: () => string | null;
}

/**
 * `parent` is the loop that offers the task tool, with the instructions a sub-agent starts from
 * (the main agent's without its answer format: a sub-agent answers in prose). The sub-agent shares
 * its provider, judge, budget and output cap, gets a subset of its tools and no hooks.
 */
export function subAgentRunner(parent: LoopOptions, sub: SubAgentLimits): SubAgentRunner {
  return async (request, signal) => {
    const tools = chooseTools(parent.registry, request);
    if (typeof tools === 'string') return errorResult('invalid_params', tools);
    const parentCallId = sub.currentCallId() ?? 'task';
    // The files its tools changed: the task's call changed them, as far as the main loop's history
    // goes (a read of one made before the task is no longer the file).
    const changed = new Set<string>();
    const emit: EventSink = (event) => {
      if (event.type === 'tool_result' && typeof event.return_display === 'object' && event.return_display !== null) changed.add(event.return_display.fileName);
      parent.emit({ ...event, parent_call_id: parentCallId } as RunEvent);
    };
    const result = await runLoop({
      ...parent,
      registry: tools,
      systemInstruction: `${parent.systemInstruction}\n\n${SUB_AGENT_NOTE}`,
      prompt: `Task: ${request.description}\n\n${request.prompt}`,
      // A fresh conversation: the repository's context files, never the main conversation so far.
      history: [],
      // Turns, denials, tool calls and tokens count across the run (the shared budget); the
      // sub-agent's own turn limit is on top of the run's max_turns, never instead of it.
      limits: { ...parent.limits, ownMaxTurns: sub.maxTurns },
      signal,
      emit,
      cap: { ...parent.cap, save: (text, name) => parent.cap.save(text, `${parentCallId}/${name}`) },
      hooks: undefined,
    });
    const summary = `${result.turns} turn${result.turns === 1 ? '' : 's'}, ${result.toolCalls} tool call${result.toolCalls === 1 ? '' : 's'}`;
    const changedFiles = changed.size > 0 ? { changedFiles: [...changed] } : {};
    if ((result.status === 'success' || result.status === 'denied') && result.finalAnswer !== null) {
      return { llmContent: result.finalAnswer, returnDisplay: `Sub-agent "${request.description}" finished (${summary})`, ...changedFiles };
    }
    return { ...failure(request, result, summary, signal), ...changedFiles };
  };
}

function chooseTools(all: ToolRegistry, request: SubAgentRequest): ToolRegistry | string {
  const allowed = all.all().filter((t) => !NOT_FOR_SUB_AGENTS.has(t.name));
  let chosen = allowed;
  if (request.tools !== null) {
    const names = new Set(request.tools);
    const unknown = request.tools.filter((name) => !allowed.some((t) => t.name === name));
    if (unknown.length > 0) {
      return `a sub-agent cannot be given ${unknown.map((n) => `'${n}'`).join(', ')}; it may have: ${allowed.map((t) => t.name).join(', ') || 'no tools'}`;
    }
    chosen = allowed.filter((t) => names.has(t.name));
  }
  const registry = new ToolRegistry();
  const names = chosen.map((t) => t.name);
  for (const tool of chosen) registry.register(tool.forTools(names));
  // Tools an MCP server adds or takes away while the sub-agent works (list_changed) reach it as they
  // reach the main loop: the run's list is brought up to date first, then the sub-agent's follows
  // it. A sub-agent given a list of tools keeps to that list; one given none gets each new tool a
  // sub-agent may have.
  const wanted = (name: string) => !NOT_FOR_SUB_AGENTS.has(name) && (request.tools === null || request.tools.includes(name));
  registry.follow(async (signal) =>
    (await all.refresh(signal, true)).flatMap((change) => {
      const removed = change.removed.filter((name) => registry.has(name));
      const kept = { added: change.added.filter(wanted), changed: change.changed.filter(wanted) };
      const tools = [...kept.added, ...kept.changed].map((name) => all.get(name)).filter((tool) => tool !== undefined);
      return removed.length + tools.length === 0 ? [] : [{ change: { server: change.server, ...kept, removed }, removed, tools }];
    }),
  );
  return registry;
}

function failure(request: SubAgentRequest, result: Awaited<ReturnType<typeof runLoop>>, summary: string, signal: AbortSignal): ToolResult {
  const why = result.error ?? `it ended with status ${result.status}`;
  const message = `the sub-agent "${request.description}" did not finish (${summary}): ${why}`;
  // A fatal tool error ends the whole run (exit 54), as it would in the main loop.
  if (result.exitCode === ExitCode.fatalTool) return errorResult('fatal', message);
  if (signal.aborted) return errorResult('aborted', message);
  return errorResult('execution_failed', message);
}

/**
 * task asks for no rule of its own: each of the sub-agent's calls is judged by the policy, which is
 * where the decisions are. Deny rules (`- task`) still refuse it.
 */
export function judgeTaskWithoutConfirmation(judge: PolicyJudge): PolicyJudge {
  return async (question) => {
    if (question.tool !== 'task') return judge(question);
    const decision = await judge({ ...question, confirmation: false });
    if (decision.decision === 'deny') return decision;
    return { ...decision, reason: 'task needs no confirmation: each call of the sub-agent is judged by the policy' };
  };
}
