// Pure translation between the runner's message model and the Gemini wire types: outgoing
// contents, streamed chunks aggregated into one ModelTurn, and errors mapped to ProviderError.
// Type-only imports: this file never loads the SDK.
import type {
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part as GPart,
} from '@google/genai/web';
import type { FunctionCall, Part, TokenUsage } from '../types/content.js';
import type { Finish, ModelTurn } from './provider.js';
import { finishCounting, ProviderError } from './provider.js';
import { kindOfStatus, oneLine, retryAfterMs, retryDelayFromBody, retryDelayFromMessage } from './http-errors.js';
import { spentQuota } from './spent-quota.js';
import { pageText } from './api-errors.js';
import { isContextLengthError } from './context-errors.js';
import { noAnswerWithinOutputLimit } from './inline-thinking.js';

/** Ids we invent when the API gives none; never sent back, so the wire matches what the API said. */
const SYNTHETIC_ID = /^call_\d+_\d+$/;

export function syntheticCallId(turn: number, index: number): string {
  return `call_${turn}_${index}`;
}

/**
 * The image types the API takes; any other (a GIF read_file read, which Anthropic and OpenAI take)
 * is refused, "Unsupported MIME type: image/gif" (microsoft/vscode#286628), for that request and
 * every later one, since the image stays in the history. It is named to the model instead.
 */
const GEMINI_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

/** One part in the Gemini wire form (gemini-wire.ts encodes each history entry once). */
export function toGeminiPart(part: Part): GPart {
  const out: GPart = {};
  if (part.text !== undefined) out.text = part.text;
  const media = part.inlineData;
  if (media && media.mimeType.startsWith('image/') && !GEMINI_IMAGE_TYPES.has(media.mimeType)) {
    out.text = `[${media.mimeType} image omitted: the Gemini API takes PNG, JPEG, WebP, HEIC and HEIF images only]`;
  } else if (media) out.inlineData = { mimeType: media.mimeType, data: media.data };
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    out.functionCall = { name, args };
    if (id !== undefined && !SYNTHETIC_ID.test(id)) out.functionCall.id = id;
  }
  if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    out.functionResponse = { name, response };
    if (id !== undefined && !SYNTHETIC_ID.test(id)) out.functionResponse.id = id;
  }
  if (part.thought !== undefined) out.thought = part.thought;
  if (part.thoughtSignature !== undefined) out.thoughtSignature = part.thoughtSignature;
  return out;
}

/** The fields of a GenerateContentResponse (one stream chunk, or a whole answer) this runner reads. */
export type GeminiChunk = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback' | 'modelVersion'>;

/**
 * Collects streamed chunks. Text arrives split over many chunks and is merged back into one part
 * per run of text, so the history we send next turn stays small.
 */
export class TurnAccumulator {
  readonly parts: Part[] = [];
  chunks = 0;
  finishReason: string | null = null;
  blockReason: string | null = null;
  private usageMeta: GenerateContentResponseUsageMetadata | undefined;
  /** The model that answered (the response's modelVersion). */
  private modelVersion: string | null = null;

  /** Some proxies send no counts (providers/missing-usage.ts). */
  get sawUsage(): boolean {
    // `usageMetadata: {}` is no count at all, not 0 tokens.
    return this.usageMeta !== undefined && (Number.isFinite(this.usageMeta.promptTokenCount) || Number.isFinite(this.usageMeta.candidatesTokenCount));
  }

  /** Adds one chunk (the API's JSON as parsed); returns the visible (non-thought) text it carried, for onText. */
  add(chunk: GeminiChunk): string {
    this.chunks++;
    if (chunk.usageMetadata) this.usageMeta = chunk.usageMetadata;
    if (typeof chunk.modelVersion === 'string' && chunk.modelVersion !== '') this.modelVersion = chunk.modelVersion;
    if (chunk.promptFeedback?.blockReason) this.blockReason = String(chunk.promptFeedback.blockReason);
    // The first candidate's, wherever a chunk lists it (a chunk may carry another candidate alone).
    const candidate = chunk.candidates?.find((c) => (c.index ?? 0) === 0);
    if (!candidate) return '';
    if (candidate.finishReason) this.finishReason = String(candidate.finishReason);
    let delta = '';
    for (const raw of candidate.content?.parts ?? []) {
      const part = fromGeminiPart(raw);
      if (!part) continue;
      if (part.text !== undefined && !part.thought) delta += part.text;
      this.push(part);
    }
    return delta;
  }

  private push(part: Part): void {
    const last = this.parts[this.parts.length - 1];
    const mergeable =
      last !== undefined &&
      isPlainText(last) &&
      isPlainText(part) &&
      Boolean(last.thought) === Boolean(part.thought) &&
      !(last.thoughtSignature && part.thoughtSignature);
    if (!mergeable) {
      this.parts.push(part);
      return;
    }
    last.text = (last.text ?? '') + (part.text ?? '');
    if (part.thoughtSignature) last.thoughtSignature = part.thoughtSignature;
  }

