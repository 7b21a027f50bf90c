// Builds one ModelTurn from OpenAI-compatible chat-completion chunks (choice 0), as the server's
// dialect (dialects.ts) says: which fields are kept to be sent back, how tool-call fragments are
// keyed. A non-streamed completion goes through the same code as one chunk (completionAsChunk).
import { randomUUID } from 'node:crypto';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { FunctionCall, Part, TokenUsage } from '../types/content.js';
import type { Dialect } from './dialects.js';
import type { Finish, ModelTurn } from './provider.js';
import { finishCounting, ProviderError } from './provider.js';
import { LEGACY_FUNCTION_CALL, parseToolCall } from './openai-mapping.js';
import { baseRespError, FAILED_FINISHES, failedFinish, streamFailure } from './api-errors.js';
import { pseudoToolText } from './tgi-no-tool.js';
import { leakedToolCall, nameWithoutTemplateTokens } from './leaked-tool-call.js';
import { noAnswerWithinOutputLimit, withoutInlineThinking } from './inline-thinking.js';
import { eventStreamData } from './sse.js';

export function toTokenUsage(usage: CompletionUsage): TokenUsage {
  const input = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  // xAI counts thinking beside completion_tokens, not inside it as OpenAI does: its total_tokens is
  // prompt + completion + reasoning (docs.x.ai consumption-and-rate-limits). Thinking is billed as
  // output, so it is added where the total says it was left out (also through a gateway).
  const outside = typeof reasoning === 'number' && reasoning > 0 && usage.total_tokens === input + completion + reasoning;
  const output = completion + (outside ? reasoning : 0);
  const out: TokenUsage = { input, output, total: usage.total_tokens ?? input + output };
  const extra = usage as CompletionUsage & { prompt_cache_hit_tokens?: unknown; cached_tokens?: unknown; cost?: unknown; is_byok?: unknown; cost_details?: { upstream_inference_cost?: unknown } };
  // DeepSeek counts cache hits in its own field, Moonshot at the top level.
  const cached = usage.prompt_tokens_details?.cached_tokens ?? extra.prompt_cache_hit_tokens ?? extra.cached_tokens;
  if (typeof cached === 'number') out.cached = cached;
  // OpenRouter reports what it billed: better than any price table (pricing.ts keeps it). With the
  // user's own provider key (BYOK) that is only its fee: the provider billed the key the rest.
  if (typeof extra.cost === 'number' && Number.isFinite(extra.cost)) {
    const upstream = extra.is_byok === true ? extra.cost_details?.upstream_inference_cost : undefined;
    out.cost_usd = extra.cost + (typeof upstream === 'number' && Number.isFinite(upstream) ? upstream : 0);
  }
  // OpenAI, OpenRouter and DeepSeek count thinking inside completion_tokens and say how much.
  if (typeof reasoning === 'number' && reasoning > 0) out.reasoning = reasoning;
  return out;
}

/** Delta fields this code reads; any other field is kept as received (providerFields) for diagnosis. */
const KNOWN_DELTA_FIELDS = new Set(['role', 'content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning']);
const KNOWN_CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);

interface CallInProgress {
  index: number;
  id: string;
  name: string;
  args: string;
  fields: Record<string, unknown>;
}

type RawDelta = Record<string, unknown> & { tool_calls?: unknown };

/**
 * A delta's tool-call fragments, as the list OpenAI sends. Text Generation Inference before 3.1
 * streams `tool_calls` as one object, not a list; a server speaking the legacy functions API
 * streams `function_call: {name, arguments}` (finish_reason "function_call"): one call, at index 0.
 */
function toolCallFragments(delta: RawDelta): Array<Record<string, unknown>> {
  const calls = delta.tool_calls;
  if (Array.isArray(calls)) return calls.filter(isRecord);
  if (isRecord(calls)) return [calls];
  if (isRecord(delta.function_call)) return [{ index: 0, function: delta.function_call }];
  return [];
}

