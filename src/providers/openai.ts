// The `openai` provider: any OpenAI-compatible chat-completions endpoint (OpenAI, DeepSeek, OpenRouter,
// Google, Qwen/DashScope, vLLM, Ollama, llama.cpp) through the `openai` SDK, loaded on first use;
// what each server family does differently is data (dialects.ts), read by openai-stream.ts and
// openai-mapping.ts.
// The SDK never retries (src/providers/retry.ts decides) and never reads process.env: everything
// comes from the env passed in, so a run is reproducible from its inputs.
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Stream } from 'openai/streaming';
import { toOpenAIMessages, toOpenAITools, type MessageShape } from './openai-mapping.js';
import { completionAsChunk, eventStreamChunks, TurnAssembler, WINDOW_FULL } from './openai-stream.js';
import { dialectFor, type Dialect, type DialectName } from './dialects.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { InputError } from '../types/errors.js';
import { abortReason } from './http-errors.js';
import { fromEndpoint, httpFailure, IMAGES_REFUSED, pageFailure, toProviderError } from './api-errors.js';
import { IdleWatch, sdkTimeoutMs, silenceAllowedMs, WHOLE_ANSWER_IDLE_TIMEOUTS } from './idle-watch.js';
import { liveFetch, requestHooks } from './live-fetch.js';
import { jsonBody } from './wire-json.js';
import { withEstimatedUsage } from './missing-usage.js';
import { SilentCutWatch } from './silent-cut.js';
import { SERVER_OWN_LIMIT, serverLimitNote, WINDOW_ENDED_ANSWER, windowFilledMidAnswer } from './window-filled.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Sent when a custom endpoint is configured without a key: local servers ignore it, the SDK needs one. */
export const PLACEHOLDER_API_KEY = 'unattended-no-key';

export interface OpenAIProviderOptions {
  model: string;
  /** Per-recipe `base_url`; wins over OPENAI_BASE_URL. */
  baseUrl: string | null;
  env: NodeJS.ProcessEnv;
  /** A stream with no data for this long is abandoned as 'stalled' (default 60 s). */
  idleTimeoutMs?: number;
  /** false: one non-streamed response per turn, for servers whose streaming is broken. Default true. */
  stream?: boolean;
  /** The server family (dialects.ts); default: from the base URL's host, else `generic`. */
  dialect?: DialectName | null;
  /** provider_options.images: false sends no image parts; default: the dialect's (dialects.ts `textOnly`). */
  images?: boolean | null;
  /** provider_options.max_output_tokens. */
  maxOutputTokens?: number | null;
}

type OpenAIModule = typeof import('openai');

/**
 * Azure OpenAI: its hosts, or a deployment URL (`/openai/deployments/NAME?api-version=…`). A key
 * goes in an `api-key` header there (the deployment URLs refuse one sent as a bearer token), and
 * comes from AZURE_OPENAI_API_KEY when that is set, as Azure's own tools read it.
 */
function isAzure(baseURL: string): boolean {
  const url = new URL(baseURL);
  return /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i.test(url.hostname) || url.pathname.startsWith('/openai/deployments/');
}

