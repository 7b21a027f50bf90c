// Pure mapping between the runner's message model (types/content.ts, Gemini-shaped) and the
// OpenAI chat-completions wire format. No SDK is loaded here: only its types.
//
// Tool-call arguments that are not a JSON object (invalid JSON, a bare string, an array, a call cut
// off by max_tokens) come back as a MalformedFunctionCall (types/content.ts) carrying the raw text,
// so the loop can answer the model with an error result instead of the run failing. Such a call
// goes back into the history with "{}" as its arguments: some servers reject history whose
// arguments do not parse, and the error result already quotes what the model sent. An empty
// arguments string means `{}` (several servers send "" for tools without parameters).
import { randomUUID } from 'node:crypto';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Content, FunctionCall, FunctionDeclaration, JsonSchema, Part, TokenUsage } from '../types/content.js';
import { malformedCall } from '../types/content.js';
import type { Finish, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';

/** The call for one tool call's arguments text: parsed, or malformed with the text kept. */
export function parseToolCall(id: string, name: string, raw: string): FunctionCall {
  if (raw.trim() === '') return { id, name, args: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { id, name, args: value as Record<string, unknown> };
  } catch {
    // fall through: reported to the loop as data, see above
  }
  return malformedCall(name, raw, id);
}

// ---------------------------------------------------------------- runner -> OpenAI

type PendingCall = { id: string; name: string };

/** One history entry's messages, and what they depended on: its index and the calls still open before it. */
interface TranslatedEntry {
  context: string;
  messages: ChatCompletionMessageParam[];
  pendingAfter: PendingCall[];
}

// Every turn resends the whole history; translating (and JSON-encoding arguments of) every entry
// again each turn is quadratic over a run. Content objects are never changed in place (a pruned
// entry is a new object), so an entry's messages are reused while its context is unchanged.
const translated = new WeakMap<Content, TranslatedEntry>();

export function toOpenAIMessages(systemInstruction: string, contents: Content[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (systemInstruction.trim() !== '') messages.push({ role: 'system', content: systemInstruction });
  // Calls of the latest assistant message not yet answered: responses without an id (history from
  // another provider) are matched to them by name, then by order.
  let pending: PendingCall[] = [];
  contents.forEach((content, turn) => {
    // A model entry depends on its index (invented call ids), a user entry on the open calls.
    const context = content.role === 'model' ? `${turn}` : pending.map((c) => `${c.id}\u0000${c.name}`).join('\u0001');
    let entry = translated.get(content);
    if (!entry || entry.context !== context) {
      entry = { context, ...translateEntry(content, turn, pending) };
      translated.set(content, entry);
    }
    messages.push(...entry.messages);
    pending = entry.pendingAfter;
  });
  return messages;
}

function translateEntry(content: Content, turn: number, pending: PendingCall[]): Omit<TranslatedEntry, 'context'> {
  if (content.role === 'model') {
    const assistant = assistantMessage(content.parts, turn);
    return { messages: assistant ? [assistant.message] : [], pendingAfter: assistant?.calls ?? [] };
  }
  const messages: ChatCompletionMessageParam[] = [];
  const pendingAfter = pushUserContent(messages, content.parts, pending);
  return { messages, pendingAfter };
}

function assistantMessage(parts: Part[], turn: number) {
  const text = parts
    .filter((p) => p.text !== undefined && !p.thought)
    .map((p) => p.text)
    .join('');
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = parts
    .filter((p) => p.functionCall)
    .map((p, i) => ({
      id: p.functionCall!.id ?? `call_${turn}_${i}`,
      type: 'function',
      function: { name: p.functionCall!.name, arguments: JSON.stringify(p.functionCall!.args ?? {}) },
    }));
  if (text === '' && toolCalls.length === 0) return null; // strict servers reject an empty assistant turn
  return {
    message: {
      role: 'assistant' as const,
      content: text === '' ? null : text,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    calls: toolCalls.map((c) => ({ id: c.id, name: c.function.name })),
  };
}

function pushUserContent(messages: ChatCompletionMessageParam[], parts: Part[], pending: PendingCall[]): PendingCall[] {
  const unanswered = [...pending];
  const rest: Part[] = [];
  for (const part of parts) {
    const response = part.functionResponse;
    if (!response) {
      if (!part.thought) rest.push(part);
      continue;
    }
    const callId = response.id ? answer(unanswered, response.id) : takePending(unanswered, response.name);
    if (callId === undefined) {
      // No call to attach it to: a tool message would be rejected, so say it in words.
      rest.push({ text: `Result of tool ${response.name}: ${functionResponseText(response.response)}` });
      continue;
    }
    messages.push({ role: 'tool', tool_call_id: callId, content: functionResponseText(response.response) });
  }
  if (rest.length > 0) {
    // Images next to tool results cannot go in a tool message (text only): they follow as user content.
    const lead = parts.some((p) => p.functionResponse) && rest.some((p) => p.inlineData);
    messages.push({ role: 'user', content: userContent(rest, lead) });
  }
  return unanswered;
}

function answer(unanswered: PendingCall[], id: string): string {
  const at = unanswered.findIndex((c) => c.id === id);
  if (at >= 0) unanswered.splice(at, 1);
  return id;
}

function takePending(unanswered: PendingCall[], name: string): string | undefined {
  const byName = unanswered.findIndex((c) => c.name === name);
  const [call] = unanswered.splice(byName >= 0 ? byName : 0, 1);
  return call?.id;
}

/** `{output: "text"}` goes as the text itself; anything else as JSON. */
export function functionResponseText(response: Record<string, unknown>): string {
  const keys = Object.keys(response ?? {});
  if (keys.length === 1 && keys[0] === 'output' && typeof response.output === 'string') return response.output;
  return JSON.stringify(response ?? {});
}

function userContent(parts: Part[], fromTools: boolean): string | ChatCompletionContentPart[] {
  if (parts.every((p) => p.inlineData === undefined)) return parts.map((p) => p.text ?? '').join('\n');
  const out: ChatCompletionContentPart[] = fromTools ? [{ type: 'text', text: 'Attachments returned by the tool calls above:' }] : [];
  for (const part of parts) {
    if (part.text !== undefined) out.push({ type: 'text', text: part.text });
    const data = part.inlineData;
    if (!data) continue;
    if (data.mimeType.startsWith('image/')) {
      out.push({ type: 'image_url', image_url: { url: `data:${data.mimeType};base64,${data.data}` } });
    } else {
      out.push({ type: 'text', text: `[${data.mimeType} attachment omitted: this provider sends only text and images]` });
    }
  }
  return out;
}

// The loop passes the same declarations array every turn until the tool set changes, so the
// schemas are cleaned once per tool set, not once per turn.
const toolsFor = new WeakMap<FunctionDeclaration[], ChatCompletionFunctionTool[]>();

export function toOpenAITools(declarations: FunctionDeclaration[]): ChatCompletionFunctionTool[] {
  let tools = toolsFor.get(declarations);
  if (!tools) {
    tools = declarations.map((d) => ({
      type: 'function',
      function: { name: d.name, description: d.description, parameters: cleanSchema(d.parameters) },
    }));
    toolsFor.set(declarations, tools);
  }
  return tools;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'];

/**
 * Strict servers (vLLM with guided decoding, llama.cpp's grammar converter) reject meta keywords
 * and a parameters object without `type`/`properties`; MCP servers often send both.
 */
export function cleanSchema(schema: JsonSchema): JsonSchema {
  const cleaned = cleanNode(schema ?? {}) as JsonSchema;
  return { ...cleaned, type: cleaned.type ?? 'object', properties: cleaned.properties ?? {} };
}

function cleanNode(node: unknown): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === '$comment') continue;
    if (SCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanNode(v)]));
    } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map(cleanNode);
    } else if (SCHEMA_SINGLES.includes(key)) {
      out[key] = cleanNode(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

// ---------------------------------------------------------------- OpenAI -> runner

export function toTokenUsage(usage: CompletionUsage): TokenUsage {
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return { input, output, total: usage.total_tokens ?? input + output, ...(cached !== undefined ? { cached } : {}) };
}

interface CallInProgress {
  id: string;
  name: string;
  args: string;
}

/**
 * Builds one ModelTurn from streamed chunks (choice 0). Tool calls are assembled by `index`: id and
 * name are taken from the first delta that carries them (some servers repeat them), argument
 * fragments are concatenated. A turn that never got a finish_reason was cut off, so `finish()`
 * throws instead of returning a partial call.
 */
export class TurnAssembler {
  private text = '';
  private reasoning = '';
  private readonly calls = new Map<number, CallInProgress>();
  private finishReason: string | null = null;
  private usage: TokenUsage = { input: 0, output: 0, total: 0 };

  constructor(private readonly onText?: (delta: string) => void) {}

  push(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.usage = toTokenUsage(chunk.usage);
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) this.reasoning += reasoning;
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      this.onText?.(delta.content);
    }
    (delta.tool_calls ?? []).forEach((call, position) => {
      const index = call.index ?? position;
      const current = this.calls.get(index) ?? { id: '', name: '', args: '' };
      if (call.id && !current.id) current.id = call.id;
      if (call.function?.name && !current.name) current.name = call.function.name;
      if (call.function?.arguments) current.args += call.function.arguments;
      this.calls.set(index, current);
    });
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  finish(): ModelTurn {
    if (this.finishReason === null) {
      throw new ProviderError('empty', 'the response was cut off before it finished (no finish_reason)');
    }
    const functionCalls: FunctionCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, c]) => c.name !== '') // a call without a name cannot be answered or replayed
      .map(([, c]) => parseToolCall(c.id || `call_${randomUUID().slice(0, 8)}`, c.name, c.args));
    if (this.text === '' && functionCalls.length === 0) {
      // Deterministic, like Gemini's SAFETY finish: not worth a second paid call.
      if (this.finishReason === 'content_filter') {
        throw new ProviderError('bad_request', 'the model refused: the answer was withheld by the content filter (finish_reason: content_filter)');
      }
      throw new ProviderError('empty', `the model returned no text and no tool calls (finish_reason: ${this.finishReason})`);
    }
    const parts: Part[] = [];
    if (this.reasoning !== '') parts.push({ text: this.reasoning, thought: true });
    if (this.text !== '') parts.push({ text: this.text });
    for (const call of functionCalls) parts.push({ functionCall: call });
    return { parts, text: this.text, functionCalls, usage: this.usage, finish: openAIFinish(this.finishReason, functionCalls.length > 0) };
  }
}