export class TurnAssembler {
  private text = '';
  private reasoning = '';
  private refusal = '';
  private readonly calls: CallInProgress[] = [];
  /** Last call opened at each index: where a fragment without an id belongs. */
  private readonly lastAtIndex = new Map<number, CallInProgress>();
  private readonly messageFields: Record<string, unknown> = {};
  private finishReason: string | null = null;
  /** The `error` object ({code, message}) OpenRouter sends with finish_reason "error": the upstream's words. */
  private failure: unknown;
  /** The call came as a legacy `function_call`, not in `tool_calls`: it goes back in that form (openai-mapping.ts). */
  private legacy = false;
  private usage: TokenUsage = { input: 0, output: 0, total: 0 };
  /** The model the server says answered (a dated version of the one asked for, or a router's choice). */
  private model: string | null = null;
  /** Some servers never send counts (providers/missing-usage.ts). */
  sawUsage = false;

  constructor(
    private readonly dialect: Dialect,
    private readonly onText?: (delta: string) => void,
    /** Whether the request offered a tool of this name: a call to a server's pseudo-tool is told from them (tgi-no-tool.ts). */
    private readonly offers: (name: string) => boolean = () => false,
    /** What ends an answer at `length` when the run sent no cap (window-filled.ts): said of one with nothing written. */
    private readonly notOurCap?: string,
  ) {}

  push(chunk: ChatCompletionChunk): void {
    if (!chunk.choices?.length) {
      // An error the SDK does not know as one (MiniMax's base_resp event): never a cut-off answer.
      const failed = errorIn(chunk);
      if (failed !== undefined) throw streamFailure(failed);
    }
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    // Groq sends its counts in `x_groq.usage` on the last chunk, not in `usage`.
    const counts = hasCounts(chunk.usage) ? chunk.usage : (chunk as { x_groq?: { usage?: ChatCompletionChunk['usage'] } }).x_groq?.usage;
    if (hasCounts(counts)) [this.usage, this.sawUsage] = [toTokenUsage(counts), true];
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    // Moonshot (Kimi) streams its usage inside the choice.
    const choiceUsage = (choice as { usage?: ChatCompletionChunk['usage'] }).usage;
    if (!hasCounts(counts) && hasCounts(choiceUsage)) [this.usage, this.sawUsage] = [toTokenUsage(choiceUsage), true];
    const delta = (choice.delta ?? {}) as unknown as RawDelta;
    const content = contentPieces(delta.content);
    const reasoning = (reasoningText(delta) ?? '') + content.thinking;
    if (reasoning) this.reasoning += reasoning;
    if (content.text !== '') {
      this.text += content.text;
      this.onText?.(content.text);
    }
    if (typeof delta.refusal === 'string') this.refusal += delta.refusal;
    for (const [key, value] of Object.entries(delta)) {
      if (value === null || value === undefined) continue;
      if (!KNOWN_DELTA_FIELDS.has(key) || this.echoes(key)) this.messageFields[key] = mergeFragment(this.messageFields[key], value);
    }
    if (delta.tool_calls === undefined || delta.tool_calls === null) this.legacy ||= isRecord(delta.function_call);
    toolCallFragments(delta).forEach((fragment, position) => this.pushCall(fragment, position));
    if (choice.finish_reason) [this.finishReason, this.failure] = [choice.finish_reason, (choice as { error?: unknown }).error ?? errorIn(chunk)];
  }

  private echoes(key: string): boolean {
    return this.dialect.echoMessage.some((e) => e.field === key);
  }

