// Pure mapping between the runner's message model (types/content.ts, Gemini-shaped) and the
// OpenAI chat-completions wire format. No SDK is loaded here: only its types.
//
// Tool-call arguments that are not a JSON object (invalid JSON, a bare string, an array, a call cut
// off by max_tokens) come back as a MalformedFunctionCall (types/content.ts) carrying the raw text,
// so the loop can answer the model with an error result instead of the run failing. Such a call
// goes back into the history with "{}" as its arguments: some servers reject history whose
// arguments do not parse, and the error result already quotes what the model sent. An empty
// arguments string means `{}` (several servers send "" for tools without parameters).
import { createHash } from 'node:crypto';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Content, FunctionCall, FunctionDeclaration, JsonSchema, Part } from '../types/content.js';
import { malformedCall } from '../types/content.js';

/** The call for one tool call's arguments text: parsed, or malformed with the text kept. */
export function parseToolCall(id: string, name: string, raw: string): FunctionCall {
  if (raw.trim() === '') return { id, name, args: {} };
  try {
    let value: unknown = JSON.parse(raw);
    // The object JSON-encoded once more, a string of its JSON (IBM watsonx, some gateways): the
    // call the model made. Refused, it was asked again and came back the same way every time.
    if (typeof value === 'string' && value.trimStart().startsWith('{')) value = JSON.parse(value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { id, name, args: value as Record<string, unknown> };
  } catch {
    // fall through: reported to the loop as data, see above
  }
  return malformedCall(name, raw, id);
}

// ---------------------------------------------------------------- runner -> OpenAI

/** `legacy`: the call came as the functions API's `function_call`, and its result goes back as a `function` message. */
type PendingCall = { id: string; name: string; legacy?: boolean };

/** Marks (in Part.echo) a call a server sent as a legacy `function_call` (openai-stream.ts): it goes back in that form. */
export const LEGACY_FUNCTION_CALL = 'legacy_function_call';

/**
 * One history entry's messages, and what they depended on: its index (model entries: it names the
 * ids we invent) or the calls still open before it (user entries), compared by identity: that list
 * is the previous entry's cached one, so a history that only grew costs a lookup per entry.
 */
interface TranslatedEntry {
  context: number | PendingCall[];
  messages: ChatCompletionMessageParam[];
  pendingAfter: PendingCall[];
}

// Every turn resends the whole history; translating (and JSON-encoding arguments of) every entry
// again each turn is quadratic over a run. Content objects are never changed in place (a pruned
// entry is a new object), so an entry's messages are reused while its context is unchanged.
/** How a dialect wants tool results written (dialects.ts). */
export interface MessageShape {
  /** Each tool message also carries its function's `name` (Google's endpoint requires it). */
  toolNames?: boolean;
  /** No user message after tool messages (Mistral): a tool's images are named in its message instead. */
  noUserAfterTools?: boolean;
  /** No image parts at all (a text-only model): images are named where they would have gone. */
  noImages?: boolean;
  /** Tool-call ids of exactly 9 letters and digits (Mistral); others are rewritten (toolCallIdFor). */
  nineCharIds?: boolean;
  /** The model's thinking goes back as a `thinking` block in `content` (Mistral's reasoning models). */
  thinkingInContent?: boolean;
  /** The dialect sends `reasoning_content` back (then toOpenAIMessages decides `reasoningOnToolTurns`). */
  reasoningContent?: boolean;
  /**
   * Every assistant message with tool calls carries `reasoning_content`, empty when its turn had
   * none: set for a request whose history shows the server sends it. Thinking models refuse a
   * tool-call turn without it (Kimi K2.5: "thinking is enabled but reasoning_content is missing in
   * assistant tool call message at index N"; DeepSeek: "Missing `reasoning_content` field"), and a
   * turn can come without one; a server that never sent it (Groq, Cerebras) refuses the field.
   */
  reasoningOnToolTurns?: boolean;
  /**
   * Every assistant message carries `reasoning_content`, empty when its turn had none or lost it (a
   * run continued from its transcript, which keeps no echo): DeepSeek with tools refuses a final
   * answer without it once a user message follows (dialects.ts everyTurn).
   */
  reasoningOnEveryTurn?: boolean;
  /**
   * An assistant message without text has `content: ""`, not the spec's `null`: some servers refuse
   * null (LM Studio: "'content' field must be a string or an array of objects"; llama.cpp builds of
   * May 2025: "Expected 'content' to be a string or an array"), others "" (Bedrock). Set for the
   * rest of the run once a server refuses null (openai.ts ADJUSTMENTS).
   */
  stringContent?: boolean;
}

// One cache per message shape, as a run has one.
const translated = new Map<string, WeakMap<Content, TranslatedEntry>>();

export function toOpenAIMessages(systemInstruction: string, contents: Content[], given: MessageShape = {}): ChatCompletionMessageParam[] {
  const shape = given.reasoningContent && contents.some(sentReasoningContent) ? { ...given, reasoningOnToolTurns: true } : given;
  const key = `${shape.toolNames === true}/${shape.noUserAfterTools === true}/${shape.noImages === true}/${shape.nineCharIds === true}/${shape.reasoningOnToolTurns === true}/${shape.reasoningOnEveryTurn === true}/${shape.thinkingInContent === true}/${shape.stringContent === true}`;
  let cache = translated.get(key);
  if (!cache) translated.set(key, (cache = new WeakMap()));
  const messages: ChatCompletionMessageParam[] = [];
  if (systemInstruction.trim() !== '') messages.push(systemMessage(systemInstruction));
  // Calls of the latest assistant message not yet answered: responses without an id (history from
  // another provider) are matched to them by name, then by order.
  let pending: PendingCall[] = NO_PENDING;
  contents.forEach((content, turn) => {
    const context = content.role === 'model' ? turn : pending;
    let entry = cache.get(content);
    if (!entry || entry.context !== context) {
      entry = { context, ...translateEntry(content, turn, pending, shape) };
      cache.set(content, entry);
    }
    messages.push(...entry.messages);
    pending = entry.pendingAfter;
  });
  return messages;
}

/** A model turn the server gave a `reasoning_content` (kept in its thought part's echo, openai-stream.ts). */
function sentReasoningContent(content: Content): boolean {
  return content.role === 'model' && content.parts.some((p) => p.thought && p.echo?.reasoning_content !== undefined);
}

const NO_PENDING: PendingCall[] = [];
let lastSystem: ChatCompletionMessageParam | null = null;

/** The same object while the text is the same, so its JSON is encoded once (wire-json.ts). */
function systemMessage(text: string): ChatCompletionMessageParam {
  if (lastSystem?.content !== text) lastSystem = { role: 'system', content: text };
  return lastSystem;
}

function translateEntry(content: Content, turn: number, pending: PendingCall[], shape: MessageShape): Omit<TranslatedEntry, 'context'> {
  if (content.role === 'model') {
    const assistant = assistantMessage(content.parts, turn, shape);
    return { messages: assistant ? [assistant.message] : [], pendingAfter: assistant?.calls ?? [] };
  }
  const messages: ChatCompletionMessageParam[] = [];
  const pendingAfter = pushUserContent(messages, content.parts, pending, shape);
  return { messages, pendingAfter };
}

function assistantMessage(parts: Part[], turn: number, shape: MessageShape) {
  const text = parts
    .filter((p) => p.text !== undefined && !p.thought)
    .map((p) => p.text)
    .join('');
  const callParts = parts.filter((p) => p.functionCall);
  // The calls as the history names them (the tool results answer those ids); the wire's may differ (toolCallIdFor).
  const ids = callParts.map((p, i) => p.functionCall!.id ?? `call_${turn}_${i}`);
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = callParts.map((p, i) => {
    // What the server asked to get back on this call (Google's extra_content.google.thought_signature).
    const { [LEGACY_FUNCTION_CALL]: _legacy, ...echo } = p.echo ?? {};
    const call = { id: toolCallIdFor(ids[i]!, shape), type: 'function', function: { name: p.functionCall!.name, arguments: JSON.stringify(p.functionCall!.args ?? {}) } } as const;
    return { ...call, ...echo };
  });
  if (text === '' && toolCalls.length === 0) return null; // strict servers reject an empty assistant turn
  // Fields the server asked to get back on this message (dialects.ts): reasoning_content, reasoning_details...
  const echoed = Object.assign({}, ...parts.filter((p) => p.thought && p.echo).map((p) => p.echo)) as Record<string, unknown>;
  if ((shape.reasoningOnToolTurns && toolCalls.length > 0) || shape.reasoningOnEveryTurn) echoed.reasoning_content ??= '';
  const [only] = toolCalls;
  if (only && toolCalls.length === 1 && callParts[0]!.echo?.[LEGACY_FUNCTION_CALL] === true) {
    // A server that answered with the functions API reads its own form back: one function_call, no id.
    const legacy = { ...echoed, role: 'assistant', content: text === '' ? noText(shape) : text, function_call: only.function } as ChatCompletionAssistantMessageParam;
    return { message: legacy, calls: [{ id: ids[0]!, name: only.function.name, legacy: true }] };
  }
  const thought = shape.thinkingInContent ? parts.filter((p) => p.thought && p.text).map((p) => p.text).join('') : '';
  const message: ChatCompletionAssistantMessageParam = {
    ...echoed,
    role: 'assistant',
    content: thought !== '' ? thinkingContent(thought, text) : text === '' ? noText(shape) : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return { message, calls: toolCalls.map((c, i) => ({ id: ids[i]!, name: c.function.name })) };
}

/** The content of an assistant message with no text (MessageShape.stringContent). */
function noText(shape: MessageShape): string | null {
  return shape.stringContent ? '' : null;
}

function pushUserContent(messages: ChatCompletionMessageParam[], parts: Part[], pending: PendingCall[], shape: MessageShape): PendingCall[] {
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
    if (pending.some((c) => c.id === callId && c.legacy)) {
      messages.push({ role: 'function', name: response.name, content: toolMessageText(response.response) });
      continue;
    }
    const message: ChatCompletionMessageParam = { role: 'tool', tool_call_id: toolCallIdFor(callId, shape), content: toolMessageText(response.response) };
    // Not in OpenAI's schema, and some relays refuse it: only where the dialect asks.
    messages.push(shape.toolNames ? Object.assign(message, { name: response.name }) : message);
  }
  const lastTool = messages.at(-1);
  if (rest.length > 0 && (shape.noUserAfterTools || shape.noImages) && lastTool?.role === 'tool') {
    // What would follow the tool messages (their media, or the notes that replaced it) goes into
    // the last of them, as text.
    const images = rest.filter((p) => p.inlineData).length;
    const texts = rest.flatMap((p) => (p.text !== undefined ? [p.text] : []));
    const why = shape.noImages ? 'this model takes text only' : 'this server takes none after tool results';
    const note = images > 0 ? [`[${images} attachment(s) returned by the tool calls are not shown: ${why}]`] : [];
    lastTool.content = [lastTool.content as string, ...texts, ...note].join('\n');
    return unanswered;
  }
  if (rest.length > 0) {
    // Images next to tool results cannot go in a tool message (text only): they follow as user content.
    const lead = parts.some((p) => p.functionResponse) && rest.some((p) => p.inlineData);
    messages.push({ role: 'user', content: userContent(rest, lead, shape.noImages === true) });
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

/**
 * A tool message's text, never empty: a tool that answered nothing (an MCP tool whose content is
 * empty) made a message GLM (z.ai, code 1213: the prompt was not received) and MiniMax ("chat content
 * is empty", 2013) refuse, and the history holds it, so every later request of the run was refused.
 */
function toolMessageText(response: Record<string, unknown>): string {
  const text = functionResponseText(response);
  return text.trim() === '' ? '(empty)' : text;
}

/** `{output: "text"}` goes as the text itself; anything else as JSON. */
export function functionResponseText(response: Record<string, unknown>): string {
  const keys = Object.keys(response ?? {});
  if (keys.length === 1 && keys[0] === 'output' && typeof response.output === 'string') return response.output;
  return JSON.stringify(response ?? {});
}

function userContent(parts: Part[], fromTools: boolean, noImages: boolean): string | ChatCompletionContentPart[] {
  if (noImages) return parts.map((p) => (p.inlineData ? `[${p.inlineData.mimeType} attachment not shown: this model takes text only]` : (p.text ?? ''))).join('\n');
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

const NINE_CHARS = /^[A-Za-z0-9]{9}$/;

/**
 * The id a call goes out under. Mistral refuses any tool-call id that is not 9 letters and digits
 * ("Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9"), and ids it did not make
 * reach it: one the runner invents (a server that sent none, two calls sharing one), or a history
 * continued from another provider's run. Such an id becomes 9 characters of its hash: the same on
 * the call and on its result, and on every request.
 */
export function toolCallIdFor(id: string, shape: MessageShape): string {
  if (!shape.nineCharIds || NINE_CHARS.test(id)) return id;
  return createHash('sha256').update(id).digest('base64url').replace(/[-_]/g, '').slice(0, 9);
}

/** Mistral's content list: the thinking (closed: it ended) and then the answer, as the server sent them. */
function thinkingContent(thought: string, text: string): ChatCompletionAssistantMessageParam['content'] {
  const blocks: unknown[] = [{ type: 'thinking', thinking: [{ type: 'text', text: thought }], closed: true }];
  if (text !== '') blocks.push({ type: 'text', text });
  return blocks as ChatCompletionAssistantMessageParam['content'];
}
