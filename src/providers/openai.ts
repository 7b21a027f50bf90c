// The `openai` provider: any OpenAI-compatible chat-completions endpoint (OpenAI, Qwen/DashScope
// compatible mode, vLLM, Ollama, llama.cpp server) through the `openai` SDK, loaded on first use.
// The SDK never retries (src/providers/retry.ts decides) and never reads process.env: everything
// comes from the env passed in, so a run is reproducible from its inputs.
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { completionAsChunk, toOpenAIMessages, toOpenAITools, TurnAssembler } from './openai-mapping.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';
import { abortReason, kindOfStatus, oneLine, retryAfterMs } from './http-errors.js';
import { IdleWatch } from './idle-watch.js';

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
}

type OpenAIModule = typeof import('openai');

export async function createOpenAIProvider(opts: OpenAIProviderOptions): Promise<ModelProvider> {
  const baseURL = resolveBaseUrl(opts);
  const apiKey = opts.env.OPENAI_API_KEY?.trim() || null;
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
    logLevel: 'off', // failures reach the caller as ProviderErrors; nothing here prints
  });
  const settings: CallSettings = {
    client,
    sdk,
    model: opts.model,
    baseURL,
    idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    stream: opts.stream ?? true,
  };
  return {
    name: 'openai',
    model: opts.model,
    generate: (request, options) => generate(settings, request, options),
  };
}

function resolveBaseUrl(opts: OpenAIProviderOptions): string {
  const fromRecipe = opts.baseUrl?.trim();
  const raw = fromRecipe || opts.env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    // Name the setting to fix, as the gemini provider does.
    const source = fromRecipe ? 'OpenAI base URL (recipe base_url / --base-url)' : 'OPENAI_BASE_URL';
    throw new ProviderError('bad_request', `invalid ${source} '${raw}': expected http(s)://host[:port]/v1`);
  }
  return raw.replace(/\/+$/, '');
}

interface CallSettings {
  client: OpenAI;
  sdk: OpenAIModule;
  model: string;
  baseURL: string;
  idleTimeoutMs: number;
  stream: boolean;
}

async function generate(s: CallSettings, request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
  options.signal.throwIfAborted();
  const body: ChatCompletionCreateParamsBase = {
    model: s.model,
    messages: toOpenAIMessages(request.systemInstruction, request.contents),
    ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
  };
  const idle = new IdleWatch(s.idleTimeoutMs);
  const signal = AbortSignal.any([options.signal, idle.signal]);
  const assembler = new TurnAssembler(options.onText);
  let reading = false;
  try {
    if (!s.stream) {
      // Nothing arrives until the answer is complete, so no idle watch: the SDK's timeout applies.
      idle.stop();
      assembler.push(completionAsChunk(await s.client.chat.completions.create({ ...body, stream: false }, { signal })));
    } else {
      idle.arm();
      const stream = await s.client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
      reading = true;
      for await (const chunk of stream) {
        idle.arm();
        assembler.push(chunk);
      }
    }
    // The SDK ends a stream quietly when its signal aborts: find out whether that happened.
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    return assembler.finish();
  } catch (err) {
    if (options.signal.aborted) throw abortReason(options.signal);
    if (idle.fired) throw stalled(s);
    throw toProviderError(err, s, reading);
  } finally {
    idle.stop();
  }
}

function stalled(s: CallSettings): ProviderError {
  return new ProviderError('stalled', `no data from ${s.baseURL} for ${s.idleTimeoutMs / 1000}s: the response was abandoned`);
}

export function toProviderError(err: unknown, s: Pick<CallSettings, 'sdk' | 'baseURL' | 'model'>, reading = false): ProviderError {
  if (err instanceof ProviderError) return err;
  const { sdk } = s;
  if (err instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError('network', `request to ${s.baseURL} timed out`);
  }
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${causeText(err.cause)}` : '';
    return new ProviderError('network', `cannot reach ${s.baseURL}${cause}`);
  }
  if (err instanceof sdk.APIError) {
    const status = err.status;
    const message = oneLine(err.message);
    if (status === undefined) return new ProviderError('server', `the server reported an error mid-stream: ${message}`);
    const kind = kindOfStatus(status);
    if (kind === 'auth') return new ProviderError('auth', `${message} (check OPENAI_API_KEY for ${s.baseURL})`, status);
    if (kind === 'bad_request') {
      const hint = status === 404 ? ` (is model '${s.model}' served at ${s.baseURL}?)` : '';
      return new ProviderError('bad_request', `${message}${hint}`, status);
    }
    return new ProviderError(kind, message, status, retryAfterMs(err.headers));
  }
  const text = err instanceof Error ? causeText(err) : String(err);
  // Body read failures (socket reset, a chunk that is not JSON) mean the answer was cut off.
  if (reading) return new ProviderError('empty', `the response was cut off: ${text}`);
  return new ProviderError('network', `request to ${s.baseURL} failed: ${text}`);
}

/** undici hides the useful part ("connect ECONNREFUSED 127.0.0.1:8000") a cause or two deep. */
function causeText(err: Error): string {
  let deepest: Error = err;
  let code: unknown;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    deepest = e;
    code ??= (e as { code?: unknown }).code;
  }
  const message = deepest.message || err.message;
  return oneLine(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
}
