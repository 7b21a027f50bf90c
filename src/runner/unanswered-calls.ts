// Tool calls recorded as started (a tool_call event) whose result never came: a forced exit (a
// second Ctrl-C, or a run that did not wind down within its grace) leaves while they run, their
// process groups killed. Each is answered in the transcript as the normal path answers a call the
// run's stop cut short, so the report (a fold that counts a call at its result) does not say
// "0 tool calls" for a run whose command ran, and a rebuilt report says the same.
import type { RunEvent } from '../types/events.js';

type ToolCall = Extract<RunEvent, { type: 'tool_call' }>;
type ToolResult = Extract<RunEvent, { type: 'tool_result' }>;

const STOPPED = 'Error: the run was stopped while this call ran; its process group was killed';

export class UnansweredCalls {
  private readonly open = new Map<string, { call: ToolCall; startedMs: number }>();

  observe(event: RunEvent): void {
    if (event.type === 'tool_call') this.open.set(keyOf(event), { call: event, startedMs: Date.now() });
    else if (event.type === 'tool_result') this.open.delete(keyOf(event));
  }

  /** A result for each call still running, in the order they started. */
  results(): ToolResult[] {
    const now = Date.now();
    return [...this.open.values()].map(({ call, startedMs }) => ({
      type: 'tool_result',
      ...(call.parent_call_id === undefined ? {} : { parent_call_id: call.parent_call_id }),
      turn: call.turn,
      call_id: call.call_id,
      name: call.name,
      llm_content: STOPPED,
      return_display: STOPPED,
      duration_ms: now - startedMs,
      error_type: 'aborted',
      saved_output: null,
      truncated: false,
    }));
  }
}

/** Sub-agents number their calls on their own: a call is known by its task call and its id. */
function keyOf(event: { call_id: string; parent_call_id?: string }): string {
  return event.parent_call_id === undefined ? event.call_id : `${event.parent_call_id}/${event.call_id}`;
}
