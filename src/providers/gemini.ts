// The Gemini provider: @google/genai (loaded lazily), streaming, one request per model turn.
// With an API key it loads the SDK's platform-neutral build (`@google/genai/web`): the same
// client, minus what only Vertex AI and file uploads need (google-auth-library, ws), which the
// Node build loads at import; the import drops from ~130 ms to ~30 ms. On Vertex AI
// (GOOGLE_GENAI_USE_VERTEXAI=true, the SDK's own switch) it loads the Node build, whose
// google-auth-library finds Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS (the
// file google-github-actions/auth writes for workload identity federation), gcloud's, or the
// metadata server. See vertex.ts.
//
// What this layer adds to the SDK, and why:
// - The key and base URL come from the env object we are given, never from process.env, and are
//   passed explicitly, so the SDK's own env lookups never decide anything.
// - The SDK's HTTP retries are off (they are off unless httpOptions.retryOptions is set) and so is
//   its stream "automatic continuation" (config.automaticContinuation: false): retry.ts decides.
// - HTTP errors are classified in a fetch wrapper, because the SDK's ApiError drops the response
//   headers and Retry-After with them.
// - An idle timer aborts a stream that stops sending ('stalled'); a stream that ends without a
//   finishReason or dies mid-way is 'empty', so a half-received function call never reaches a tool.
import type { GenerateContentConfig, GoogleGenAI, Tool } from '@google/genai/web';
import type { FunctionDeclaration } from '../types/content.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { TurnAccumulator, httpError, mapSdkError, toGeminiContents } from './gemini-mapping.js';
import { abortReason } from './http-errors.js';
import { IdleWatch } from './idle-watch.js';
import { nodeFetch } from './node-fetch.js';
import { resolveVertex, vertexAuthError, type VertexSettings } from './vertex.js';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export const MISSING_KEY_MESSAGE =
  'GEMINI_API_KEY is not set: export GEMINI_API_KEY=<key> (or GOOGLE_API_KEY), or use --provider scripted';

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
  if (!key) throw new ProviderError('auth', MISSING_KEY_MESSAGE);
  return key;
}

export async function createGeminiProvider(opts: GeminiProviderOptions): Promise<ModelProvider> {
  const vertex = resolveVertex(opts.env);
  if (vertex) return createVertexProvider(opts, vertex);
  const apiKey = resolveGeminiKey(opts.env);
  const baseUrl = resolveGeminiBaseUrl(opts);
  const { GoogleGenAI } = await import('@google/genai/web');
  const client = new GoogleGenAI({
    apiKey,
    vertexai: false,
    httpOptions: { baseUrl, fetch: classifyingFetch },
  });
  return new GeminiProvider(client, opts.model, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, opts.stream ?? true, opts.maxOutputTokens ?? null, null);
}

/** Vertex AI: every setting from the env object we are given, passed explicitly, as above. */
async function createVertexProvider(opts: GeminiProviderOptions, vertex: VertexSettings): Promise<ModelProvider> {
  const fromRecipe = opts.baseUrl?.trim();
  const baseUrl = fromRecipe || vertex.baseUrl ? resolveGeminiBaseUrl({ baseUrl: fromRecipe || vertex.baseUrl, env: {} }) : undefined;
  const { GoogleGenAI } = await import('@google/genai');
  const client = new GoogleGenAI({
    vertexai: true,
    ...(vertex.apiKey ? { apiKey: vertex.apiKey } : { project: vertex.project!, location: vertex.location }),
    ...(vertex.credentialsFile ? { googleAuthOptions: { keyFilename: vertex.credentialsFile, scopes: ['https://www.googleapis.com/auth/cloud-platform'] } } : {}),
    httpOptions: { ...(baseUrl ? { baseUrl } : {}), fetch: classifyingFetch },
  });
  return new GeminiProvider(client as unknown as GoogleGenAI, opts.model, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, opts.stream ?? true, opts.maxOutputTokens ?? null, vertex);
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
    throw new ProviderError('bad_request', `invalid ${source} '${raw}': expected an http(s) URL such as ${DEFAULT_GEMINI_BASE_URL}`);
  }
  return raw;
}

class GeminiProvider implements ModelProvider {
  readonly name = 'gemini';
  private turns = 0;

  constructor(
    private readonly client: GoogleGenAI,
    readonly model: string,
    private readonly idleTimeoutMs: number,
    private readonly stream: boolean,
    private readonly maxOutputTokens: number | null,
    /** Set on Vertex AI, where credentials can fail before any request is sent. */
    private readonly vertex: VertexSettings | null,
  ) {}

  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
    const turn = ++this.turns;
    options.signal.throwIfAborted();
    const idle = new IdleWatch(this.idleTimeoutMs);
    const signal = AbortSignal.any([options.signal, idle.signal]);
    const acc = new TurnAccumulator();
    const params = { model: this.model, contents: toGeminiContents(request.contents), config: requestConfig(request, signal, this.maxOutputTokens) };
    try {
      if (!this.stream) {
        // A whole answer is the one chunk a stream would have carried; nothing arrives before it.
        const delta = acc.add(await this.client.models.generateContent(params));
        if (delta && options.onText) options.onText(delta);
        return acc.finish(turn);
      }
      idle.arm();
      const stream = await this.client.models.generateContentStream(params);
      for await (const chunk of stream) {
        idle.arm();
        const delta = acc.add(chunk);
        if (delta && options.onText) options.onText(delta);
      }
    } catch (err) {
      if (options.signal.aborted) throw abortReason(options.signal);
      if (idle.fired) {
        throw new ProviderError('stalled', `Gemini stream stalled: no data for ${formatSeconds(this.idleTimeoutMs)}; request aborted`);
      }
      if (this.vertex) {
        const auth = vertexAuthError(err, this.vertex);
        if (auth) throw auth;
      }
      // Connection failures were mapped in classifyingFetch; what is left happened mid-response.
      throw mapSdkError(err, true, acc.chunks);
    } finally {
      idle.stop();
    }
    return acc.finish(turn);
  }
}

/** Only what the request needs: every field left out is bytes not sent on every turn. */
function requestConfig(request: ModelRequest, signal: AbortSignal, maxOutputTokens: number | null): GenerateContentConfig {
  const config: GenerateContentConfig = { abortSignal: signal, automaticContinuation: false };
  if (maxOutputTokens !== null) config.maxOutputTokens = maxOutputTokens;
  if (request.systemInstruction) config.systemInstruction = request.systemInstruction;
  if (request.tools.length > 0) config.tools = geminiTools(request.tools);
  return config;
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

/** fetch that turns HTTP and connection failures into ProviderErrors while the headers are in reach. */
const classifyingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  let response: Response;
  try {
    response = await nodeFetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted || (err instanceof Error && err.name === 'AbortError')) throw err;
    const mapped = mapSdkError(err, false);
    if (mapped instanceof ProviderError && mapped.kind === 'network') {
      throw new ProviderError('network', mapped.message.replace('the Gemini API', originOf(input)));
    }
    throw mapped;
  }
  if (response.ok) return response;
  const body = await response.text().catch(() => '');
  throw httpError(response.status, body, response.headers);
};

function originOf(input: string | URL | Request): string {
  try {
    return new URL(typeof input === 'string' || input instanceof URL ? input : input.url).origin;
  } catch {
    return 'the Gemini API';
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}
