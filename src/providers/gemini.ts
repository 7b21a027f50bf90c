// The Gemini provider with an API key: the REST API (streamGenerateContent over SSE, or
// generateContent), one request per model turn, with @google/genai's types for every wire shape but
// not its client. On Vertex AI (GOOGLE_GENAI_USE_VERTEXAI=true, the SDK's own switch) the SDK's
// Node client does the talking, for its Application Default Credentials: gemini-vertex.ts.
//
// Why not the SDK's client: a request through `models.generateContentStream` converts the whole
// history again (a generic field-by-field copy, getValueByPath/partToMldev), JSON-encodes it, and
// travels through fetch-style Request/Response/Headers/ReadableStream objects; a CPU profile of the
// 202-turn rename benchmark put 1.5-2.5 ms per turn there, more than the rest of the runner. The
// API-key protocol is one header and one URL, and what the client added on top was ours already:
// HTTP errors are classified from status, headers and body (gemini-mapping.ts httpError; the SDK's
// ApiError drops the headers, Retry-After with them), its retries and "automatic continuation" were
// off (retry.ts decides), and key and endpoint came from the env we are given. So the body is
// assembled from the text each history entry was encoded to once (gemini-wire.ts), sent over a
// keep-alive connection by our own HTTP/1.1 client (http1.ts), and the SSE stream parsed as it
// arrives (sse.ts). The SDK's types keep the shapes honest; nothing of it loads at run time
// (web_search still uses its client).
//
// Faults: an idle timer aborts a stream that stops sending ('stalled'; any byte counts as life); a
// stream that ends without a finishReason or dies mid-way is 'cut_off', so a half-received function
// call never reaches a tool; an error event inside the stream is classified as its HTTP status is.
import type { Tool } from '@google/genai/web';
import type { FunctionDeclaration } from '../types/content.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { InputError } from '../types/errors.js';
import { TurnAccumulator, httpError, mapSdkError, type GeminiChunk } from './gemini-mapping.js';
import { contentJson, geminiRequestBody } from './gemini-wire.js';
import { abortReason, oneLine } from './http-errors.js';
import { bodyText, headerGetter, post } from './http1.js';
import { ListBody, type ChunkedBody } from './list-body.js';
import { withEstimatedUsage } from './missing-usage.js';
import { IdleWatch, silenceAllowedMs, WHOLE_ANSWER_IDLE_TIMEOUTS } from './idle-watch.js';
import { SseDecoder } from './sse.js';
import { resolveVertex } from './vertex.js';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export const MISSING_KEY_MESSAGE =
  'GEMINI_API_KEY is not set: export GEMINI_API_KEY=<key> (or GOOGLE_API_KEY), or replay recorded turns offline with the scripted provider (--provider scripted --script FILE, or provider: scripted in a recipe)';

export interface GeminiProviderOptions {
  model: string;
  env: NodeJS.ProcessEnv;
  /** Recipe/flag endpoint; wins over GOOGLE_GEMINI_BASE_URL. */
  baseUrl?: string | null;
  /** Abort the stream when no chunk arrives for this long (default 60 s). */
  idleTimeoutMs?: number;
  /** false: generateContent, one whole answer per turn (provider_options.stream, --no-stream). */
  stream?: boolean;
  /** provider_options.max_output_tokens, sent as maxOutputTokens. */
  maxOutputTokens?: number | null;
}

export function resolveGeminiKey(env: NodeJS.ProcessEnv): string {
  const key = env.GEMINI_API_KEY?.trim() || env.GOOGLE_API_KEY?.trim();
  if (!key) throw new ProviderError('auth', MISSING_KEY_MESSAGE + otherProviderKeys(env));
  return key;
}

/**
 * Gemini is the provider of a run that names none: a Claude Code or Codex user with only their own
 * key set was told to set GEMINI_API_KEY, with no word that the key they have works here too.
 */
function otherProviderKeys(env: NodeJS.ProcessEnv): string {
  const set = (name: string) => Boolean(env[name]?.trim());
  const anthropic = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'].find(set);
  const others = [
    ...(anthropic ? [`${anthropic} is set: for Claude, --provider anthropic (or -m claude-sonnet-4-5)`] : []),
    ...(set('OPENAI_API_KEY') ? ['OPENAI_API_KEY is set: for OpenAI, -m gpt-5 (or --provider openai -m MODEL, with --base-url URL for another server)'] : []),
  ];
  return others.length ? `; ${others.join('; ')}` : '';
}