export async function createOpenAIProvider(opts: OpenAIProviderOptions): Promise<ModelProvider> {
  const { baseURL, query } = resolveBaseUrl(opts);
  const azure = isAzure(baseURL);
  const keyVariable = azure && opts.env.AZURE_OPENAI_API_KEY?.trim() ? 'AZURE_OPENAI_API_KEY' : 'OPENAI_API_KEY';
  const apiKey = opts.env[keyVariable]?.trim() || null;
  if (!apiKey && new URL(baseURL).hostname === 'api.openai.com') {
    throw new ProviderError(
      'auth',
      'OPENAI_API_KEY is not set: export it, or point OPENAI_BASE_URL (recipe base_url) at a server that needs no key',
    );
  }
  const sdk: OpenAIModule = await import('openai');
  const client = new sdk.OpenAI({
    apiKey: apiKey ?? PLACEHOLDER_API_KEY,
    baseURL,
    organization: opts.env.OPENAI_ORG_ID || null,
    project: opts.env.OPENAI_PROJECT_ID || null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    // A query in the base URL (Azure's `?api-version=…`) goes on every request, after the path.
    ...(query ? { defaultQuery: query } : {}),
    ...(azure && apiKey ? { defaultHeaders: { 'api-key': apiKey, Authorization: null } } : {}),
    fetch: liveFetch(
      (status, text, headers) => httpFailure(status, text, headers, { baseURL, model: opts.model, keyVariable }),
      (status, contentType, head) => pageFailure(status, contentType, head, { baseURL, answer: 'a chat completion' }),
    ),
    logLevel: 'off', // failures reach the caller as ProviderErrors; nothing here prints
  });
  const dialect = dialectFor(baseURL, opts.dialect);
  const settings: CallSettings = {
    client,
    sdk,
    model: opts.model,
    baseURL,
    idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    stream: opts.stream ?? true,
    streamOptions: true,
    thinkingOff: false,
    dialect,
    imagesSet: opts.images === true,
    shape: { toolNames: dialect.toolResultName, noUserAfterTools: dialect.noUserAfterTools, noImages: !(opts.images ?? !dialect.textOnly), nineCharIds: dialect.nineCharIds, thinkingInContent: dialect.thinkingInContent, reasoningContent: dialect.echoMessage.some((e) => e.field === 'reasoning_content'), reasoningOnEveryTurn: dialect.echoMessage.some((e) => e.field === 'reasoning_content' && e.everyTurn) },
    maxOutputTokens: opts.maxOutputTokens ?? null,
    capField: dialect.name === 'openai' ? 'max_completion_tokens' : 'max_tokens',
    selfHosted: SELF_HOSTED.has(dialect.name),
    // The servers that cut a conversation too long for them rather than refuse it are local ones.
    cuts: SELF_HOSTED.has(dialect.name) ? new SilentCutWatch(baseURL) : null,
  };
  return {
    name: 'openai',
    model: opts.model,
    generate: (request, options) => generate(settings, request, options),
  };
}

/** The base URL without its query (the SDK would append the path after it), and that query. */
function resolveBaseUrl(opts: OpenAIProviderOptions): { baseURL: string; query: Record<string, string> | null } {
  const fromRecipe = opts.baseUrl?.trim();
  const raw = fromRecipe || opts.env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    // Name the setting to fix, as the gemini provider does.
    const source = fromRecipe ? 'OpenAI base URL (recipe base_url / --base-url)' : 'OPENAI_BASE_URL';
    throw new InputError(`invalid ${source} '${raw}': expected http(s)://host[:port]/v1`);
  }
  if (url.search === '') return { baseURL: withoutEndpoint(raw), query: null };
  const query = Object.fromEntries(url.searchParams);
  url.search = '';
  url.hash = '';
  return { baseURL: withoutEndpoint(url.toString()), query };
}

/**
 * The endpoint's own URL (`…/v1/chat/completions`, as curl examples and Azure's portal show it)
 * given as the base URL: the SDK adds /chat/completions itself, and every request went to
 * `…/chat/completions/chat/completions`, a 404 that named the model.
 */
function withoutEndpoint(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/chat\/completions$/i, '');
}

interface CallSettings {
  client: OpenAI;
  sdk: OpenAIModule;
  model: string;
  baseURL: string;
  idleTimeoutMs: number;
  stream: boolean;
  /** Whether to ask for usage with `stream_options`; cleared for the run once the server refuses it (ADJUSTMENTS). */
  streamOptions: boolean;
  /** Send `enable_thinking: false`: set for the run once DashScope refuses a non-streamed request without it (ADJUSTMENTS). */
  thinkingOff: boolean;
  dialect: Dialect;
  /** How the dialect and provider_options want messages written. */
  shape: MessageShape;
  /** provider_options.images: true, which a server's refusal of images does not override (ADJUSTMENTS). */
  imagesSet: boolean;
  maxOutputTokens: number | null;
  /** The cap's field: OpenAI's reasoning models refuse the older max_tokens; most compatible servers know only it (ADJUSTMENTS). */
  capField: 'max_tokens' | 'max_completion_tokens';
  /** The dialect is a self-hosted server's (SELF_HOSTED), whose `length` may be its window filling (window-filled.ts). */
  selfHosted: boolean;
  /** Watches the server's counts for a conversation it cut to fit its window (silent-cut.ts); null for a cloud API's dialect. */
  cuts: SilentCutWatch | null;
}