  private pushCall(fragment: Record<string, unknown>, position: number): void {
    const index = typeof fragment.index === 'number' ? fragment.index : position;
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : null;
    let call = this.lastAtIndex.get(index);
    // A new id with a function name at a known index is a new call (Ollama sends parallel calls all
    // at index 0); a repeated id, none, or a new id on a nameless fragment (servers that stamp every
    // fragment afresh) continues the call. Dialects keyed by index ignore ids. Without ids, a
    // fragment that names a function while the call at its index is already whole (named,
    // arguments a whole object: wholeObject) is the next call, not more of that one, when it brings
    // arguments or names another function; one naming the same function with no arguments may be
    // a server repeating the name, and a call of nothing the model asked for must never run.
    const fn = (fragment.function ?? {}) as { name?: unknown; arguments?: unknown };
    const opensNew =
      !call ||
      (this.dialect.toolCallKey === 'id' && id !== null && call.id !== '' && id !== call.id && !this.calls.some((c) => c.id === id) && named(fn.name)) ||
      (id === null && named(fn.name) && call.name !== '' && (hasArguments(fn.arguments) || fn.name !== call.name) && wholeObject(call.args) !== null);
    if (opensNew) {
      call = { index, id: '', name: '', args: '', fields: {} };
      this.calls.push(call);
      this.lastAtIndex.set(index, call);
    } else if (this.dialect.toolCallKey === 'id' && id !== null && call!.id !== id) {
      // An id seen before names its call, wherever the fragment says it is.
      call = this.calls.find((c) => c.id === id) ?? call;
    }
    const current = call!;
    if (id && !current.id) current.id = id;
    if (typeof fn.name === 'string' && fn.name !== '' && !current.name) current.name = fn.name;
    // Some servers send an object; a gateway may repeat a whole call's arguments once more at its
    // end (LiteLLM's closing chunk, BerriAI/litellm#20480), which would make them two objects.
    const args = typeof fn.arguments === 'string' ? fn.arguments : isRecord(fn.arguments) ? JSON.stringify(fn.arguments) : '';
    if (!repeatsWhole(current.args, args)) current.args += args;
    for (const [key, value] of Object.entries(fragment)) {
      if (!KNOWN_CALL_FIELDS.has(key) && value !== null && value !== undefined) current.fields[key] = mergeFragment(current.fields[key], value);
    }
  }

  /**
   * `whole`: the answer is known to be complete (a JSON body, or a stream that ended with
   * `data: [DONE]`). Some servers (NVIDIA NIM) end a whole answer without a finish_reason: its
   * tool calls are taken when their arguments are complete JSON, its text as of a finish reason
   * not known (the loop takes it, with a warning). Without [DONE], it was cut off.
   */
  finish(whole = false): ModelTurn {
    return finishCounting(() => this.build(whole), () => (this.sawUsage ? this.usage : null));
  }

  // A `length` stop finish() refused as empty, as a turn (its thinking at most): window-filled.ts
  // tells a window full before a word from thinking that took the whole answer's room.
  unwritten(): ModelTurn | null {
    if (this.finishReason !== 'length') return null;
    return { parts: this.reasoning === '' ? [] : [{ text: this.reasoning, thought: true }], text: '', functionCalls: [], usage: this.usage, finish: openAIFinish('length', false) };
  }

