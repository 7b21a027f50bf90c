// Gemini on Vertex AI through @google/genai's Node client: its google-auth-library finds
// Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, the file
// google-github-actions/auth writes for workload identity federation; gcloud's; the metadata
// server), which the API-key REST path of gemini.ts has no use for. Loaded only on Vertex AI.
//
// What this layer adds to the SDK, and why:
// - Every setting comes from the env object we are given (vertex.ts), passed explicitly, so the
//   SDK's own env lookups never decide anything.
// - The SDK's HTTP retries and its stream "automatic continuation" are off: retry.ts decides.
// - HTTP errors are classified in a fetch wrapper, because the SDK's ApiError drops the response
//   headers and Retry-After with them.
// - An idle timer aborts a stream that stops sending ('stalled'); a stream that ends without a
//   finishReason or dies mid-way is 'cut_off', so a half-received function call never reaches a tool.
import type { Content as GContent, GenerateContentConfig, GoogleGenAI } from '@google/genai';
import type { Content } from '../types/content.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { DEFAULT_IDLE_TIMEOUT_MS, geminiTools, stalledError, resolveGeminiBaseUrl, type GeminiProviderOptions } from './gemini.js';
import { TurnAccumulator, httpError, mapSdkError, toGeminiPart } from './gemini-mapping.js';
import { abortReason } from './http-errors.js';
import { IdleWatch, silenceAllowedMs } from './idle-watch.js';
import { nodeFetch } from './node-fetch.js';
import { vertexAuthError, type VertexSettings } from './vertex.js';
import { proxyVariablesSet } from '../util/proxy-variables.js';

export async function createVertexProvider(opts: GeminiProviderOptions, vertex: VertexSettings): Promise<ModelProvider> {
  const fromRecipe = opts.baseUrl?.trim();
  const baseUrl = fromRecipe || vertex.baseUrl ? resolveGeminiBaseUrl({ baseUrl: fromRecipe || vertex.baseUrl, env: {} }) : undefined;
  const { GoogleGenAI } = await import('@google/genai');
  const client = new GoogleGenAI({
    vertexai: true,
    ...(vertex.apiKey ? { apiKey: vertex.apiKey } : { project: vertex.project!, location: vertex.location }),
    ...(vertex.credentialsFile ? { googleAuthOptions: { keyFilename: vertex.credentialsFile, scopes: ['https://www.googleapis.com/auth/cloud-platform'] } } : {}),
    httpOptions: { ...(baseUrl ? { baseUrl } : {}), fetch: classifyingFetch },
  });
  const allProxy = proxyVariablesSet() && (await import('../util/proxy.js')).viaAllProxy();
  return new VertexGeminiProvider(client, opts.model, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, opts.stream ?? true, opts.maxOutputTokens ?? null, vertex, allProxy);
}

class VertexGeminiProvider implements ModelProvider {
  readonly name = 'gemini';
  private turns = 0;

  constructor(
    private readonly client: GoogleGenAI,
    readonly model: string,
    private readonly idleTimeoutMs: number,
    private readonly stream: boolean,
    private readonly maxOutputTokens: number | null,
    /** Credentials can fail before any request is sent: such a failure names the file used. */
    private readonly vertex: VertexSettings,
    /** The model's requests go through the proxy ALL_PROXY names, and the credentials' do not (vertex.ts). */
    private readonly allProxy: boolean,
  ) {}

  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
    const turn = ++this.turns;
    options.signal.throwIfAborted();
    const idle = new IdleWatch(silenceAllowedMs(this.idleTimeoutMs, this.stream), options.signal);
    const signal = idle.signal;
    const acc = new TurnAccumulator();
    const params = { model: this.model, contents: toContents(request.contents), config: requestConfig(request, signal, this.maxOutputTokens) };
    try {
      if (!this.stream) {
        // A whole answer is the one chunk a stream would have carried; nothing arrives before it,
        // so the watch bounds the whole of it (silenceAllowedMs).
        idle.arm();
        const delta = acc.add(await this.client.models.generateContent(params));
        if (delta && options.onText) options.onText(delta);
        return acc.finish(turn, this.maxOutputTokens !== null);
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
      if (idle.fired) throw stalledError(idle.ms, this.stream);
      const auth = vertexAuthError(err, this.vertex, this.allProxy);
      if (auth) throw auth;
      // Connection failures were mapped in classifyingFetch; what is left happened mid-response.
      throw mapSdkError(err, true, acc.chunks);
    } finally {
      idle.dispose();
    }
    return acc.finish(turn, this.maxOutputTokens !== null);
  }
}

// Each history entry is translated once (the loop appends; it never edits an entry in place
// without making a new object), not once per turn.
const translated = new WeakMap<Content, GContent>();

function toContents(contents: Content[]): GContent[] {
  return contents.map((content) => {
    let out = translated.get(content);
    if (!out) {
      out = { role: content.role, parts: content.parts.map(toGeminiPart) };
      translated.set(content, out);
    }
    return out;
  });
}

/** Only what the request needs: every field left out is bytes not sent on every turn. */
function requestConfig(request: ModelRequest, signal: AbortSignal, maxOutputTokens: number | null): GenerateContentConfig {
  const config: GenerateContentConfig = { abortSignal: signal, automaticContinuation: false };
  if (maxOutputTokens !== null) config.maxOutputTokens = maxOutputTokens;
  if (request.systemInstruction) config.systemInstruction = request.systemInstruction;
  if (request.tools.length > 0) config.tools = geminiTools(request.tools);
  return config;
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
