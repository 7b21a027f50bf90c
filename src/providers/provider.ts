// One interface over every model backend. Providers map the runner's message model
// (types/content.ts) to their wire format and back; nothing above this layer knows which ran.
import type { Content, FunctionCall, FunctionDeclaration, Part, TokenUsage } from '../types/content.js';
import { ProviderError, type ProviderErrorKind } from '../types/provider-error.js';

// Made among the shared types (types/provider-error.ts), so that the proxy code in util/ can throw it.
export { ProviderError, type ProviderErrorKind };

export interface ModelRequest {
  systemInstruction: string;
  contents: Content[];
  tools: FunctionDeclaration[];
  /**
   * A side request of the runner's own instead of the agent's next turn: `compaction_summary` asks
   * for a summary of older turns (loop/compaction.ts). Recorded and replayed as such (--record).
   */
  purpose?: RequestPurpose;
  /**
   * How many leading `contents` entries the runner knows it will not rewrite (loop/stale-reads.ts):
   * where a provider with explicit cache breakpoints should put one. Absent: the whole history.
   */
  stablePrefix?: number;
}

export type RequestPurpose = 'compaction_summary';

export interface CachePrices {
  read: number;
  write: number;
}

export interface ModelTurn {
  /** The model's content as it should be appended to the history. */
  parts: Part[];
  text: string;
  functionCalls: FunctionCall[];
  usage: TokenUsage;
  finish: Finish;
  /**
   * Fields of the answer this runner does not read, as the server sent them (and those it echoes),
   * so a new server quirk can be diagnosed from the transcript alone.
   */
  providerFields?: Record<string, unknown>;
  /** The model that answered as the server names it (OpenAI's `model`, Anthropic's `message.model`, Gemini's `modelVersion`), when it does. */
  model?: string;
  /** Why `usage` is an estimate (the endpoint sent no counts), naming the endpoint: the run warns once. */
  usageNote?: string;
  /** What the server's answer shows went wrong unsaid (silent-cut.ts): a warning of the run; the provider sets it once. */
  notice?: string;
  /**
   * An answer cut off (finish `max_tokens`) by a limit that was not the run's output cap, and what
   * to change instead: a self-hosted server asked with no cap (window-filled.ts). Absent: the
   * provider sent the cap (provider_options.max_output_tokens, or its own default), which is raised.
   */
  notOurCap?: string;
}

/**
 * Why the model stopped, in one set for every provider (each maps its own words at its edge):
 * `max_tokens` is an answer cut off by the output limit; `safety`, `recitation` and `refusal` are
 * answers withheld or refused. The loop never calls a final answer with those a success.
 */
export type FinishReason = 'stop' | 'tool_calls' | 'max_tokens' | 'safety' | 'recitation' | 'refusal' | 'other';

export interface Finish {
  reason: FinishReason;
  /** The provider's own word (`MAX_TOKENS`, `length`, `end_turn`), for the transcript. */
  raw: string | null;
}

export interface GenerateOptions {
  signal: AbortSignal;
  /** Streaming text as it arrives (for stream-json consumers); optional. */
  onText?: (delta: string) => void;
  /** Called before each retry of this request (retry.ts): the loop records it with its own turn. */
  /** Awaited before the wait: the pricing wrapper prices a billed attempt's usage first (pricing.ts). */
  onRetry?: (info: RetryInfo) => unknown;
  /**
   * Called when a provider has handed the request's bytes to the network (each attempt): work that
   * can wait for the model's answer starts then (pricing.ts). A provider that cannot tell never calls it.
   */
  onSent?: () => void;
}

export interface RetryInfo {
  /** The attempt that just failed (1-based). */
  attempt: number;
  delayMs: number;
  kind: ProviderErrorKind;
  reason: string;
  /** What the failed attempt's answer cost, when the server counted it (ProviderError.spent). */
  usage?: TokenUsage;
}

export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  /**
   * What the provider's prompt cache bills for an input byte, against a new one: `read` for a byte
   * of a cached prefix, `write` for a new byte (Anthropic charges 1.25 to write its cache). The loop
   * rewrites old history only when that pays at these prices (loop/stale-matches.ts). Absent: a
   * quarter and 1, Gemini's implicit caching and OpenAI's cached input.
   */
  readonly cachePrices?: CachePrices;
  generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn>;
}

/** What a wrapper around `inner` (retries, pricing, recording) says of itself: the same model, priced and cached alike. */
export function sameModelAs(inner: ModelProvider): Pick<ModelProvider, 'name' | 'model' | 'cachePrices'> {
  return { name: inner.name, model: inner.model, ...(inner.cachePrices ? { cachePrices: inner.cachePrices } : {}) };
}

/**
 * A whole answer's turn, or the error saying why it cannot be used with the tokens the server
 * counted for it (`counted`, null when it sent none): asked again or not, that answer was billed.
 */
export function finishCounting<T>(finish: () => T, counted: () => TokenUsage | null): T {
  try {
    return finish();
  } catch (err) {
    if (err instanceof ProviderError && err.spent === undefined) {
      const usage = counted();
      if (usage !== null && usage.total > 0) err.spent = usage;
    }
    throw err;
  }
}