/** A non-streamed completion as the one chunk that would carry it all, so one assembler serves both. */
export function completionAsChunk(completion: ChatCompletion): ChatCompletionChunk {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((call, index) =>
    call.type === 'function' ? [{ index, id: call.id, type: 'function' as const, function: call.function }] : [],
  );
  const reasoning = message ? reasoningOf(message) : undefined;
  return {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    usage: completion.usage ?? null,
    choices: choice
      ? [
          {
            index: 0,
            finish_reason: choice.finish_reason,
            delta: {
              content: message?.content ?? null,
              tool_calls: toolCalls,
              ...(reasoning ? { reasoning_content: reasoning } : {}),
            },
          },
        ]
      : [],
  };
}

/** Qwen/DeepSeek/vLLM stream their thinking as `reasoning_content` (some as `reasoning`). */
function reasoningOf(delta: object): string | undefined {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const value = d.reasoning_content ?? d.reasoning;
  return typeof value === 'string' ? value : undefined;
}

/** OpenAI's finish_reason in the runner's one set (providers/provider.ts FinishReason). */
export function openAIFinish(raw: string, calledTools: boolean): Finish {
  switch (raw) {
    case 'stop':
      return { reason: calledTools ? 'tool_calls' : 'stop', raw };
    case 'tool_calls':
    case 'function_call':
      return { reason: 'tool_calls', raw };
    case 'length':
      return { reason: 'max_tokens', raw };
    case 'content_filter':
      return { reason: 'safety', raw };
    default:
      return { reason: calledTools ? 'tool_calls' : 'other', raw };
  }
}