  private build(whole: boolean): ModelTurn {
    for (const call of this.calls) if (call.name === '') nameFromGrammar(call);
    else call.name = nameWithoutTemplateTokens(call.name, this.offers); // gpt-oss's markup cut into a name
    if (this.finishReason === null) {
      const callsWhole = this.calls.length > 0 && this.calls.every((c) => c.name !== '' && (c.args.trim() === '' || wholeObject(c.args) !== null));
      if (!whole || (this.calls.length > 0 && !callsWhole) || (this.calls.length === 0 && this.text === '')) {
        throw new ProviderError('cut_off', 'the response was cut off before it finished (no finish_reason)');
      }
      this.finishReason = callsWhole ? 'tool_calls' : 'unknown (none sent)';
    }
    if (FAILED_FINISHES.has(this.finishReason)) throw failedFinish(this.finishReason, this.failure);
    let named = this.calls.filter((c) => c.name !== ''); // a call without a name cannot be answered or replayed
    let functionCalls: FunctionCall[] = named.map((c) => parseToolCall(c.id || `call_${randomUUID().slice(0, 8)}`, c.name, c.args));
    const pseudoText = pseudoToolText(functionCalls, this.offers);
    if (pseudoText !== null) {
      [named, functionCalls] = [[], []];
      this.text += pseudoText;
      this.onText?.(pseudoText);
      if (this.finishReason === 'tool_calls') this.finishReason = 'stop';
    }
    // The answer without thinking the server left in the text (inline-thinking.ts); the history keeps it.
    const { answer, thought } = withoutInlineThinking(this.text);
    if (answer.trim() === '' && functionCalls.length === 0) {
      // The conversation filled the window before a word was written: a refusal for length, which
      // the loop answers by compacting the history (loop/compaction.ts), not an empty answer.
      if (WINDOW_FULL.has(this.finishReason)) {
        throw new ProviderError('context_length', `the context window is full: the server ended the answer with finish_reason "${this.finishReason}" before any of it was written`);
      }
      // Deterministic: asking again costs a paid call and gets the same answer (never retried).
      if (this.refusal.trim() !== '') throw new ProviderError('bad_request', `the model refused: ${this.refusal.trim()}`);
      const finish = openAIFinish(this.finishReason, false).reason;
      if (finish === 'safety') {
        throw new ProviderError('bad_request', `the model refused: the answer was withheld by the content filter (finish_reason: ${this.finishReason})`);
      }
      if (finish === 'max_tokens') throw new ProviderError('empty', noAnswerWithinOutputLimit(`"${this.finishReason}"`, thought || this.reasoning !== '', false, this.finishReason === 'length' ? this.notOurCap : undefined));
      throw new ProviderError('empty', `the model returned ${thought ? 'only its thinking' : 'no text'} and no tool calls (finish_reason: ${this.finishReason})`);
    }
    const leaked = functionCalls.length === 0 ? leakedToolCall(answer, this.offers) : null;
    if (leaked !== null) {
      // Not an answer: the work the call was for was never done. A garbled call is worth one more draw.
      throw new ProviderError(
        'empty',
        `the model's call to ${leaked} came back as text, not as a tool call: the server did not parse it (is its tool-call parser the model's? vLLM: --enable-auto-tool-choice --tool-call-parser; llama.cpp: --jinja)`,
      );
    }
    const parts: Part[] = [];
    // Only a turn with tool calls is continued by the server's own reasoning; a final answer's is
    // needed again only where the dialect says so (DeepSeek: every turn, dialects.ts everyTurn).
    const echo = this.echoFields(functionCalls.length > 0);
    if (this.reasoning !== '' || echo) parts.push({ text: this.reasoning, thought: true, ...(echo ? { echo } : {}) });
    if (this.text !== '') parts.push({ text: this.text });
    named.forEach((c, i) => {
      const callEcho = this.legacy ? { [LEGACY_FUNCTION_CALL]: true } : pick(c.fields, this.dialect.echoToolCall.map((e) => e.field));
      parts.push({ functionCall: functionCalls[i]!, ...(callEcho ? { echo: callEcho } : {}) });
    });
    const turn: ModelTurn = { parts, text: answer, functionCalls, usage: this.usage, finish: openAIFinish(this.finishReason, functionCalls.length > 0) };
    if (this.model !== null) turn.model = this.model;
    const providerFields = this.providerFields(named);
    if (providerFields) turn.providerFields = providerFields;
    return turn;
  }

  /**
   * The message-level fields this dialect sends back, as the server sent them; DeepSeek's
   * reasoning_content even when empty. Never one the server did not send: Groq and Cerebras stream
   * their thinking as `reasoning` and refuse a `reasoning_content` ("property 'reasoning_content'
   * is unsupported").
   */
  private echoFields(calledTools: boolean): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    for (const { field, alwaysOnToolTurns, everyTurn } of this.dialect.echoMessage) {
      if (!calledTools && !everyTurn) continue;
      const value = this.messageFields[field];
      if (value !== undefined) out[field] = value;
      else if (alwaysOnToolTurns || everyTurn) out[field] = '';
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  private providerFields(calls: CallInProgress[]): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = { ...this.messageFields };
    if (this.refusal !== '') out.refusal = this.refusal;
    const callFields = calls.filter((c) => Object.keys(c.fields).length > 0).map((c) => ({ id: c.id, ...c.fields }));
    if (callFields.length > 0) out.tool_calls = callFields;
    return Object.keys(out).length > 0 ? out : undefined;
  }
}

/**
 * Streamed fragments of one field, combined: text concatenates; list entries append, an entry
 * continuing the previous one (same `index` and `type`, as OpenRouter streams reasoning_details)
 * extends its text; objects merge key by key; anything else is replaced.
 */
export function mergeFragment(previous: unknown, next: unknown): unknown {
  if (previous === undefined) return typeof next === 'object' && next !== null ? structuredClone(next) : next;
  if (typeof previous === 'string' && typeof next === 'string') return previous + next;
  if (Array.isArray(previous) && Array.isArray(next)) {
    const out = [...previous];
    for (const entry of next) {
      const last = out[out.length - 1];
      if (continues(last, entry)) out[out.length - 1] = mergeEntry(last, entry);
      else out.push(structuredClone(entry));
    }
    return out;
  }
  if (isRecord(previous) && isRecord(next)) {
    const out: Record<string, unknown> = { ...previous };
    for (const [key, value] of Object.entries(next)) out[key] = isRecord(out[key]) && isRecord(value) ? mergeFragment(out[key], value) : value;
    return out;
  }
  return next;
}

