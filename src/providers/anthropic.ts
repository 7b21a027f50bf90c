// The `anthropic` provider: the Messages API through `@anthropic-ai/sdk`, loaded on first use.
// As with the other SDKs, its retries are off (retry.ts decides), it reads nothing from
// process.env (key and endpoint come from the env passed in), and its transport is ours
// (live-fetch.ts): HTTP errors in the server's words, every byte of a stream a sign of life.
import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsBase, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Stream } from '@anthropic-ai/sdk/streaming';
import type { Content, Part } from '../types/content.js';
import { addUsage } from '../types/content.js';
import type { ProviderOptions } from '../types/provider-options.js';
import { DEFAULT_PROVIDER_OPTIONS } from '../types/provider-options.js';
import { toAnthropicRequest } from './anthropic-mapping.js';
import { MessageAssembler, messageAsEvents } from './anthropic-stream.js';
import { fromEndpoint, httpFailure, IMAGES_REFUSED, pageFailure, streamFailure } from './api-errors.js';
import { abortReason, oneLine } from './http-errors.js';
import { IdleWatch, sdkTimeoutMs, silenceAllowedMs, WHOLE_ANSWER_IDLE_TIMEOUTS } from './idle-watch.js';
import { liveFetch, requestHooks } from './live-fetch.js';
import { jsonBody } from './wire-json.js';
import { eventStreamData } from './sse.js';
import { withEstimatedUsage } from './missing-usage.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { InputError } from '../types/errors.js';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** The API requires a cap on every answer; this one leaves room for a large edit. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

export interface AnthropicProviderOptions {
  model: string;
  /** Recipe/flag endpoint; wins over ANTHROPIC_BASE_URL. */
  baseUrl: string | null;
  env: NodeJS.ProcessEnv;
  idleTimeoutMs?: number;
  options?: Partial<ProviderOptions>;
}

type AnthropicModule = typeof import('@anthropic-ai/sdk');

export async function createAnthropicProvider(opts: AnthropicProviderOptions): Promise<ModelProvider> {
  const apiKey = opts.env.ANTHROPIC_API_KEY?.trim() || null;
  // Claude Code's (and the SDK's) bearer token, which gateways and Anthropic-compatible APIs (z.ai,
  // Kimi, DeepSeek, LiteLLM) tell their users to set with ANTHROPIC_BASE_URL: sent as the SDK
  // sends it, `Authorization: Bearer`, beside the key when both are set.
  const authToken = opts.env.ANTHROPIC_AUTH_TOKEN?.trim() || null;
  if (!apiKey && !authToken) {
    throw new ProviderError('auth', 'ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=<key> (or ANTHROPIC_AUTH_TOKEN, a gateway\'s bearer token), or use another --provider');
  }
  const keyVariable = apiKey ? 'ANTHROPIC_API_KEY' : 'ANTHROPIC_AUTH_TOKEN';
  const baseURL = resolveAnthropicBaseUrl(opts);
  const sdk: AnthropicModule = await import('@anthropic-ai/sdk');
  const client = new sdk.Anthropic({
    apiKey,
    authToken,
    baseURL,
    maxRetries: 0,
    logLevel: 'off',
    fetch: liveFetch(
      (status, text, headers) => httpFailure(status, text, headers, { baseURL, model: opts.model, keyVariable }),
      (status, contentType, head) => pageFailure(status, contentType, head, { baseURL, answer: 'a message' }),
      { nameEvents: true },
    ),
  });
  const options = { ...DEFAULT_PROVIDER_OPTIONS, ...opts.options };
  const settings: CallSettings = { client, sdk, model: opts.model, baseURL, keyVariable, idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, options, outputCap: null, noImages: false };
  // Anthropic reads its cache at a tenth of the input price and writes it at 1.25 times; without
  // breakpoints nothing is cached, and every byte is new.
  const cachePrices = options.cache ? { read: 0.1, write: 1.25 } : { read: 1, write: 1 };
  return { name: 'anthropic', model: opts.model, cachePrices, generate: (request, generateOptions) => generate(settings, request, generateOptions) };
}

