// Whether a refused request was refused for its size: the conversation no longer fits the model's
// context window. Such a request is not retried as it is (it would fail the same way) and not
// reported as a plain bad request either: the loop compacts the history and tries once more
// (loop/compaction.ts). Each server says it in its own words; these are the ones known:
//   OpenAI, Groq, OpenRouter:  code `context_length_exceeded`; "This model's maximum context length is
//                              8192 tokens. However, your messages resulted in 9000 tokens"; newer models:
//                              "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in ..."
//   DeepSeek, vLLM (older):    "This model's maximum context length is 65536 tokens. However, you requested ..."
//   vLLM (newer):              "The decoder prompt (length 5000) is longer than the maximum model length of 4096",
//                              "Input prompt (5000 tokens) is too long and exceeds limit of 4096"
//   llama.cpp server:          type `exceed_context_size_error`; "the request exceeds the available context size",
//                              with `n_prompt_tokens` and `n_ctx` beside it (api-errors.ts adds them to the message)
//   Ollama:                    "prompt too long; exceeded max context length by 120 tokens"
//   Mistral:                   "Prompt contains 40000 tokens ... too large for model with 32768 maximum context length"
//   Anthropic:                 "prompt is too long: 215000 tokens > 200000 maximum" (invalid_request_error)
//   Gemini (and its OpenAI-compatible endpoint): 400 INVALID_ARGUMENT "The input token count (1200000)
//                              exceeds the maximum number of tokens allowed (1048576)."
//   SGLang:                    "The input (61709 tokens) is longer than the model's context length (40960 tokens)."
//   LM Studio:                 "The number of tokens to keep from the initial prompt is greater than the context
//                              length (n_keep: 13055>= n_ctx: 4096)", "Trying to keep the first 15857 tokens when
//                              context the overflows. However, the model is loaded with context length of only 7866 tokens"
//   Text Generation Inference (Hugging Face, and servers built on it), 422: "Input validation error: `inputs`
//                              tokens + `max_new_tokens` must be <= 8192. Given: 6204 `inputs` tokens and 2047
//                              `max_new_tokens`", "`inputs` must have less than 1024 tokens. Given: 1168"
//   Moonshot (Kimi):           "Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)"
//   Alibaba DashScope (Qwen):  "<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]"
//   Fireworks:                 "The prompt is too long: 300000, model maximum context length: 131072"
//   Cohere:                    "too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000"
//   Anthropic, with max_tokens: "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000"
//   AWS Bedrock:               "Input is too long for requested model."
//   LiteLLM's proxy:           "litellm.ContextWindowExceededError: ..."
//   xAI (Grok):                "This model's maximum prompt length is 131072 but the request contains 136973 tokens."
//   Zhipu (GLM), code 1261:    "Prompt exceeds max length"
//   Zhipu (z.ai), code 1210:   "The number of tokens in request more than max tokens allowed (131072)."
//   OpenRouter (Poolside), Together: "Input length 131393 exceeds the maximum allowed input length of 131040 tokens."
//   llama.cpp (some paths), LM Studio's MLX engine, 500: "Context size has been exceeded."
//   Gemini, inline data:       "Request payload size exceeds the limit: 20971520 bytes."
// A 413 (request too large) is the same trouble measured in bytes.

const CODES = /context_length_exceeded|exceed_context_size|context_window_exceeded|string_above_max_length/i;