function continues(last: unknown, entry: unknown): boolean {
  return isRecord(last) && isRecord(entry) && entry.index !== undefined && entry.index === last.index && entry.type === last.type;
}

function mergeEntry(last: Record<string, unknown>, entry: unknown): Record<string, unknown> {
  const out = { ...last };
  for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
    if ((key === 'text' || key === 'summary') && typeof out[key] === 'string' && typeof value === 'string') out[key] = (out[key] as string) + value;
    else if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

function named(name: unknown): boolean {
  return typeof name === 'string' && name !== '';
}

function hasArguments(value: unknown): boolean {
  return (typeof value === 'string' && value.trim() !== '') || (isRecord(value) && Object.keys(value).length > 0);
}

/** `next` is the whole of arguments already complete, sent again (as JSON text, or that text JSON-encoded once more). */
function repeatsWhole(have: string, next: string): boolean {
  const whole = next.trim() === '' ? null : wholeObject(have);
  return whole !== null && JSON.stringify(wholeObject(next)) === JSON.stringify(whole);
}

/**
 * Text Generation Inference before 3.1 streams a call without its name: the arguments are its
 * grammar's output, `{"function": {"_name": "ls", ...arguments}}`, and end with the model's end
 * token (`<|eot_id|>`; TGI integration-tests/models/test_tools_llama.py). Named from it, in place.
 */
function nameFromGrammar(call: CallInProgress): void {
  try {
    const value: unknown = JSON.parse(call.args.replace(/(<\|[\w.-]+\|>|<\/s>)\s*$/, ''));
    const fn = isRecord(value) ? value.function : undefined;
    if (!isRecord(fn) || typeof fn._name !== 'string' || fn._name === '') return;
    const { _name: name, ...args } = fn;
    [call.name, call.args] = [name as string, JSON.stringify(args)];
  } catch {
    // not that shape: the call stays nameless and is dropped
  }
}

/** The object of arguments that are a whole call, as parseToolCall reads them: its JSON, or that JSON encoded once more (watsonx). */
function wholeObject(args: string): Record<string, unknown> | null {
  try {
    let value: unknown = JSON.parse(args);
    if (typeof value === 'string') value = JSON.parse(value);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(fields: Record<string, unknown>, names: string[]): Record<string, unknown> | undefined {
  const out = Object.fromEntries(names.filter((n) => fields[n] !== undefined).map((n) => [n, fields[n]]));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * An answer's `content`: a string, or a list of blocks. Mistral's reasoning models (Magistral, and
 * others with reasoning_effort) send `{type: "text", text}` and `{type: "thinking", thinking:
 * [{type: "text", text}]}` blocks, streamed and not; read as a string only, their answer was empty.
 */
function contentPieces(content: unknown): { text: string; thinking: string } {
  if (typeof content === 'string') return { text: content, thinking: '' };
  const out = { text: '', thinking: '' };
  if (!Array.isArray(content)) return out;
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.text += block.text;
    else if (block.type === 'thinking') out.thinking += blockText(block.thinking);
  }
  return out;
}

/** A thinking block's text: a string, or a list of text blocks. */
function blockText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((b: unknown) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('');
}

/** The visible thinking: `reasoning_content` (DeepSeek, Qwen, vLLM), `reasoning` (Ollama, OpenRouter), else reasoning_details text. */
function reasoningText(delta: RawDelta): string | undefined {
  const direct = delta.reasoning_content ?? delta.reasoning;
  if (typeof direct === 'string') return direct;
  if (!Array.isArray(delta.reasoning_details)) return undefined;
  const texts = delta.reasoning_details.map((d: unknown) => (isRecord(d) ? (d.text ?? d.summary) : undefined)).filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? texts.join('') : undefined;
}

/**
 * A non-streamed completion as the one chunk that would carry it all, unknown fields included.
 * Also what a server sent when it answered a stream request with one JSON body (it ignored
 * `stream`, or failed before streaming), and any body a server labelled as something else.
 */
export function completionAsChunk(body: ChatCompletion | string): ChatCompletionChunk {
  const completion = (typeof body === 'string' ? parseAnswer(body) : body) as ChatCompletion;
  // A 200 with an error body and no choices (OpenRouter's upstream failure, vLLM's `object: error`,
  // Google's array): judged by its code like an error inside a stream (api-errors.ts), never "cut off".
  if (!completion?.choices?.length) {
    const failed = errorIn(completion);
    if (failed !== undefined) throw streamFailure(failed, 'body');
  }
  const choice = completion.choices?.[0];
  const { tool_calls: toolCalls, ...message } = (choice?.message ?? {}) as unknown as RawDelta;
  const calls = Array.isArray(toolCalls) ? toolCalls.map((call: Record<string, unknown>, index) => ({ index, ...call })) : toolCalls;
  return {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    usage: completion.usage ?? null,
    choices: choice ? [{ index: 0, finish_reason: choice.finish_reason, error: (choice as { error?: unknown }).error, delta: { ...message, tool_calls: calls } as never } as never] : [],
  };
}

/**
 * The chunks of an event stream sent whole where one JSON body was asked for (`stream: false`, and
 * a server that streams anyway), and whether it ended with `data: [DONE]`; null when it is none.
 */
export function eventStreamChunks(text: string): { chunks: ChatCompletionChunk[]; done: boolean } | null {
  const data = eventStreamData(text);
  if (data === null) return null;
  const chunks: ChatCompletionChunk[] = [];
  let done = false;
  for (const payload of data) {
    if (payload.trim() === '[DONE]') {
      done = true;
      continue;
    }
    if (payload.trim() === '') continue;
    chunks.push(parseAnswer(payload) as ChatCompletionChunk);
  }
  return { chunks, done };
}

function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError('empty', `the server's answer is neither an event stream nor JSON: ${text.replace(/\s+/g, ' ').trim().slice(0, 120) || '(empty)'}`);
  }
}

/** The error a body without choices carries, in the shapes servers use; undefined when it is none. */
function errorIn(body: unknown): unknown {
  if (Array.isArray(body)) return errorIn(body[0]);
  if (!isRecord(body)) return undefined;
  if (body.error !== undefined && body.error !== null) return body.error;
  if (baseRespError(body.base_resp)) return body;
  return body.object === 'error' || (typeof body.message === 'string' && body.choices === undefined) ? body : undefined;
}

/** Finish reasons that say the context window, not max_tokens, ended the answer. */
export const WINDOW_FULL: ReadonlySet<string> = new Set(['model_length', 'model_context_window_exceeded']);

/** OpenAI's finish_reason in the runner's one set (providers/provider.ts FinishReason). */
export function openAIFinish(raw: string, calledTools: boolean): Finish {
  switch (raw) {
    case 'stop':
    // A natural end in other servers' words: TGI's eos_token and stop_sequence, Together's eos,
    // Anthropic's end_turn through gateways. Not known, the final answer would carry a warning.
    case 'eos':
    case 'eos_token':
    case 'stop_sequence':
    case 'end_turn':
      return { reason: calledTools ? 'tool_calls' : 'stop', raw };
    case 'tool_calls':
    case 'function_call':
      return { reason: 'tool_calls', raw };
    case 'length':
    case 'model_length': // Mistral: the context window, not max_tokens, cut the answer
    case 'model_context_window_exceeded': // Zhipu GLM (z.ai), as Anthropic says it
      return { reason: 'max_tokens', raw };
    case 'content_filter':
    case 'sensitive': // Zhipu GLM's content filter
      return { reason: 'safety', raw };
    default:
      return { reason: calledTools ? 'tool_calls' : 'other', raw };
  }
}

/** Counts a server really sent: a `usage: {}` (or all nulls) is no count at all, not 0 tokens. */
function hasCounts(usage: ChatCompletionChunk['usage'] | null | undefined): usage is NonNullable<ChatCompletionChunk['usage']> {
  return !!usage && (Number.isFinite(usage.prompt_tokens) || Number.isFinite(usage.completion_tokens));
}
