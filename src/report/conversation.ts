// The conversation a run had with its model, rebuilt from its events alone: what `run --continue`
// sends before the follow-up prompt. Like the report, a pure fold: the first message (context
// files, then the prompt), each model turn (text and function calls), each turn's function
// responses (as the loop sent them), and what the runner told the model when it sent an answer
// back. Sub-agents' events are their own conversations and are left out. What the transcript does
// not keep is not replayed: thought parts and signatures, media a tool returned (a note says so).
import type { Content, FunctionCall, Part } from '../types/content.js';
import type { RunEvent } from '../types/events.js';

type ModelResponse = Extract<RunEvent, { type: 'model_response' }>;
type ToolResult = Extract<RunEvent, { type: 'tool_result' }>;

export class ConversationFold {
  private readonly contents: Content[] = [];
  /** The calls of the latest model turn that have no response yet, in call order. */
  private open: Array<{ id: string; name: string }> = [];
  private readonly responses = new Map<string, Part>();
  /** Calls of the latest turn that started (their tool_call recorded as allowed): a kill cut them off, not before. */
  private readonly started = new Set<string>();

  add(event: RunEvent): void {
    if ('parent_call_id' in event && event.parent_call_id !== undefined) return;
    switch (event.type) {
      case 'run_start': {
        if (!event.prompt) return;
        const context = event.context?.text;
        this.push('user', [...(context ? [{ text: context }] : []), { text: event.prompt }]);
        break;
      }
      case 'model_response':
        this.closeTurn();
        this.modelTurn(event);
        break;
      case 'tool_call':
        if (event.decision?.decision === 'allow') this.started.add(event.call_id);
        break;
      case 'tool_result':
        this.responses.set(event.call_id, responsePart(event));
        break;
      case 'answer_rejected':
        this.closeTurn();
        this.push('user', [{ text: event.feedback ?? `Your answer was not accepted: ${event.reason}` }]);
        break;
      default:
        break;
    }
  }

  /** The conversation so far; calls that never got a response (a stopped run) are answered as not run. */
  conversation(): Content[] {
    this.closeTurn();
    return this.contents.map((c) => ({ role: c.role, parts: [...c.parts] }));
  }

  private modelTurn(event: ModelResponse): void {
    const parts: Part[] = [];
    if (event.text) parts.push({ text: event.text });
    // The loop names a call the provider did not: the same rule, so responses pair up.
    const calls: FunctionCall[] = event.function_calls.map((c, i) => ({ ...c, id: c.id ?? `call_${event.turn}_${i}` }));
    for (const call of calls) parts.push({ functionCall: call });
    if (parts.length) this.push('model', parts);
    this.open = calls.map((c) => ({ id: c.id!, name: c.name }));
  }

  private closeTurn(): void {
    if (!this.open.length) return;
    const parts = this.open.map(
      (call) => this.responses.get(call.id) ?? { functionResponse: { id: call.id, name: call.name, response: { error: this.started.has(call.id) ? CUT_OFF : NOT_RUN } } },
    );
    this.open = [];
    this.responses.clear();
    this.started.clear();
    this.push('user', parts);
  }

  private push(role: Content['role'], parts: Part[]): void {
    const last = this.contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else this.contents.push({ role, parts });
  }
}

const NOT_RUN = 'not run: the run was stopped';
// Its tool_call is recorded before it runs, its result never was (a kill -9, a crash): the call ran,
// in part or whole, and a model told it never ran would do it again (an append twice, a second commit).
const CUT_OFF = 'the run was killed while this call ran: it may have done some or all of its work; look at what it did before doing it again';

export function conversationFromEvents(events: Iterable<RunEvent>): Content[] {
  const fold = new ConversationFold();
  for (const event of events) fold.add(event);
  return fold.conversation();
}

/** As the loop answers a call (loop/calls.ts): an error, or the output as text. */
function responsePart(event: ToolResult): Part {
  const base = { id: event.call_id, name: event.name };
  const text = textOf(event.llm_content);
  return { functionResponse: { ...base, response: event.error_type ? { error: text } : { output: text } } };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content ?? '');
  const parts = content as Part[];
  const text = parts.map((p) => p.text ?? '').join('');
  const media = parts.filter((p) => p.inlineData).length;
  return media ? `${text}${text ? '\n' : ''}[${media} media part(s) the earlier run received are not kept in its transcript]` : text;
}