const MESSAGES = [
  /maximum context length/i,
  /context (length|window|size)[^.]{0,40}(exceed|too (long|large|small))/i,
  /exceeds? (the )?(available |maximum )?context (size|length|window|limit)/i,
  /(longer|greater|larger|more) than the (model'?s )?(maximum )?context (length|window|size)/i,
  /context length of only \d/i,
  /context the overflows/i,
  /exceeded (the )?(model'?s? )?(maximum )?token limit/i,
  /range of input length should be/i,
  /`?inputs`? tokens \+ `?max_new_tokens`? must be/i,
  /`?inputs`? must have less than \d[\d, ]* tokens/i,
  /input is too long/i,
  /ContextWindowExceeded/i,
  /exceeds the maximum number of tokens/i,
  /input token count.{0,40}exceeds/i,
  /\b(prompt|input|request|conversation|context|messages?) (is |are )?too (long|large|big)/i,
  /\b(input|prompt) tokens?[^.]{0,30}exceeds?/i,
  /is longer than the maximum model length/i,
  /too long and exceeds limit/i,
  /reduce the length of the messages/i,
  /too many (input )?tokens/i,
  /maximum prompt length/i,
  /\bprompt exceeds (the )?max(imum)? length/i,
  /tokens in (the )?request more than (the )?max(imum)? tokens allowed/i,
  /exceeds the maximum allowed input length/i,
  /request payload size exceeds the limit/i,
];

/** Wordings plain enough to count even with a 5xx (llama.cpp sends this one as a 500 server_error). */
const SERVER_MESSAGES = [/\bcontext (size|length|window) (has been|was) exceeded/i];

export interface RefusalInfo {
  /** The HTTP status, or the numeric code of an in-stream error; null when none. */
  status: number | null;
  /** A word code or type (`context_length_exceeded`, `invalid_request_error`); null when none. */
  code: string | null;
  message: string;
}

/** True when a refused request says the conversation is larger than the model's context window. */
export function isContextLengthError(info: RefusalInfo): boolean {
  if (info.status === 413) return true;
  if (info.status === 429) return false;
  // A code says it whatever the status (early llama.cpp servers refused with a 500).
  if (info.code !== null && CODES.test(info.code)) return true;
  if (info.status !== null && info.status >= 500 && SERVER_MESSAGES.some((pattern) => pattern.test(info.message))) return true;
  // Rate limits speak of tokens too ("too many tokens per minute"): only a refusal of the request counts.
  if (info.status !== null && info.status !== 400 && info.status !== 422) return false;
  if (/per (minute|min|day|hour)|rate.?limit|quota/i.test(info.message)) return false;
  return MESSAGES.some((pattern) => pattern.test(info.message));
}

/**
 * A count as servers write it: 128000, 128,000, or 128 000 (a space, a no-break or thin space),
 * never the end of one number and the start of the next: a group is three digits, and the number
 * starts where no digit or separator comes before it ("4096, 8192" is two numbers, not one).
 */
const COUNT = String.raw`(?<![\d,])(?:\d{1,3}(?:[,\u00a0\u2009\u202f ]\d{3})+(?!\d)|\d+)`;

/** Where each wording names the window: `#` is the window, `~` another count. Compiled on first use. */
const LIMIT_SOURCES = [
  String.raw`maximum context length(?: is| of|:)\s*#`,
  String.raw`maximum prompt length is #`,
  String.raw`# maximum context length`,
  String.raw`>\s*# maximum`,
  String.raw`~ \+ ~ > #`,
  String.raw`tokens allowed \(#\)`,
  String.raw`maximum model length (?:is |of )?#`,
  String.raw`exceeds limit of #`,
  String.raw`exceed the configured limit of #`,
  String.raw`context length \(# tokens?\)`,
  String.raw`n_ctx:?\s*#`,
  String.raw`context window of #`,
  String.raw`context length of only #`,
  String.raw`token limit:?\s*#`,
  String.raw`range of input length should be \[~,\s*#\]`,
  String.raw`max_new_tokens.? must be <=\s*#`,
  String.raw`must have less than # tokens`,
  String.raw`cannot exceed #`,
  String.raw`max tokens allowed \(#\)`,
  String.raw`maximum allowed input length of #`,
];
let limits: RegExp[] | undefined;

/** The context window a refusal names ("maximum context length is 8192 tokens"), or null. */
export function contextLimitFrom(message: string): number | null {
  limits ??= LIMIT_SOURCES.map((source) => new RegExp(source.replace('#', `(${COUNT})`).replace(/~/g, COUNT), 'i'));
  for (const pattern of limits) {
    const found = pattern.exec(message);
    const tokens = found ? Number(found[1]!.replace(/\D/g, '')) : NaN; // "262,144 tokens" too
    if (Number.isSafeInteger(tokens) && tokens > 0) return tokens;
  }
  return null;
}
