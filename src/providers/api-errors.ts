// Failed calls to OpenAI-compatible servers and the Anthropic API, told in the server's own words. Servers shape errors
// differently, and each shape is read wherever it comes from (an HTTP error body or an error
// event inside a 200 stream):
//   {"error": {"message", "code", "metadata": {"raw", "provider_name"}}}   OpenAI, OpenRouter, DeepSeek
//   [{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT"}}]      Google's compat endpoint
//   {"object": "error", "message", "type", "code": 400}                    vLLM
//   {"detail": "..."} / {"error": "..."} / plain text                       FastAPI servers, proxies, llama.cpp
// OpenRouter's `metadata.raw` is the upstream provider's own answer, often the only useful part.
import { ProviderError, type ProviderErrorKind } from './provider.js';
import { kindOfStatus, oneLine, retryAfterMs, retryDelayFromBody, retryDelayFromMessage } from './http-errors.js';
import { isContextLengthError } from './context-errors.js';
import { spentQuota } from './spent-quota.js';

export interface ErrorContext {
  sdk: typeof import('openai');
  baseURL: string;
  model: string;
}

export interface HttpContext {
  baseURL: string;
  model: string;
  /** Named in the hint of an authentication failure. */
  keyVariable: string;
}

export interface ErrorInfo {
  message: string;
  /** A numeric HTTP-like code found in the body (in-stream errors carry one), else null. */
  status: number | null;
  /** A word code (`rate_limit_exceeded`, `server_error`), else null. */
  code: string | null;
}