/** The API version of the REST paths (the SDK's default for API-key access). */
export const GEMINI_API_VERSION = 'v1beta';

export async function createGeminiProvider(opts: GeminiProviderOptions): Promise<ModelProvider> {
  const vertex = resolveVertex(opts.env);
  if (vertex) return (await import('./gemini-vertex.js')).createVertexProvider(opts, vertex);
  const apiKey = resolveGeminiKey(opts.env);
  const baseUrl = resolveGeminiBaseUrl(opts);
  const stream = opts.stream ?? true;
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/${GEMINI_API_VERSION}/${modelPath(opts.model)}:${method}`);
  const headers = Object.freeze({ 'content-type': 'application/json', 'x-goog-api-key': apiKey, 'user-agent': 'unattended' });
  const settings = { url, headers, model: opts.model, idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, stream, maxOutputTokens: opts.maxOutputTokens ?? null };
  return new GeminiProvider(settings);
}

/** `models/NAME`, as the SDK names a model (`models/...` and `tunedModels/...` pass as they are). */
function modelPath(model: string): string {
  if (!model || model.includes('..') || /[?&#\s]/.test(model)) {
    throw new ProviderError('bad_request', `invalid Gemini model name '${model}': expected a name such as gemini-2.5-flash`);
  }
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

/**
 * The endpoint, checked now: a malformed one would otherwise surface at the first request as a
 * 'network' error and be retried five times. A config error is 'bad_request' (never retried) and
 * names the setting to fix.
 */
export function resolveGeminiBaseUrl(opts: Pick<GeminiProviderOptions, 'baseUrl' | 'env'>): string {
  const fromRecipe = opts.baseUrl?.trim();
  const fromEnv = opts.env.GOOGLE_GEMINI_BASE_URL?.trim();
  const raw = fromRecipe || fromEnv || DEFAULT_GEMINI_BASE_URL;
  let valid = false;
  try {
    const url = new URL(raw);
    valid = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    // not a URL at all
  }
  if (!valid) {
    const source = fromRecipe ? 'Gemini base URL (recipe base_url / --base-url)' : 'GOOGLE_GEMINI_BASE_URL';
    throw new InputError(`invalid ${source} '${raw}': expected an http(s) URL such as ${DEFAULT_GEMINI_BASE_URL}`);
  }
  // The URL with the API version the docs' examples carry (…/v1beta): the version is added here,
  // and every request went to …/v1beta/v1beta/models/…, a 404.
  return raw.replace(/\/+$/, '').replace(/\/v1beta$/, '');
}

interface GeminiSettings {
  url: URL;
  headers: Record<string, string>;
  model: string;
  idleTimeoutMs: number;
  stream: boolean;
  maxOutputTokens: number | null;
}

class GeminiProvider implements ModelProvider {
  readonly name = 'gemini';
  readonly model: string;
  private turns = 0;
  /** The last request's bytes, which the next one starts from. */
  private readonly body = new ListBody(contentJson);

  constructor(private readonly s: GeminiSettings) {
    this.model = s.model;
  }

  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
    const turn = ++this.turns;
    options.signal.throwIfAborted();
    const { s } = this;
    const idle = new IdleWatch(silenceAllowedMs(s.idleTimeoutMs, s.stream), options.signal);
    const signal = idle.signal;
    const acc = new TurnAccumulator();
    const body = geminiRequestBody(request, { tools: geminiTools, maxOutputTokens: s.maxOutputTokens }, this.body);
    const take = (data: string) => {
      const delta = acc.add(parseChunk(data, acc.chunks));
      if (delta && options.onText) options.onText(delta);
    };
    let responded = false;
    try {
      // Not streamed: the watch bounds the whole answer (silenceAllowedMs), never re-armed.
      idle.arm();
      const res = await post(s.url, s.headers, body, signal, options.onSent);
      responded = true;
      const status = res.status;
      if (status < 200 || status > 299) {
        const text = await bodyText(res, signal).catch(() => '');
        throw httpError(status, text, headerGetter(res));
      }
      if (!s.stream) {
        take(await bodyText(res, signal));
        return this.finished(acc, turn, body, request);
      }
      if (/json/i.test(headerGetter(res).get('content-type') ?? '')) {
        // One JSON body, not events: the array of chunks streamGenerateContent sends without
        // `alt=sse` (a proxy that drops the query), or an error answered with 200. Events
        // labelled as JSON are read as events.
        const text = await bodyText(res, signal);
        for (const data of /^\s*[[{]/.test(text) ? jsonChunks(text) : new SseDecoder().push(`${text}\n\n`)) take(data);
        return this.finished(acc, turn, body, request);
      }
      const events = new SseDecoder();
      await res.readText(signal, (text) => {
        idle.arm();
        for (const data of events.push(text)) take(data);
      });
      if (events.rest() !== '') {
        throw new ProviderError('empty', `Gemini sent a malformed stream after ${acc.chunks} chunk(s): it ended inside an event (${oneLine(events.rest(), 120)})`);
      }
    } catch (err) {
      if (options.signal.aborted) throw abortReason(options.signal);
      if (idle.fired) throw stalledError(idle.ms, s.stream);
      if (!responded) throw connectionError(err, s.url);
      throw mapSdkError(err, true, acc.chunks);
    } finally {
      idle.dispose();
    }
    return this.finished(acc, turn, body, request);
  }

  /** The turn; estimated usage when the server (a proxy in front of Gemini) sent no counts. */
  private finished(acc: TurnAccumulator, turn: number, body: ChunkedBody, request: ModelRequest): ModelTurn {
    const answer = acc.finish(turn, this.s.maxOutputTokens !== null);
    return acc.sawUsage ? answer : withEstimatedUsage(answer, body.length, this.s.url.origin + this.s.url.pathname, request.contents);
  }
}

/** One event's (or a whole answer's) JSON; an error object in it is classified as its HTTP status would be. */
function parseChunk(data: string, received: number): GeminiChunk {
  let chunk: any;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw new ProviderError('empty', `Gemini sent a malformed stream after ${received} chunk(s): ${oneLine(data, 120)}`);
  }
  if (chunk !== null && typeof chunk === 'object' && chunk.error !== null && typeof chunk.error === 'object') {
    throw httpError(typeof chunk.error.code === 'number' ? chunk.error.code : 500, data, null);
  }
  return chunk as GeminiChunk;
}

/** A JSON body's chunks, each as the text parseChunk reads: an array's entries, or the body itself. */
function jsonChunks(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map((entry) => JSON.stringify(entry)) : [text];
  } catch {
    return [text]; // parseChunk names it malformed
  }
}

/** A request that got no response: the endpoint named, with the socket's error code. */
function connectionError(err: unknown, url: URL): unknown {
  if (err instanceof ProviderError) return err;
  const mapped = mapSdkError(err, false);
  if (mapped instanceof ProviderError && mapped.kind === 'network') {
    return new ProviderError('network', mapped.message.replace('the Gemini API', url.origin));
  }
  return mapped;
}

// The loop passes the same declarations array every turn until the tool set changes.
const toolsFor = new WeakMap<FunctionDeclaration[], Tool[]>();

export function geminiTools(declarations: FunctionDeclaration[]): Tool[] {
  let tools = toolsFor.get(declarations);
  if (!tools) {
    const functionDeclarations = declarations.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: tool.parameters,
    }));
    tools = [{ functionDeclarations }];
    toolsFor.set(declarations, tools);
  }
  return tools;
}

/**
 * A stream that sent nothing for the idle timeout, or an answer not streamed that did not come
 * whole in its time (the REST path here, the SDK's in gemini-vertex.ts).
 */
export function stalledError(silentMs: number, stream = true): ProviderError {
  return stream
    ? new ProviderError('stalled', `Gemini stream stalled: no data for ${formatSeconds(silentMs)}; request aborted`)
    : new ProviderError('stalled', `Gemini sent no answer within ${formatSeconds(silentMs)} (streaming is off, so the whole answer gets ${WHOLE_ANSWER_IDLE_TIMEOUTS} idle timeouts); request aborted`);
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}
