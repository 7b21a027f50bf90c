// stream-json that the parsers people already have for Claude Code and Qwen Code read: besides our
// own events, the stream opens with a `system`/`init` message, mirrors each model turn as an
// `assistant` message and each tool result as a `user` message (content blocks, as their SDKs
// type them), and closes with a `result` message. Field names follow those tools' documented SDK
// message types; values come from our events and the report alone. Only the documented result
// subtypes are used (success, error_max_turns, error_max_budget_usd, error_during_execution):
// parsers with a closed enum of subtypes would reject any other.
import type { RunEvent } from '../types/events.js';
import type { TokenUsage } from '../types/content.js';
import type { Report } from './report.js';
import { randomUuid } from '../util/random-name.js';

export type PeerMessage = Record<string, unknown> & { type: 'system' | 'assistant' | 'user' | 'result' };

type RunStart = Extract<RunEvent, { type: 'run_start' }>;

/**
 * Follows the run's events and says which peer-shaped messages go with each: `before` a run_start
 * (the init), `after` a model response, a tool result and the run's end (the result, built from
 * the report folded so far).
 */
export class PeerStream {
  private model = 'none';
  private apiMs = 0;
  private readonly denials: Array<{ tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }> = [];
  /** Calls the policy allowed, in case a tool refuses them while running (a redirect to another host). */
  private readonly allowed = new Map<string, Record<string, unknown>>();

  constructor(private readonly runId: string) {}

  before(event: RunEvent): PeerMessage[] {
    if (event.type !== 'run_start') return [];
    this.model = event.model;
    return [this.init(event)];
  }

  after(event: RunEvent, report: () => Report): PeerMessage[] {
    switch (event.type) {
      case 'model_response':
        this.apiMs += event.duration_ms;
        return [this.assistant(event)];
      case 'tool_call':
        this.noteDecision(event);
        return [];
      case 'tool_result':
        if (event.error_type === 'policy_denied' && this.allowed.has(callKey(event))) {
          this.denials.push({ tool_name: event.name, tool_use_id: event.call_id, tool_input: this.allowed.get(callKey(event))! });
        }
        return [this.toolResult(event)];
      case 'run_end':
        return [this.result(report())];
      default:
        return [];
    }
  }

  private init(start: RunStart): PeerMessage {
    const servers = [...new Set(start.tools.filter((t) => t.includes('__')).map((t) => t.slice(0, t.indexOf('__'))))];
    return {
      type: 'system',
      subtype: 'init',
      uuid: randomUuid(),
      session_id: this.runId,
      // A run refused before its recipe was built has no workspace yet: the directory it was started in, as Claude Code names its own.
      cwd: start.workspace || process.cwd(),
      model: start.model,
      tools: start.tools,
      // Each of the recipe's servers, as Claude Code lists them: one that failed to start says so.
      mcp_servers: start.mcp_servers?.map(({ name, status }) => ({ name, status })) ?? servers.map((name) => ({ name, status: 'connected' })),
      permissionMode: permissionMode(start.policy.mode),
      // Ours, beside theirs: the policy as the recipe states it.
      provider: start.provider,
      policy: start.policy,
      recipe: start.recipe,
    };
  }

  private assistant(event: Extract<RunEvent, { type: 'model_response' }>): PeerMessage {
    const content: Array<Record<string, unknown>> = [];
    if (event.text) content.push({ type: 'text', text: event.text });
    for (const [i, call] of event.function_calls.entries()) {
      content.push({ type: 'tool_use', id: call.id ?? `call_${event.turn}_${i}`, name: call.name, input: call.args });
    }
    return {
      type: 'assistant',
      uuid: randomUuid(),
      session_id: this.runId,
      parent_tool_use_id: event.parent_call_id ?? null,
      message: {
        id: `${event.parent_call_id ? `${event.parent_call_id}-` : ''}turn-${event.turn}`,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content,
        stop_reason: stopReason(event.finish_reason, event.function_calls.length > 0),
        usage: peerUsage(event.usage),
      },
    };
  }

  private toolResult(event: Extract<RunEvent, { type: 'tool_result' }>): PeerMessage {
    return {
      type: 'user',
      uuid: randomUuid(),
      session_id: this.runId,
      parent_tool_use_id: event.parent_call_id ?? null,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: event.call_id, content: resultText(event.llm_content), is_error: event.error_type !== null }],
      },
    };
  }

  private noteDecision(event: Extract<RunEvent, { type: 'tool_call' }>): void {
    if (event.decision?.decision === 'deny') this.denials.push({ tool_name: event.name, tool_use_id: event.call_id, tool_input: event.args });
    else if (event.decision?.decision === 'allow') this.allowed.set(callKey(event), event.args);
  }

  private result(report: Report): PeerMessage {
    const isError = report.exit_code !== 0;
    return {
      type: 'result',
      subtype: resultSubtype(report),
      uuid: randomUuid(),
      session_id: this.runId,
      is_error: isError,
      duration_ms: report.duration_ms,
      duration_api_ms: this.apiMs,
      num_turns: report.turns,
      result: report.final_answer ?? '',
      // Unknown prices count as 0 here (their parsers want a number); report.json leaves cost_usd out then.
      total_cost_usd: report.usage.cost_usd ?? 0,
      usage: peerUsage(report.usage),
      permission_denials: this.denials,
      ...(report.structured_output !== null ? { structured_output: report.structured_output } : {}),
      ...(report.error ? { errors: [report.error] } : {}),
      // Ours, beside theirs: the status and exit code every other output of the run names.
      status: report.status,
      exit_code: report.exit_code,
    };
  }
}

/** Their permission modes: `bypassPermissions` approves every call, `dontAsk` refuses what no rule pre-approves. */
function permissionMode(mode: string): string {
  if (mode === 'auto-approve') return 'bypassPermissions';
  return 'dontAsk';
}

function resultSubtype(report: Report): string {
  if (report.exit_code === 0) return 'success';
  if (report.status === 'limit' && report.limit === 'max_turns') return 'error_max_turns';
  if (report.status === 'limit' && report.limit === 'max_cost_usd') return 'error_max_budget_usd';
  return 'error_during_execution';
}

/** Their stop reasons where ours has one of the same meaning (`max_tokens`, `refusal` are the same word). */
function stopReason(finish: string, calledTools: boolean): string {
  if (finish === 'stop' || finish === 'tool_calls') return calledTools ? 'tool_use' : 'end_turn';
  return finish;
}

/** Their usage counts input without the cached part; ours counts every input token. */
function peerUsage(usage: TokenUsage): Record<string, number> {
  const cacheRead = usage.cached ?? 0;
  const cacheWrite = usage.cache_write ?? 0;
  return {
    input_tokens: Math.max(0, usage.input - cacheRead - cacheWrite),
    output_tokens: usage.output,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : JSON.stringify(part))).join('\n');
  }
  return JSON.stringify(content);
}

function callKey(event: { call_id: string; parent_call_id?: string }): string {
  return event.parent_call_id === undefined ? event.call_id : `${event.parent_call_id}/${event.call_id}`;
}