export function resolveAnthropicBaseUrl(opts: Pick<AnthropicProviderOptions, 'baseUrl' | 'env'>): string {
  const fromRecipe = opts.baseUrl?.trim();
  const raw = fromRecipe || opts.env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_ANTHROPIC_BASE_URL;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    const source = fromRecipe ? 'Anthropic base URL (recipe base_url / --base-url)' : 'ANTHROPIC_BASE_URL';
    throw new InputError(`invalid ${source} '${raw}': expected an http(s) URL such as ${DEFAULT_ANTHROPIC_BASE_URL}`);
  }
  // The SDK adds /v1/messages itself; a URL copied with /v1 (as OpenAI-style settings have it), or
  // the endpoint's own URL (…/v1/messages, as curl examples show it), would 404.
  return raw.replace(/\/+$/, '').replace(/\/v1\/messages$/i, '').replace(/\/v1$/, '');
}

interface CallSettings {
  client: Anthropic;
  sdk: AnthropicModule;
  model: string;
  baseURL: string;
  /** The variable the credential came from, named when the API refuses it. */
  keyVariable: string;
  idleTimeoutMs: number;
  options: ProviderOptions;
  /** The most output tokens the model takes, once a refusal of the default cap named it (outputCapRefused). */
  outputCap: number | null;
  /** The model refused an image (IMAGES_REFUSED): images are named in the tool's result from then on. */
  noImages: boolean;
}

/**
 * The default cap (8192, plus the thinking budget) is more than some models write in one answer:
 * Claude 3 Haiku takes 4096 ("max_tokens: 8192 > 4096, which is the maximum allowed number of
 * output tokens for claude-3-haiku-20240307"), Opus 4.1 32000 (a thinking budget of 30000 asks
 * 38192), DeepSeek's Anthropic endpoint 8192 ("the valid range of max_tokens is [1, 8192]"). Every
 * request of the run would be refused: the cap the refusal names is taken for the rest of the run.
 * A cap the recipe set is the user's to change, and is left to fail in the API's words.
 */
function outputCapRefused(message: string): number | null {
  const named = /max_tokens: \d+ > (\d+), which is the maximum allowed number of output tokens/i.exec(message) ?? /valid range of max_tokens is \[\d+,\s*(\d+)\]/i.exec(message);
  const cap = named ? Number(named[1]) : NaN;
  return Number.isSafeInteger(cap) && cap > 0 ? cap : null;
}

const LISTS: ReadonlySet<string> = new Set(['messages', 'tools']);
/** With a content type, the SDK sends a string body as it is. */
const JSON_BODY = { 'content-type': 'application/json' };

/**
 * The body as text: each message encoded once over the run (wire-json.ts; the marked copies that
 * carry a cache breakpoint are new each turn and encoded anew), in the order the server caches
 * (tools, system, then the messages), posted through the SDK's client as `messages.create` posts it.
 */
function requestBody(s: CallSettings, request: ModelRequest, stream: boolean): { body: string } {
  const { system, tools, messages } = toAnthropicRequest(request.systemInstruction, request.contents, request.tools, s.options.cache, request.stablePrefix, s.noImages);
  const budget = s.options.thinkingBudget;
  // max_tokens counts thinking too: it must exceed the thinking budget.
  const byDefault = budget ? budget + DEFAULT_MAX_OUTPUT_TOKENS : DEFAULT_MAX_OUTPUT_TOKENS;
  const maxTokens = s.options.maxOutputTokens ?? Math.min(byDefault, s.outputCap ?? byDefault);
  const fields: Array<[keyof MessageCreateParamsBase, unknown]> = [
    ['model', s.model],
    ['max_tokens', maxTokens],
    ['tools', tools],
    ['system', system],
    ['thinking', budget ? { type: 'enabled', budget_tokens: budget } : undefined],
    ['stream', stream],
    ['messages', messages],
  ];
  return { body: jsonBody(fields, LISTS) };
}

/**
 * The API pauses a long turn (`stop_reason: pause_turn`: its own loop, a server tool's, reached its
 * limit of steps) and has it sent back as it is, the last assistant message, to go on from there
 * (docs: "Handling stop reasons"). Taken as the answer, what it had written so far ended the run as
 * its final answer; with nothing written yet, as an empty one. So many continuations at most: each
 * is a paid request.
 */
