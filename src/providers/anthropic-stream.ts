// Builds one ModelTurn from the Messages API's stream events (message_start, content_block_start /
// _delta / _stop, message_delta, message_stop; pings and errors are handled by the SDK), or from a
// whole non-streamed Message replayed as those events. Types only: the SDK is not loaded here.
import type { Message, RawMessageStreamEvent, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { FunctionCall, Part, TokenUsage } from '../types/content.js';
import type { Finish, ModelTurn } from './provider.js';
import { finishCounting, ProviderError } from './provider.js';
import { parseToolCall } from './openai-mapping.js';
import { noAnswerWithinOutputLimit } from './inline-thinking.js';
import { WINDOW_ENDED_ANSWER } from './window-filled.js';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string; input: unknown }
  | { kind: 'server'; block: Record<string, unknown>; json: string }
  | { kind: 'other'; raw: unknown };

/**
 * A server tool's blocks (web search, web fetch, code execution, MCP connector: `server_tool_use`
 * and its `*_tool_result`) the API ran itself within the turn: they go back unchanged, in place,
 * as the API's own examples send `response.content` back.
 */
const isServerToolBlock = (type: unknown): boolean => typeof type === 'string' && (type === 'server_tool_use' || type === 'mcp_tool_use' || type.endsWith('_tool_result'));

type UsageCounts = Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>;

export class MessageAssembler {
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | null = null;
  private stopped = false;
  private usage: Partial<UsageCounts> = {};
  /** The model that answered, as message_start names it. */
  private model: string | null = null;

  /** Some proxies send no counts (providers/missing-usage.ts). */
  get sawUsage(): boolean {
    // `usage: {}` (or nulls) is no count at all, not 0 tokens.
    return Number.isFinite(this.usage.input_tokens) || Number.isFinite(this.usage.output_tokens);
  }
  events = 0;

  constructor(private readonly onText?: (delta: string) => void) {}

  push(event: RawMessageStreamEvent): void {
    this.events++;
    switch (event.type) {
      case 'message_start':
        this.addUsage(event.message.usage);
        if (typeof event.message.model === 'string' && event.message.model !== '') this.model = event.message.model;
        break;
      case 'content_block_start':
        this.blocks.set(event.index, startBlock(event.content_block as unknown as Record<string, unknown>));
        break;
      case 'content_block_delta':
        this.delta(event.index, event.delta as unknown as Record<string, unknown>);
        break;
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        this.addUsage(event.usage as Partial<UsageCounts>);
        break;
      case 'message_stop':
        this.stopped = true;
        break;
      default:
        break;
    }
  }

  /** message_delta's counts are cumulative: a later count replaces an earlier one. */
  private addUsage(usage: Partial<UsageCounts> | null | undefined): void {
    for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
      const value = usage?.[key];
      if (typeof value === 'number') this.usage[key] = value;
    }
  }

  private delta(index: number, delta: Record<string, unknown>): void {
    const block = this.blocks.get(index);
    if (!block) return;
    if (delta.type === 'text_delta' && block.kind === 'text' && typeof delta.text === 'string') {
      block.text += delta.text;
      this.onText?.(delta.text);
    } else if (delta.type === 'input_json_delta' && (block.kind === 'tool' || block.kind === 'server') && typeof delta.partial_json === 'string') {
      block.json += delta.partial_json;
    } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && typeof delta.thinking === 'string') {
      block.thinking += delta.thinking;
    } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') {
      block.signature += delta.signature;
    }
  }

  finish(): ModelTurn {
    return finishCounting(() => this.build(), () => (this.sawUsage ? anthropicUsage(this.usage) : null));
  }

  private build(): ModelTurn {
    if (!this.stopped && this.stopReason === null) {
      throw new ProviderError('cut_off', `the Anthropic response was cut off after ${this.events} event(s) (no message_stop)`);
    }
    const parts: Part[] = [];
    const functionCalls: FunctionCall[] = [];
    let text = '';
    const unread: unknown[] = [];
    for (const [, block] of [...this.blocks.entries()].sort(([a], [b]) => a - b)) {
      switch (block.kind) {
        case 'text':
          if (block.text === '') break;
          text += block.text;
          parts.push({ text: block.text });
          break;
        case 'thinking':
          // Kept whole: the next request must carry it unchanged (anthropic-mapping.ts).
          parts.push({ text: block.thinking, thought: true, echo: { anthropic_block: { type: 'thinking', thinking: block.thinking, signature: block.signature } } });
          break;
        case 'redacted':
          parts.push({ text: '', thought: true, echo: { anthropic_block: { type: 'redacted_thinking', data: block.data } } });
          break;
        case 'tool': {
          // Streamed input arrives as JSON text; a whole (non-streamed) block already holds the object.
          const call: FunctionCall =
            block.json.trim() === '' && isRecord(block.input) ? { id: block.id, name: block.name, args: block.input } : parseToolCall(block.id, block.name, block.json);
          functionCalls.push(call);
          parts.push({ functionCall: call });
          break;
        }
        case 'server':
          parts.push({ text: '', thought: true, echo: { anthropic_block: serverBlock(block) } });
          break;
        default:
          unread.push(block.raw);
      }
    }
    const raw = this.stopReason ?? 'end_turn';
    if (raw === 'refusal') {
      // Deterministic: asking again costs a paid call and gets the same answer (never retried).
      throw new ProviderError('bad_request', `the model refused (stop_reason: refusal)${text.trim() ? `: ${text.trim()}` : ''}`);
    }
    // A paused turn (pause_turn) is continued by the provider (anthropic.ts): what it holds so far,
    // server tool blocks alone maybe, is no empty answer.
    if (text.trim() === '' && functionCalls.length === 0 && raw !== 'pause_turn') {
      // The history filled the window before a word was written (Sonnet 4.5 and later say so rather
      // than refuse the request): asked again it would be the same; the loop compacts on this kind.
      if (raw === 'model_context_window_exceeded') {
        throw new ProviderError('context_length', 'the context window is full: the answer ended with stop_reason model_context_window_exceeded before any of it was written');
      }
      if (raw === 'max_tokens') throw new ProviderError('empty', noAnswerWithinOutputLimit(raw, parts.some((p) => p.thought && p.text), true));
      throw new ProviderError('empty', `the model returned no text and no tool calls (stop_reason: ${raw})`);
    }
    const turn: ModelTurn = { parts, text, functionCalls, usage: anthropicUsage(this.usage), finish: anthropicFinish(raw, functionCalls.length > 0) };
    if (unread.length > 0) turn.providerFields = { content: unread };
    if (this.model !== null) turn.model = this.model;
    if (raw === 'model_context_window_exceeded') turn.notOurCap = WINDOW_ENDED_ANSWER;
    return turn;
  }
}