/** Dialects of servers run by their users (and of those the runner cannot tell apart): not a cloud API's. */
const SELF_HOSTED: ReadonlySet<DialectName> = new Set(['generic', 'ollama', 'vllm', 'llamacpp']);

const LISTS: ReadonlySet<string> = new Set(['messages', 'tools']);
/** With a content type, the SDK sends a string body as it is. */
const JSON_BODY = { 'content-type': 'application/json' };

/**
 * Refusals a request can be changed to satisfy, each once and for the rest of the run (the server
 * will say it again on every request). Matched on the server's words of a 400-like refusal.
 * - `stream_options`: servers that validate strictly (Mistral's 422 "body.stream_options.include_usage:
 *   Extra inputs are not permitted", older Azure api-versions' "Unrecognized request argument
 *   supplied: stream_options") refuse it; it only asks for usage on the last chunk (Mistral sends it
 *   unasked; a server that sends none has its usage estimated).
 * - DashScope's open Qwen3 models think by default and refuse a non-streamed request that does not
 *   turn thinking off ("parameter.enable_thinking must be set to false for non-streaming calls",
 *   Chinese on the mainland endpoint): `stream: false` stays, as the user chose, without thinking.
 * - DashScope's QwQ, QVQ and some Qwen3 models answer only streamed ("This model only support stream
 *   mode, please enable the stream parameter"): with `stream: false` no request would ever succeed.
 * - OpenAI streams o3, gpt-5 and others only to verified organizations ("Your organization must be
 *   verified to stream this model", param `stream`, also through OpenRouter); o1 at its launch took
 *   no streaming at all ("Unsupported value: 'stream' does not support true with this model"). The
 *   same model answers unstreamed.
 * - OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` ("Unsupported parameter:
 *   'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.") behind
 *   hosts that do not name the openai dialect: Azure deployments, gateways passing the body through.
 * - Gemini behind any OpenAI-compatible front the google dialect is not chosen for (Vertex AI's
 *   openapi endpoint, Ollama's cloud models, a LiteLLM or other proxy) refuses a tool message
 *   without its function's name ("function_response.name: Name cannot be empty", ollama#14214),
 *   which other servers refuse to get: the second turn of every run that called a tool failed.
 * - An assistant message that called tools without a word goes with `content: null`, as the spec
 *   has it; LM Studio refuses it ("Invalid 'content': 'content' field must be a string or an array of
 *   objects", a 400) and llama.cpp builds of May 2025 too ("Expected 'content' to be a string or an
 *   array", a 500, which was asked five times over): the second turn of every run that called a
 *   tool failed. Such messages then go with "" (which Bedrock refuses, so not from the start).
 */