/** The useful message and code out of any of the shapes above; null when there is nothing to read. */
export function describeErrorBody(body: unknown, depth = 0): ErrorInfo | null {
  if (depth > 4 || body === null || body === undefined) return null;
  if (typeof body === 'string') {
    const parsed = parseJson(body);
    if (parsed !== undefined && typeof parsed !== 'string') return describeErrorBody(parsed, depth + 1);
    return body.trim() === '' ? null : { message: pageText(body) ?? body, status: null, code: null };
  }
  if (Array.isArray(body)) return describeErrorBody(body[0], depth + 1);
  if (typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  const minimax = baseRespError(record.base_resp) ?? (isObject(record.error) ? baseRespError(record.error.base_resp) : null);
  if (minimax) return minimax;
  const inner = record.error;
  if (typeof inner === 'string') return { message: inner, ...codes(record) };
  if (inner && typeof inner === 'object') {
    const error = inner as Record<string, unknown>;
    const info: ErrorInfo = { message: textOf(error.message) ?? textOf(error.status) ?? JSON.stringify(error), ...codes(error) };
    // llama.cpp's refusal for length gives the counts beside its message: keep them, the window among them.
    // Groq's tool_use_failed: what the model wrote instead of a valid call, the only clue to why.
    if (typeof error.failed_generation === 'string' && error.failed_generation.trim() !== '') info.message += ` (failed_generation: ${error.failed_generation})`;
    const counts = ['n_prompt_tokens', 'n_ctx'].filter((key) => Number.isSafeInteger(error[key])).map((key) => `${key}: ${String(error[key])}`);
    if (counts.length > 0) info.message += ` (${counts.join(', ')})`;
    const metadata = (error.metadata ?? {}) as Record<string, unknown>;
    // OpenRouter's moderation refusal (403): a refusal of the content, not of the key.
    if (Array.isArray(metadata.reasons) || typeof metadata.flagged_input === 'string') {
      info.code = 'moderation';
      const reasons = Array.isArray(metadata.reasons) ? metadata.reasons.filter((r): r is string => typeof r === 'string') : [];
      if (reasons.length > 0) info.message += ` (flagged: ${reasons.join(', ')})`;
    }
    const upstream = metadata.raw === undefined ? null : describeErrorBody(metadata.raw, depth + 1);
    if (upstream && upstream.message !== info.message) {
      const who = typeof metadata.provider_name === 'string' ? metadata.provider_name : 'upstream';
      // The upstream's words first: a capped line must not lose them behind the gateway's summary.
      info.message = `${who}: ${upstream.message} [${info.message}]`;
    }
    return info;
  }
  // Mistral nests FastAPI's `detail` list inside `message`.
  const message = textOf(record.message) ?? detailText(record.detail) ?? (isObject(record.message) ? detailText(record.message.detail) : undefined);
  return message === undefined ? null : { message, ...codes(record) };
}

/**
 * An HTML error page (a proxy's or a load balancer's 502 or 503) as the words a person reads on it:
 * its title, else its text; the markup only buried them in the report's one line.
 */
export function pageText(body: string): string | null {
  if (!/^\s*<(!doctype|html|head|body|center|h1)\b/i.test(body)) return null;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  const text = (title || body.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  return text ? `${text} (an HTML page)` : null;
}

/**
 * MiniMax's errors: `base_resp: {status_code, status_msg}` beside `choices: null`, as a 200 body or
 * a stream's one event (good answers carry it too, with 0). Its documented codes
 * (platform.minimax.io/docs/api-reference/errorcode) read as the HTTP status of the same meaning;
 * any other (balance, plan, parameters, content sensitivity) asks the same way twice: 400.
 */
export function baseRespError(value: unknown): ErrorInfo | null {
  if (!isObject(value) || typeof value.status_code !== 'number' || value.status_code === 0) return null;
  const code = value.status_code;
  return { message: `${textOf(value.status_msg) ?? 'error'} (MiniMax status_code ${code})`, status: MINIMAX_STATUS[code] ?? 400, code: null };
}

/** Unknown error, timeout, internal and system errors are retried; rate limits waited out; a refused key is auth. */
const MINIMAX_STATUS: Readonly<Record<number, number>> = { 1000: 500, 1001: 504, 1024: 500, 1033: 500, 1002: 429, 1039: 429, 1004: 401, 2049: 401 };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Zhipu's business codes (z.ai and bigmodel.cn, docs.z.ai/api-reference/api-code), sent as
 * `error.code` ("1301"): in a stream no HTTP status comes with them, and read as an unknown code (a
 * server fault) an overdrawn account, a content refusal or a bad parameter was asked five times
 * over. Each reads as the HTTP status of the same meaning: keys refused 401; account locked or no
 * access to the API or model 403; balance or plan 402; parameters, prompt too long (1261, which the
 * context checks then read by its words) and content 400; concurrency, frequency and usage caps
 * 429; the account service, network and flow errors, and a model too busy, 5xx.
 */
const ZHIPU_STATUS: Readonly<Record<string, number>> = {
  1000: 401, 1001: 401, 1002: 401, 1003: 401, 1004: 401,
  1110: 403, 1111: 403, 1112: 403, 1113: 402, 1120: 503, 1121: 403,
  1200: 400, 1210: 400, 1211: 400, 1212: 400, 1213: 400, 1214: 400, 1215: 400, 1220: 403, 1221: 400, 1222: 400,
  1230: 500, 1231: 409, 1234: 500, 1261: 400,
  1300: 400, 1301: 400, 1302: 429, 1303: 429, 1304: 429, 1305: 429, 1308: 429, 1309: 402, 1310: 429, 1311: 403, 1312: 503, 1313: 429,
};

function codes(record: Record<string, unknown>): Pick<ErrorInfo, 'status' | 'code'> {
  const numeric =
    [record.code, record.status].map(Number).find((n) => Number.isInteger(n) && n >= 400 && n < 600) ??
    (/^1\d{3}$/.test(String(record.code)) ? ZHIPU_STATUS[String(record.code)] : undefined);
  const word = [record.code, record.type, record.status].find((c): c is string => typeof c === 'string' && !/^\d+$/.test(c));
  return { status: numeric ?? null, code: word ?? null };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** FastAPI's `detail`: a string, or a list of {msg, loc}; the `loc` names the field ("Extra inputs are not permitted" alone does not). */
function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return textOf(detail);
  if (!Array.isArray(detail)) return undefined;
  const messages = detail.map((d) => {
    const msg = isObject(d) ? textOf(d.msg) : undefined;
    if (msg === undefined) return undefined;
    return Array.isArray(d.loc) && d.loc.length > 0 ? `${d.loc.join('.')}: ${msg}` : msg;
  });
  const found = messages.filter((m): m is string => m !== undefined);
  return found.length > 0 ? found.join('; ') : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An HTTP error response: kind from the status, message from the body, wait from the headers. */
export function httpFailure(status: number, bodyText: string, headers: Pick<Headers, 'get'>, ctx: HttpContext): ProviderError {
  const info = describeErrorBody(bodyText);
  const message = `HTTP ${status} from ${ctx.baseURL}: ${oneLine(info?.message ?? '(no body)')}`;
  // A moderation refusal comes as a 403: the content was refused, the key is fine (never retried).
  const kind = info?.code === 'moderation' ? 'bad_request' : kindOfStatus(status);
  // Not for a rate limit or a refused key; a 5xx only says it by its code (early llama.cpp servers send 500).
  if (kind !== 'auth' && kind !== 'rate_limit' && isContextLengthError({ status, code: info?.code ?? null, message: info?.message ?? '' })) {
    return new ProviderError('context_length', message, status);
  }
  if (kind === 'auth') return new ProviderError('auth', `${message} (check ${ctx.keyVariable} for ${ctx.baseURL})`, status);
  if (isToolCallGlitch(info)) return new ProviderError('empty', message, status);
  const setup = SERVER_SETUP.find(([pattern]) => pattern.test(info?.message ?? ''));
  // A server started without what tool calls need answers the same however often it is asked.
  if (setup) return new ProviderError('bad_request', `${message}${setup[1]}`, status);
  if (kind === 'bad_request') {
    const hint = status === 404 ? ` (is model '${ctx.model}' served at ${ctx.baseURL}?)` : requestFieldHint(info?.message ?? '');
    return new ProviderError('bad_request', `${message}${hint}`, status);
  }
  const body = parseJson(bodyText);
  const spent = kind === 'rate_limit' ? spentQuota(body, info?.code ?? null) : null;
  const wait = retryAfterMs(headers) ?? retryDelayFromBody(body) ?? retryDelayFromMessage(info?.message);
  return new ProviderError(kind, message, status, wait, spent ?? undefined);
}

/**
 * Fields of the runner's request some servers refuse, and the setting that leaves them out: a
 * refusal names the field, not the fix. (A refused stream_options, and max_tokens refused for
 * max_completion_tokens, need no setting: the provider asks again without them, openai.ts
 * ADJUSTMENTS; the hint is for a refusal that outlives that.)
 */
const REQUEST_FIELD_HINTS: ReadonlyArray<[RegExp, string]> = [
  [/max_tokens[\s\S]*max_completion_tokens/i, ' (this model wants max_completion_tokens: set provider_options.dialect: openai)'],
  [/max_completion_tokens/i, ' (this server wants max_tokens: set provider_options.dialect to one other than openai, e.g. generic)'],
];

/**
 * Refusals of a server set up without tool calls, and the fix. llama.cpp's come as a 500
 * (`server_error`), so they would be retried five times: they are bad requests, never retried.
 */
const SERVER_SETUP: ReadonlyArray<[RegExp, string]> = [
  [/tools param requires --jinja/i, ' (start llama-server with --jinja for tool calls)'],
  [/Cannot use tools with stream/i, ' (this server cannot stream tool calls: set provider_options.stream: false, or --no-stream)'],
  [/--enable-auto-tool-choice/i, ' (start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>)'],
  [/does not support tools/i, ' (this model cannot call tools: choose one that can)'],
  // LM Studio's answer (with HTTP 200) to a path it does not serve: most often a base URL without /v1.
  [/Unexpected endpoint or method/i, ' (the server has no such endpoint: check the base URL, usually ending in /v1)'],
];

/**
 * A text-only model's refusal of a request that carries an image (a PNG read_file read, an MCP
 * screenshot), in the words servers use: LM Studio's, Ollama's (its OpenAI and Anthropic APIs),
 * llama.cpp's without its mmproj (a 500), OpenAI's, OpenRouter's (a 404). The image stays in the
 * history, so every later request would be refused too: the providers name images from then on.
 */
export const IMAGES_REFUSED =
  /does(n't| not) support (images?\b|image input|vision)|image input is not supported|image_url is only supported by certain models|vision is not supported|no endpoints found that support image input/i;

function requestFieldHint(message: string): string {
  return REQUEST_FIELD_HINTS.find(([pattern]) => pattern.test(message))?.[1] ?? '';
}

/**
 * A 2xx web page (HTML, XML) where the API should answer: most often a base URL that names a web
 * UI or a proxy's login page instead of the API (…/v1 missing). Asking again gets the same page:
 * bad_request, never retried.
 */
export function pageFailure(status: number, contentType: string, head: string, ctx: { baseURL: string; answer: string }): ProviderError {
  const start = oneLine(head, 120);
  return new ProviderError(
    'bad_request',
    `${ctx.baseURL} did not return ${ctx.answer}: HTTP ${status} with content-type ${oneLine(contentType, 80)}, starting '${start}' (is the base URL the API's, usually ending in /v1?)`,
    status,
  );
}

/**
 * An error event inside a 200 stream (`data: {"error": {...}}`), or a whole 200 body that is an
 * error (`where: 'body'`). Its code decides like an HTTP status: a 4xx will fail the same way
 * again, so it is not retried (408/409/429 excepted).
 */
export function streamFailure(errorBody: unknown, where: 'stream' | 'body' = 'stream'): ProviderError {
  const info = describeErrorBody({ error: errorBody });
  const said = where === 'body' ? 'answered HTTP 200 with an error' : 'reported an error mid-stream';
  const message = `the server ${said}: ${oneLine(info?.message ?? JSON.stringify(errorBody) ?? 'no details')}`;
  let kind: ProviderErrorKind = info?.status && info.code !== 'moderation' ? kindOfStatus(info.status) : kindOfCode(info?.code ?? null);
  if (kind !== 'auth' && kind !== 'rate_limit' && isContextLengthError({ status: info?.status ?? null, code: info?.code ?? null, message: info?.message ?? '' })) kind = 'context_length';
  const setup = SERVER_SETUP.find(([pattern]) => pattern.test(info?.message ?? ''));
  if (setup) return new ProviderError('bad_request', `${message}${setup[1]}`, info?.status ?? undefined);
  if (isToolCallGlitch(info)) kind = 'empty';
  const spent = kind === 'rate_limit' ? spentQuota({ error: errorBody }, info?.code ?? null) : null;
  return new ProviderError(kind, message, info?.status ?? undefined, retryDelayFromMessage(info?.message), spent ?? undefined);
}

/**
 * Finish reasons that end an answer the server failed to give: OpenRouter's "error" (the upstream
 * failed mid-answer), SGLang's "abort", Zhipu GLM's "network_error", DeepSeek's
 * "insufficient_system_resource" (its inference system ran short). Never an answer; asked again.
 */
export const FAILED_FINISHES: ReadonlySet<string> = new Set(['error', 'abort', 'network_error', 'insufficient_system_resource']);

/**
 * An answer a failed finish ended: asked again whatever its code says. OpenRouter sends an `error`
 * object ({code, message}) with finish_reason "error", on the choice or beside it: its upstream's
 * words ("Provider disconnected unexpectedly") are what the retry warning and the error can tell.
 */
export function failedFinish(reason: string, error: unknown): ProviderError {
  const words = error === undefined || error === null ? null : describeErrorBody({ error })?.message;
  return new ProviderError('server', `the server ended the answer with finish_reason "${reason}" (the model failed mid-answer)${words ? `: ${oneLine(words)}` : ''}`);
}

/**
 * Groq checks each tool call the model writes and refuses the answer (400, or an error event in
 * the stream) with `tool_use_failed` when one does not parse or fit its tool's schema. A glitch
 * of that sampled answer, like Gemini's MALFORMED_FUNCTION_CALL, not a fault in the request:
 * asked again once ('empty'), rather than ending the run at once (400) or asked five times (in
 * the stream, where the unknown code read as a server fault).
 */
function isToolCallGlitch(info: ErrorInfo | null): boolean {
  return info?.code === 'tool_use_failed';
}

/** Word codes as OpenAI and OpenRouter send them; an unknown word is treated as a server fault. */
function kindOfCode(code: string | null): ProviderErrorKind {
  if (code === null) return 'server';
  if (/rate_limit|too_many|quota|overloaded_rate/i.test(code)) return 'rate_limit';
  if (/auth|api_key|permission|unauthorized|forbidden/i.test(code)) return 'auth';
  // DashScope's content inspection (data_inspection_failed) is its content filter.
  if (/invalid|bad_request|context_length|not_found|unsupported|content_filter|moderation|inspection_failed/i.test(code)) return 'bad_request';
  return 'server';
}

/**
 * A failure the answer's body told (an error event, a 200 error body, a failed finish) names the
 * endpoint that said it, as an HTTP error does: a batch over several servers, or a gateway in front
 * of a local one, must not leave "the server" to guess.
 */
export function fromEndpoint(err: ProviderError, baseURL: string): ProviderError {
  if (!err.message.startsWith('the server')) return err;
  return err.withMessage(`${baseURL}${err.message.slice('the server'.length)}`);
}

export function toProviderError(err: unknown, ctx: ErrorContext, reading = false): ProviderError {
  if (err instanceof ProviderError) return err;
  const { sdk } = ctx;
  // Our fetch classifies HTTP errors itself (it sees every body shape); the SDK wraps what it throws.
  if (err instanceof Error && err.cause instanceof ProviderError) return err.cause;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ProviderError('network', `request to ${ctx.baseURL} timed out`);
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${causeText(err.cause)}` : '';
    return new ProviderError('network', `cannot reach ${ctx.baseURL}${cause}`);
  }
  if (err instanceof sdk.APIError) {
    if (err.status === undefined) return streamFailure(err.error ?? err.message);
    return httpFailure(err.status, JSON.stringify({ error: err.error ?? { message: err.message } }), err.headers ?? new Headers(), { ...ctx, keyVariable: 'OPENAI_API_KEY' });
  }
  const text = err instanceof Error ? causeText(err) : String(err);
  // Body read failures (socket reset, a chunk that is not JSON) mean the answer was cut off.
  if (reading) return new ProviderError('cut_off', `the response was cut off: ${text}`);
  return new ProviderError('network', `request to ${ctx.baseURL} failed: ${text}`);
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
