// The runner's one message model. It is shaped like Gemini's Content/Part types (the seed's API is
// written against them) but declared here, so that tools, policy, loop and transcript never load a
// provider SDK, and every provider maps to and from this shape at its own edge.

export interface InlineData {
  mimeType: string;
  /** base64 */
  data: string;
}

/**
 * A call the model asked for. Arguments that are not a JSON object (invalid JSON, an array, a call
 * cut off by a token limit) are still a call, of their own variant: the loop answers the model
 * with an error result for it instead of the run failing, and no tool ever runs with its `args`.
 */
export type FunctionCall = ParsedFunctionCall | MalformedFunctionCall;

interface FunctionCallBase {
  /** Provider call id when the provider has one; the loop assigns one otherwise. */
  id?: string;
  name: string;
}

export interface ParsedFunctionCall extends FunctionCallBase {
  args: Record<string, unknown>;
  unparsedArguments?: undefined;
}

export interface MalformedFunctionCall extends FunctionCallBase {
  /** Always empty: what the model sent is in `unparsedArguments`. */
  args: Record<string, never>;
  /** The arguments text as the model sent it. */
  unparsedArguments: string;
}

/** The call for an arguments text that is not a JSON object. */
export function malformedCall(name: string, raw: string, id?: string): MalformedFunctionCall {
  return id === undefined ? { name, args: {}, unparsedArguments: raw } : { id, name, args: {}, unparsedArguments: raw };
}

export interface FunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

export interface Part {
  text?: string;
  inlineData?: InlineData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  /** Gemini "thought" parts and signatures are carried through untouched. */
  thought?: boolean;
  thoughtSignature?: string;
  /**
   * Wire fields an OpenAI-compatible server asked to get back verbatim on the next request
   * (DeepSeek `reasoning_content`, OpenRouter `reasoning_details`, Google's `extra_content`):
   * on a thought part they belong to the assistant message, on a functionCall part to that call.
   */
  echo?: Record<string, unknown>;
}

export type Role = 'user' | 'model';

export interface Content {
  role: Role;
  parts: Part[];
}

/** JSON Schema subset the providers accept for function parameters. */
export type JsonSchema = Record<string, unknown>;

export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface TokenUsage {
  /** Every input token, those read from or written to a prompt cache included. */
  input: number;
  /** Every output token, thinking included. */
  output: number;
  total: number;
  /** Input tokens read from the provider's prompt cache (billed cheaper), when it reports them. */
  cached?: number;
  /** Input tokens written to the prompt cache (Anthropic bills them dearer). */
  cache_write?: number;
  /** Output tokens spent thinking (part of `output`). */
  reasoning?: number;
  /** What these tokens cost in US dollars, when a price is known (providers/pricing.ts). */
  cost_usd?: number;
  /**
   * The server sent no counts (it ignores stream_options.include_usage, or a gateway drops them):
   * input and output are estimated from the bytes sent and received (BYTES_PER_TOKEN), and so is
   * any cost. Never 0 tokens, which would make max_tokens and max_cost_usd never bind.
   */
  estimated?: true;
}

/** Bytes a token holds, roughly: the usual figure for English and code, where no tokenizer runs. */
export const BYTES_PER_TOKEN = 4;

/**
 * What one image weighs in an estimate from bytes, as bytes at BYTES_PER_TOKEN. Providers count an
 * image by its pixels, not by its base64: Anthropic about 1,600 tokens at most (it scales images to
 * ~1.15 megapixels), OpenAI's high detail about 1,100 (gpt-4o's tiles) to 2,500 (gpt-4.1-mini's
 * patches), Gemini 258 a 768-pixel tile (1,120 at Gemini 3's high resolution). Counted as a quarter
 * of its base64, a 750 KB screenshot weighed 260,000 tokens.
 */
export const IMAGE_ESTIMATE_BYTES = 2_500 * BYTES_PER_TOKEN;

/** The base64 bytes of the images among `parts` beyond IMAGE_ESTIMATE_BYTES each: what an estimate from bytes leaves out. */
export function uncountedImageBytesOf(parts: readonly Part[]): number {
  return parts.reduce((sum, part) => {
    const media = part.inlineData;
    return media?.mimeType.startsWith('image/') ? sum + Math.max(0, media.data.length - IMAGE_ESTIMATE_BYTES) : sum;
  }, 0);
}

/** Usage estimated from the bytes of a request and of its answer. */
export function estimatedUsage(sentBytes: number, receivedBytes: number): TokenUsage {
  const input = Math.ceil(sentBytes / BYTES_PER_TOKEN);
  const output = Math.ceil(receivedBytes / BYTES_PER_TOKEN);
  return { input, output, total: input + output, estimated: true };
}

const OPTIONAL_COUNTS = ['cache_write', 'reasoning', 'cost_usd'] as const;

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    input: a.input + b.input,
    output: a.output + b.output,
    total: a.total + b.total,
    cached: (a.cached ?? 0) + (b.cached ?? 0),
  };
  // Present only when some turn reported it: a missing cost means "unknown", not "free".
  for (const key of OPTIONAL_COUNTS) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  if (sum.cost_usd !== undefined) sum.cost_usd = roundUsd(sum.cost_usd);
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}

/** Dollars to a millionth of a cent: sums of float prices otherwise print as 0.30000000000000004. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ input: 0, output: 0, total: 0, cached: 0 });