const ADJUSTMENTS: ReadonlyArray<{ refusal: RegExp; applies: (s: CallSettings) => boolean; adjust: (s: CallSettings) => void; server?: true }> = [
  { refusal: /stream_options/i, applies: (s) => s.stream && s.streamOptions, adjust: (s) => (s.streamOptions = false) },
  // DashScope answers in Chinese too: 非流式 "non-streaming", 仅支持流式 "only supports streaming" (escaped:
  // the bundle stays ASCII, scripts/build.mjs says why).
  { refusal: /enable_thinking.*(non-streaming|\u975E\u6D41\u5F0F)/i, applies: (s) => !s.stream && !s.thinkingOff, adjust: (s) => (s.thinkingOff = true) },
  { refusal: /only supports? stream mode|\u4EC5\u652F\u6301\u6D41\u5F0F/i, applies: (s) => !s.stream, adjust: (s) => (s.stream = true) },
  { refusal: /must be verified to stream|'stream' does not support true/i, applies: (s) => s.stream, adjust: (s) => (s.stream = false) },
  { refusal: /'max_tokens' is not supported.*max_completion_tokens/i, applies: (s) => s.maxOutputTokens !== null && s.capField === 'max_tokens', adjust: (s) => (s.capField = 'max_completion_tokens') },
  { refusal: /function_response\.name: Name cannot be empty/i, applies: (s) => s.shape.toolNames !== true, adjust: (s) => (s.shape = { ...s.shape, toolNames: true }) },
  // A text-only model refuses every request once a tool returned an image (api-errors.ts).
  {
    refusal: IMAGES_REFUSED,
    applies: (s) => s.shape.noImages !== true && !s.imagesSet,
    adjust: (s) => (s.shape = { ...s.shape, noImages: true }),
    server: true,
  },
  {
    refusal: /'content' (field )?(must|to) be a string or an array/i,
    applies: (s) => s.shape.stringContent !== true,
    adjust: (s) => (s.shape = { ...s.shape, stringContent: true }),
    server: true,
  },
];

async function generate(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  const tried = new Set<number>();
  for (;;) {
    try {
      return await attempt(s, request, options);
    } catch (err) {
      const refused = err instanceof ProviderError && (err.kind === 'bad_request' || err.kind === 'server') ? err : null;
      // A server fault only where a server is known to refuse a request so (llama.cpp's 500s).
      const at = refused === null ? -1 : ADJUSTMENTS.findIndex((a, i) => !tried.has(i) && (refused.kind === 'bad_request' || a.server) && a.applies(s) && a.refusal.test(refused.message));
      if (at < 0) throw err;
      tried.add(at);
      ADJUSTMENTS[at]!.adjust(s);
    }
  }
}