function startBlock(block: Record<string, unknown>): Block {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: typeof block.text === 'string' ? block.text : '' };
    case 'thinking':
      return { kind: 'thinking', thinking: typeof block.thinking === 'string' ? block.thinking : '', signature: typeof block.signature === 'string' ? block.signature : '' };
    case 'redacted_thinking':
      return { kind: 'redacted', data: typeof block.data === 'string' ? block.data : '' };
    case 'tool_use':
      return { kind: 'tool', id: String(block.id ?? ''), name: String(block.name ?? ''), json: '', input: block.input };
    default:
      return isServerToolBlock(block.type) ? { kind: 'server', block, json: '' } : { kind: 'other', raw: block };
  }
}

/** A server tool block as received, its streamed input (server_tool_use) parsed into it. */
function serverBlock(block: { block: Record<string, unknown>; json: string }): Record<string, unknown> {
  if (block.json.trim() === '') return block.block;
  try {
    return { ...block.block, input: JSON.parse(block.json) };
  } catch {
    return block.block;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `input_tokens` leaves out what was read from or written to the cache; the runner counts all input. */
export function anthropicUsage(usage: Partial<UsageCounts>): TokenUsage {
  const cached = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  const input = (usage.input_tokens ?? 0) + cached + written;
  const output = usage.output_tokens ?? 0;
  const out: TokenUsage = { input, output, total: input + output, cached };
  if (written > 0) out.cache_write = written;
  return out;
}

/** Anthropic's stop_reason in the runner's one set (providers/provider.ts FinishReason). */
export function anthropicFinish(raw: string, calledTools: boolean): Finish {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return { reason: calledTools ? 'tool_calls' : 'stop', raw };
    case 'tool_use':
      return { reason: 'tool_calls', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { reason: 'max_tokens', raw };
    case 'refusal':
      return { reason: 'refusal', raw };
    default:
      // pause_turn: the API paused a long turn (anthropic.ts continues it), so it never ends one.
      return { reason: calledTools ? 'tool_calls' : 'other', raw };
  }
}

/** A whole Message as the events that would have streamed it, so one assembler serves both paths. */
export function messageAsEvents(message: Message): RawMessageStreamEvent[] {
  const events: RawMessageStreamEvent[] = [{ type: 'message_start', message: { ...message, content: [] } }];
  message.content.forEach((block, index) => {
    const start = { ...block } as Record<string, unknown>;
    let delta: Record<string, unknown> | null = null;
    if (block.type === 'tool_use') {
      start.input = {};
      delta = { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) };
    }
    events.push({ type: 'content_block_start', index, content_block: start as never });
    if (delta) events.push({ type: 'content_block_delta', index, delta: delta as never });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence } as never, usage: message.usage as never });
  events.push({ type: 'message_stop' });
  return events;
}
