// Recipe settings for the model provider (`provider_options:`, `pricing:`), declared below both the
// recipe (which validates them) and the providers (which read them).

/** OpenAI-compatible server families (providers/dialects.ts says what each does differently). */
export const DIALECT_NAMES = ['generic', 'openai', 'deepseek', 'openrouter', 'google', 'ollama', 'vllm', 'llamacpp', 'dashscope', 'xai', 'mistral'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

export interface ProviderOptions {
  /** false: the non-streaming endpoint, for gateways and servers whose streaming is broken. */
  stream: boolean;
  /** The OpenAI-compatible dialect; null: from the base URL, else generic. */
  dialect: DialectName | null;
  /** Cap on one answer's tokens, for every provider (Anthropic requires one; default 8192 there). */
  maxOutputTokens: number | null;
  /** Anthropic extended thinking: the token budget for thinking (>= 1024), null: off. */
  thinkingBudget: number | null;
  /** Anthropic prompt caching breakpoints (default on). */
  cache: boolean;
  /** OpenAI-compatible: false when the model takes no images (a tool's images are named instead); null: the dialect's default. */
  images: boolean | null;
}

export const DEFAULT_PROVIDER_OPTIONS: Readonly<ProviderOptions> = Object.freeze({
  stream: true,
  dialect: null,
  maxOutputTokens: null,
  thinkingBudget: null,
  cache: true,
  images: null,
});

/** Dollars per million tokens, for models the price table does not know (private deployments). */
export interface Pricing {
  inputPerMtok: number;
  outputPerMtok: number;
  /** Cached input; default: the input price. */
  cachedInputPerMtok: number | null;
  /** Input written to the prompt cache (Anthropic); default: 1.25 x input for Anthropic (its 5-minute cache), else the input price. */
  cacheWritePerMtok: number | null;
}