  /**
   * The finished turn, or ProviderError('empty') when there is nothing a run could use: no
   * finishReason means the stream was cut off, and a cut-off turn is never returned (its last
   * function call may be incomplete).
   */
  finish(turn: number, capSent = true): ModelTurn {
    return finishCounting(() => this.build(turn, capSent), () => (this.sawUsage ? toUsage(this.usageMeta) : null));
  }

  private build(turn: number, capSent: boolean): ModelTurn {
    // A refusal is deterministic: asking again costs a paid call and gets the same answer, so it
    // is 'bad_request' (never retried), not 'empty'.
    if (this.blockReason && this.parts.length === 0) {
      throw new ProviderError('bad_request', `the model refused: Gemini blocked the prompt (${this.blockReason})`);
    }
    if (this.finishReason === null) {
      throw new ProviderError('cut_off', `Gemini response was cut off: the stream ended after ${this.chunks} chunk(s) without a finishReason`);
    }
    const functionCalls: FunctionCall[] = [];
    let text = '';
    for (const part of this.parts) {
      if (part.text !== undefined && !part.thought) text += part.text;
      if (part.functionCall) {
        part.functionCall.id ??= syntheticCallId(turn, functionCalls.length);
        functionCalls.push({ ...part.functionCall });
      }
    }
    if (text.trim() === '' && functionCalls.length === 0) {
      if (REFUSAL_FINISH_REASONS.has(this.finishReason)) {
        throw new ProviderError('bad_request', `the model refused: Gemini stopped with finishReason ${this.finishReason} and no answer`);
      }
      if (this.finishReason === 'MAX_TOKENS') throw new ProviderError('empty', noAnswerWithinOutputLimit(this.finishReason, this.parts.some((p) => p.thought), false, capSent ? undefined : MODEL_OWN_LIMIT));
      throw new ProviderError('empty', `Gemini returned an empty answer (finishReason ${this.finishReason})`);
    }
    if (functionCalls.length === 0 && CALL_FAILED_FINISH_REASONS.has(this.finishReason)) {
      // The model meant to call a tool and the call was lost: its text ("I will now edit…") is no
      // final answer. A glitch like an empty answer: asked again once, then the run fails.
      throw new ProviderError('empty', `Gemini stopped with finishReason ${this.finishReason}: the tool call it was making was lost, so its text is not an answer`);
    }
    return {
      parts: this.parts,
      text,
      functionCalls,
      usage: toUsage(this.usageMeta),
      finish: geminiFinish(this.finishReason, functionCalls.length > 0),
      ...(this.modelVersion !== null ? { model: this.modelVersion } : {}),
      ...(this.finishReason === 'MAX_TOKENS' && !capSent ? { notOurCap: MODEL_OWN_LIMIT } : {}),
    };
  }
}

/**
 * ModelTurn.notOurCap of an answer MAX_TOKENS ended with no cap sent: Gemini's default is the
 * model's own output_token_limit (its API reference), so there is no cap to raise.
 */
const MODEL_OWN_LIMIT =
  "no provider_options.max_output_tokens was set, so the model's own limit on one answer (its output_token_limit, Gemini's default) ended it: no setting raises it; have the model write less in one answer (a long text into files, part by part)";

/** Finish reasons that mean a tool call the model was making could not be used (Gemini's documented list). */
const CALL_FAILED_FINISH_REASONS: ReadonlySet<string> = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/** Finish reasons that mean "will not answer this", as opposed to a glitch worth one retry. */
const REFUSAL_FINISH_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'PROHIBITED_CONTENT',
  'RECITATION',
  'BLOCKLIST',
  'SPII',
  'IMAGE_SAFETY',
]);

function isPlainText(part: Part): boolean {
  return part.text !== undefined && !part.functionCall && !part.functionResponse && !part.inlineData;
}

function fromGeminiPart(raw: GPart): Part | null {
  const part: Part = {};
  if (typeof raw.text === 'string') {
    if (raw.text === '' && !raw.thoughtSignature) return null;
    part.text = raw.text;
  }
  if (raw.functionCall) {
    const args = raw.functionCall.args;
    // Gemini omits `args` for functions without parameters; anything else goes through as sent so
    // the loop's validation can report it to the model.
    part.functionCall = { name: raw.functionCall.name ?? '', args: (args ?? {}) as Record<string, unknown> };
    if (raw.functionCall.id) part.functionCall.id = raw.functionCall.id;
  }
  if (raw.inlineData?.data && raw.inlineData.mimeType) {
    part.inlineData = { mimeType: raw.inlineData.mimeType, data: raw.inlineData.data };
  }
  if (raw.thought) part.thought = true;
  if (raw.thoughtSignature) part.thoughtSignature = raw.thoughtSignature;
  return Object.keys(part).length > 0 ? part : null;
}