async function attempt(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  options.signal.throwIfAborted();
  // The body as text, each message encoded once over the run (wire-json.ts), posted through the
  // SDK's client (auth, stream parsing, errors) as `chat.completions.create` would post it.
  const body = jsonBody(
    [
      ['model', s.model],
      ['messages', toOpenAIMessages(request.systemInstruction, request.contents, s.shape)],
      ['tools', request.tools.length > 0 ? toOpenAITools(request.tools) : undefined],
      [s.capField, s.maxOutputTokens ?? undefined],
      ['stream', s.stream],
      ['stream_options', s.stream && s.streamOptions ? { include_usage: true } : undefined],
      ['enable_thinking', s.thinkingOff ? false : undefined],
    ],
    LISTS,
  );
  const idle = new IdleWatch(silenceAllowedMs(s.idleTimeoutMs, s.stream), options.signal);
  const signal = idle.signal;
  // With no cap asked for, a self-hosted server's `length` is its window filling (window-filled.ts).
  const lengthFillsWindow = s.selfHosted && s.maxOutputTokens === null;
  const assembler = new TurnAssembler(s.dialect, options.onText, (name) => request.tools.some((t) => t.name === name), lengthFillsWindow ? SERVER_OWN_LIMIT : undefined);
  // Every byte counts as life, SSE comments and empty events included (live-fetch.ts); the stream's
  // last bytes say whether it ended with `data: [DONE]`, whole, or was cut.
  let tail = '';
  const fetchOptions = requestHooks({
    onBytes: (chunk) => {
      idle.arm();
      const last = chunk.subarray(Math.max(0, chunk.byteLength - 32));
      tail = (tail + Buffer.from(last.buffer, last.byteOffset, last.byteLength).toString('latin1')).slice(-32);
    },
    onSent: options.onSent,
  });
  let reading = false;
  let wholeBody = false;
  try {
    if (!s.stream) {
      // Nothing arrives until the answer is complete: the watch bounds the whole of it (silenceAllowedMs),
      // not the SDK's own ten-minute default, which would cut what a longer model_idle_timeout allows.
      idle.arm();
      const answer = await s.client.post<ChatCompletion | string>('/chat/completions', { body, headers: JSON_BODY, stream: false, timeout: sdkTimeoutMs(idle), signal, fetchOptions: requestHooks({ onSent: options.onSent }) });
      reading = true;
      // A server that streams though asked not to (one that always streams): read as the stream it is.
      const streamed = typeof answer === 'string' ? eventStreamChunks(answer) : null;
      if (streamed) {
        for (const chunk of streamed.chunks) assembler.push(chunk);
        wholeBody = streamed.done;
      } else {
        assembler.push(completionAsChunk(answer));
        wholeBody = true;
      }
    } else {
      idle.arm();
      const { data: stream, response } = await s.client
        .post<Stream<ChatCompletionChunk>>('/chat/completions', { body, headers: JSON_BODY, stream: true, timeout: sdkTimeoutMs(idle), signal, fetchOptions })
        .withResponse();
      reading = true;
      if (/json/i.test(response.headers.get('content-type') ?? '')) {
        // One JSON body for a stream request: a server that ignores `stream` with tools (a whole
        // completion), or an error answered with 200. The SDK would find no event in it ("cut off").
        assembler.push(completionAsChunk(await response.text()));
        wholeBody = true;
      } else {
        for await (const chunk of stream) {
          idle.arm();
          assembler.push(chunk);
        }
      }
    }
    // The SDK ends a stream quietly when its signal aborts: find out whether that happened.
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    // The server's counts, or (it sent none) an estimate from the bytes.
    const counted = assembler.sawUsage;
    const measured = (t: ModelTurn): ModelTurn => (counted ? t : withEstimatedUsage(t, Buffer.byteLength(body), s.baseURL, request.contents));
    let turn: ModelTurn;
    try {
      turn = measured(assembler.finish(wholeBody || /data:[ \t]*\[DONE\][ \t]*(\r?\n)*$/.test(tail)));
    } catch (err) {
      // Nothing written before a `length` stop: the window full before a word is a refusal for
      // length, which compaction answers, not an empty answer to ask again and then blame on an
      // output cap the user never set (window-filled.ts weighs the counts against thinking).
      const unwritten = lengthFillsWindow && err instanceof ProviderError && err.kind === 'empty' ? assembler.unwritten() : null;
      throw (unwritten && windowFilledMidAnswer(measured(unwritten), body.length, counted)) || err;
    }
    // Without counts there is nothing to compare: the watch forgets the last request.
    if (!counted) s.cuts?.check(request.contents, body.length, 0);
    const full = lengthFillsWindow ? windowFilledMidAnswer(turn, body.length, counted) : null;
    if (full) throw full;
    if (lengthFillsWindow) turn = serverLimitNote(turn);
    if (WINDOW_FULL.has(turn.finish.raw ?? '')) turn = { ...turn, notOurCap: WINDOW_ENDED_ANSWER };
    const notice = counted ? s.cuts?.check(request.contents, body.length, turn.usage.input) : null;
    return notice ? { ...turn, notice } : turn;
  } catch (err) {
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    throw fromEndpoint(toProviderError(err, s, reading), s.baseURL);
  } finally {
    idle.dispose();
  }
}

function stalled(s: CallSettings): ProviderError {
  if (!s.stream) {
    const ms = silenceAllowedMs(s.idleTimeoutMs, false);
    return new ProviderError('stalled', `no answer from ${s.baseURL} within ${ms / 1000}s (streaming is off, so the whole answer gets ${WHOLE_ANSWER_IDLE_TIMEOUTS} idle timeouts): the request was abandoned`);
  }
  return new ProviderError('stalled', `no data from ${s.baseURL} for ${s.idleTimeoutMs / 1000}s: the response was abandoned`);
}
