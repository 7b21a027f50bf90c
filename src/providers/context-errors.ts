// Whether a refused request was refused for its size: the conversation no longer fits the model's
// context window. Such a request is not retried as it is (it would fail the same way) and not
// reported as a plain bad request either: the loop compacts the history and tries once more
// (loop/compaction.ts). Each server says it in its own words; these are the ones known:
//   OpenAI, Groq, OpenRouter:  code `context_length_exceeded`; "This model's maximum context length is
//                              8192 tokens. However, your messages resulted in 9000 tokens"
//   DeepSeek, vLLM (older):    "This model's maximum context length is 65536 tokens. However, you requested ..."
//   vLLM (newer):              "The decoder prompt (length 5000) is longer than the maximum model length of 4096",
//                              "Input prompt (5000 tokens) is too long and exceeds limit of 4096"
//   llama.cpp server:          type `exceed_context_size_error`; "the request exceeds the available context size"
//   Ollama:                    "prompt too long; exceeded max context length by 120 tokens"
//   Mistral:                   "Prompt contains 40000 tokens ... too large for model with 32768 maximum context length"
//   Anthropic:                 "prompt is too long: 215000 tokens > 200000 maximum" (invalid_request_error)
//   Gemini (and its OpenAI-compatible endpoint): 400 INVALID_ARGUMENT "The input token count (1200000)
//                              exceeds the maximum number of tokens allowed (1048576)."
// A 413 (request too large) is the same trouble measured in bytes.

const CODES = /context_length_exceeded|exceed_context_size|context_window_exceeded|string_above_max_length/i;

const MESSAGES = [
  /maximum context length/i,
  /context (length|window|size)[^.]{0,40}(exceed|too (long|large|small))/i,
  /exceeds? (the )?(available |maximum )?context (size|length|window)/i,
  /exceeds the maximum number of tokens/i,
  /input token count.{0,40}exceeds/i,
  /prompt is too long/i,
  /prompt too long/i,
  /is longer than the maximum model length/i,
  /too long and exceeds limit/i,
  /reduce the length of the messages/i,
  /too many (input )?tokens/i,
];

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
  // Rate limits speak of tokens too ("too many tokens per minute"): only a refusal of the request counts.
  if (info.status !== null && info.status !== 400 && info.status !== 422) return false;
  if (info.code !== null && CODES.test(info.code)) return true;
  if (/per (minute|min|day|hour)|rate.?limit|quota/i.test(info.message)) return false;
  return MESSAGES.some((pattern) => pattern.test(info.message));
}

const LIMITS = [
  /maximum context length (?:is|of) (\d+)/i,
  /(\d+) maximum context length/i,
  />\s*(\d+) maximum/i,
  /tokens allowed \((\d+)\)/i,
  /maximum model length (?:is |of )?(\d+)/i,
  /exceeds limit of (\d+)/i,
];

/** The context window a refusal names ("maximum context length is 8192 tokens"), or null. */
export function contextLimitFrom(message: string): number | null {
  for (const pattern of LIMITS) {
    const found = pattern.exec(message);
    const tokens = found ? Number(found[1]) : NaN;
    if (Number.isSafeInteger(tokens) && tokens > 0) return tokens;
  }
  return null;
}