export const MAX_PAUSE_CONTINUATIONS = 5;

async function generate(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  let turn = await answer(s, request, options);
  for (let pauses = 0; paused(turn) && pauses < MAX_PAUSE_CONTINUATIONS; pauses++) {
    const contents: Content[] = [...request.contents, { role: 'model', parts: withoutTrailingSpace(turn.parts) }];
    try {
      turn = joinedTurns(turn, await answer(s, { ...request, contents }, options));
    } catch (err) {
      // The paused part was billed whatever becomes of the rest.
      if (err instanceof ProviderError) err.spent = err.spent ? addUsage(turn.usage, err.spent) : turn.usage;
      throw err;
    }
  }
  if (paused(turn) && turn.text.trim() === '') {
    const err = new ProviderError('empty', `the API paused the turn (stop_reason: pause_turn) ${MAX_PAUSE_CONTINUATIONS + 1} times before the model wrote anything`);
    err.spent = turn.usage;
    throw err;
  }
  return turn;
}

function paused(turn: ModelTurn): boolean {
  return turn.finish.raw === 'pause_turn' && turn.functionCalls.length === 0;
}

/** The API refuses a final assistant message that ends in white space ("final assistant content cannot end with trailing whitespace"). */
function withoutTrailingSpace(parts: Part[]): Part[] {
  const last = parts.at(-1);
  if (!last || last.text === undefined || last.thought || last.functionCall) return parts;
  return [...parts.slice(0, -1), { ...last, text: last.text.trimEnd() }];
}

/** A paused turn and its continuation, as the one turn they are. */
function joinedTurns(first: ModelTurn, rest: ModelTurn): ModelTurn {
  const turn: ModelTurn = { ...rest, parts: [...first.parts, ...rest.parts], text: first.text + rest.text, usage: addUsage(first.usage, rest.usage) };
  if (first.providerFields || rest.providerFields) turn.providerFields = { ...first.providerFields, ...rest.providerFields };
  if (!turn.model && first.model) turn.model = first.model;
  if (!turn.usageNote && first.usageNote) turn.usageNote = first.usageNote;
  return turn;
}

async function answer(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  // Each refusal a change answers is answered once, and the change kept for the run.
  for (;;) {
    try {
      return await attempt(s, request, options);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      const cap = err.kind === 'bad_request' && s.options.maxOutputTokens == null && s.outputCap === null ? outputCapRefused(err.message) : null;
      // Thinking needs room beyond its budget: a model that writes no more than the budget is the recipe's to fix.
      if (cap !== null && cap > (s.options.thinkingBudget ?? 0)) s.outputCap = cap;
      // A text-only model behind an Anthropic-compatible API (Ollama's, a gateway's): images named from now on.
      else if (!s.noImages && (err.kind === 'bad_request' || err.kind === 'server') && IMAGES_REFUSED.test(err.message)) s.noImages = true;
      else throw err;
    }
  }
}

async function attempt(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  options.signal.throwIfAborted();
  const { body } = requestBody(s, request, s.options.stream);
  const idle = new IdleWatch(silenceAllowedMs(s.idleTimeoutMs, s.options.stream), options.signal);
  const signal = idle.signal;
  const assembler = new MessageAssembler(options.onText);
  let reading = false;
  try {
    if (!s.options.stream) {
      // Nothing arrives until the answer is whole: the watch bounds the whole of it (silenceAllowedMs),
      // as for the other providers. Not the SDK's guess from max_tokens (messages.create's), which
      // refuses, before sending anything, a cap over ~21,000 tokens without streaming and otherwise
      // waits ten minutes whatever model_idle_timeout says; its own timer is left the later one.
      idle.arm();
      const message = await s.client.post<Message>('/v1/messages', { body, headers: JSON_BODY, stream: false, timeout: sdkTimeoutMs(idle), signal, fetchOptions: requestHooks({ onSent: options.onSent }) });
      reading = true;
      for (const event of wholeMessageEvents(message)) assembler.push(event);
    } else {
      idle.arm();
      const { data: stream, response } = await s.client
        .post<Stream<RawMessageStreamEvent>>('/v1/messages', { body, headers: JSON_BODY, stream: true, timeout: sdkTimeoutMs(idle), signal, fetchOptions: requestHooks({ onBytes: () => idle.arm(), onSent: options.onSent }) })
        .withResponse();
      reading = true;
      // One JSON body for a stream request (a gateway that does not stream, or an error answered
      // with 200): the SDK would find no event in it and the answer would read as cut off.
      if (/json/i.test(response.headers.get('content-type') ?? '')) for (const event of wholeMessageEvents(await response.text())) assembler.push(event);
      else for await (const event of stream) assembler.push(event);
    }
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    const turn = assembler.finish();
    return assembler.sawUsage ? turn : withEstimatedUsage(turn, Buffer.byteLength(body), s.baseURL, request.contents);
  } catch (err) {
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    throw fromEndpoint(toProviderError(err, s, reading, assembler.events), s.baseURL);
  } finally {
    idle.dispose();
  }
}