export function toUsage(meta: GenerateContentResponseUsageMetadata | undefined): TokenUsage {
  const input = meta?.promptTokenCount ?? 0;
  // Thinking tokens are billed as output.
  const output = (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0);
  const usage: TokenUsage = { input, output, total: meta?.totalTokenCount ?? input + output };
  if (meta?.cachedContentTokenCount !== undefined) usage.cached = meta.cachedContentTokenCount;
  if (meta?.thoughtsTokenCount) usage.reasoning = meta.thoughtsTokenCount;
  return usage;
}

/** HTTP status → ProviderError, with the server's message and any retry hint. */
export function httpError(status: number, bodyText: string, headers: Pick<Headers, 'get'> | null): ProviderError {
  const body = parseJson(bodyText);
  const apiMessage = typeof body?.error?.message === 'string' ? body.error.message : (pageText(bodyText) ?? bodyText);
  const statusName = typeof body?.error?.status === 'string' ? ` ${body.error.status}` : '';
  const retryAfter = retryAfterMs(headers) ?? retryDelayFromBody(body) ?? retryDelayFromMessage(apiMessage);
  // Gemini answers a wrong key with 400 INVALID_ARGUMENT, not 401: only the ErrorInfo reason says
  // it is the key, and the user must hear "fix the key" (exit 41), not "bad request".
  let kind = isCredentialReason(errorInfoReason(body)) ? 'auth' : kindOfStatus(status);
  const code = typeof body?.error?.status === 'string' ? body.error.status : null;
  if (kind === 'bad_request' && isContextLengthError({ status, code, message: apiMessage })) kind = 'context_length';
  const hint = kind === 'auth' ? ' (check GEMINI_API_KEY / GOOGLE_API_KEY)' : '';
  const spent = kind === 'rate_limit' ? spentQuota(body, null) : null;
  return new ProviderError(kind, `Gemini API HTTP ${status}${statusName}: ${oneLine(apiMessage)}${hint}`, status, retryAfter, spent ?? undefined);
}

/** google.rpc.ErrorInfo `reason` in the error body, e.g. API_KEY_INVALID. */
function errorInfoReason(body: any): string | undefined {
  const details: unknown[] = Array.isArray(body?.error?.details) ? body.error.details : [];
  for (const detail of details as any[]) {
    if (typeof detail?.['@type'] === 'string' && detail['@type'].endsWith('ErrorInfo') && typeof detail.reason === 'string') {
      return detail.reason;
    }
  }
  return undefined;
}

/** API_KEY_INVALID, API_KEY_SERVICE_BLOCKED, API_KEY_IP_ADDRESS_BLOCKED, ACCESS_TOKEN_EXPIRED, ... */
function isCredentialReason(reason: string | undefined): boolean {
  return reason !== undefined && /^(API_KEY_|ACCESS_TOKEN_)/.test(reason);
}

/**
 * Any error out of the SDK → ProviderError. HTTP and connection errors usually arrive already
 * mapped (our fetch wrapper sees the headers; the SDK's ApiError does not keep them); this handles
 * the rest: error events inside the stream, transport failures, malformed streams. Once the
 * response has started (`streaming`), a transport failure means the answer was cut off ('cut_off'),
 * not that the server was unreachable.
 */
export function mapSdkError(err: unknown, streaming: boolean, receivedChunks = 0): unknown {
  if (err instanceof ProviderError) return err;
  if (!(err instanceof Error)) return new ProviderError('network', `Gemini request failed: ${String(err)}`);
  if (err.name === 'ApiError' && typeof (err as { status?: unknown }).status === 'number') {
    const status = (err as unknown as { status: number }).status;
    return httpError(status, extractJson(err.message), null);
  }
  if (err.name === 'AbortError') return err;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = oneLine([err.message, cause?.code ?? cause?.message].filter(Boolean).join(': '));
  if (/incomplete json|parsing stream chunk/i.test(err.message)) {
    return new ProviderError('empty', `Gemini sent a malformed stream after ${receivedChunks} chunk(s): ${detail}`);
  }
  if (err instanceof TypeError || cause?.code) {
    return streaming
      ? new ProviderError('cut_off', `Gemini response was cut off after ${receivedChunks} chunk(s): ${detail}`)
      : new ProviderError('network', `cannot reach the Gemini API: ${detail}`);
  }
  return err;
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The SDK's ApiError message is the error body as JSON, sometimes after a `got status: X.` prefix. */
function extractJson(message: string): string {
  const start = message.indexOf('{');
  return start >= 0 ? message.slice(start) : message;
}

/** Gemini's finish reasons in the runner's one set (providers/provider.ts FinishReason). */
export function geminiFinish(raw: string, calledTools: boolean): Finish {
  switch (raw) {
    case 'STOP':
      return { reason: calledTools ? 'tool_calls' : 'stop', raw };
    case 'MAX_TOKENS':
      return { reason: 'max_tokens', raw };
    case 'RECITATION':
      return { reason: 'recitation', raw };
    default:
      return { reason: REFUSAL_FINISH_REASONS.has(raw) ? 'safety' : 'other', raw };
  }
}