function stalled(s: CallSettings): ProviderError {
  if (!s.options.stream) {
    const ms = silenceAllowedMs(s.idleTimeoutMs, false);
    return new ProviderError('stalled', `no answer from ${s.baseURL} within ${ms / 1000}s (streaming is off, so the whole answer gets ${WHOLE_ANSWER_IDLE_TIMEOUTS} idle timeouts): the request was abandoned`);
  }
  return new ProviderError('stalled', `no data from ${s.baseURL} for ${s.idleTimeoutMs / 1000}s: the response was abandoned`);
}

function toProviderError(err: unknown, s: CallSettings, reading: boolean, events: number): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Error && err.cause instanceof ProviderError) return err.cause;
  const { sdk } = s;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ProviderError('network', `request to ${s.baseURL} timed out`);
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${oneLine(err.cause.message)}` : '';
    return new ProviderError('network', `cannot reach ${s.baseURL}${cause}`);
  }
  if (err instanceof sdk.APIError) {
    // An `event: error` inside the stream (overloaded_error, api_error...): its type says whether to retry.
    if (err.status === undefined) return streamFailure(innerError(err.error) ?? err.message);
    return httpFailure(err.status, JSON.stringify(err.error ?? { error: { message: err.message } }), err.headers ?? new Headers(), {
      baseURL: s.baseURL,
      model: s.model,
      keyVariable: s.keyVariable,
    });
  }
  const text = oneLine(err instanceof Error ? err.message : String(err));
  if (reading) return new ProviderError('cut_off', `the Anthropic response was cut off after ${events} event(s): ${text}`);
  return new ProviderError('network', `request to ${s.baseURL} failed: ${text}`);
}

/** A whole body (JSON text, or as the SDK parsed it): a Message as its events, or the error it carries (a 200 with an error body). */
function wholeMessageEvents(answer: unknown): RawMessageStreamEvent[] {
  let body = answer;
  // A gateway that streams though asked not to (one that always streams): read as the stream it is.
  const streamed = typeof answer === 'string' ? eventStreamData(answer) : null;
  if (streamed) return streamed.filter((data) => data.trim() !== '').map(streamedEvent);
  if (typeof answer === 'string') {
    try {
      body = JSON.parse(answer);
    } catch {
      throw new ProviderError('empty', `the server's answer is neither an event stream nor JSON: ${oneLine(answer, 120) || '(empty)'}`);
    }
  }
  const message = body as Message | null;
  if (message?.type === 'message' && Array.isArray(message.content)) return messageAsEvents(message);
  throw streamFailure(innerError(body) ?? body, 'body');
}

/** One event of an event stream sent whole: an `error` event is the failure it names. */
function streamedEvent(data: string): RawMessageStreamEvent {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    throw new ProviderError('empty', `the server's event stream holds an event that is not JSON: ${oneLine(data, 120)}`);
  }
  if ((event as { type?: unknown } | null)?.type === 'error') throw streamFailure(innerError(event));
  return event as RawMessageStreamEvent;
}

/** Anthropic error bodies are `{type: "error", error: {type, message}}`. */
function innerError(body: unknown): unknown {
  if (body && typeof body === 'object' && 'error' in body) return (body as { error: unknown }).error;
  return body;
}
