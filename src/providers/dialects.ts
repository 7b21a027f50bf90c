// What each family of OpenAI-compatible servers does differently, as data: which fields of an
// answer must be sent back on the next request, and how streamed tool-call fragments are told
// apart. The mapping code (openai-stream.ts, openai-mapping.ts) reads these tables and never asks
// which server it talks to. A dialect is chosen from the base URL when the host says it for
// certain, else from `provider_options.dialect`, else `generic`.
//
// Sources of each quirk (what the tests replay):
// - DeepSeek, thinking mode: api-docs.deepseek.com/guides/thinking_mode — an assistant message
//   with tool calls must carry its `reasoning_content` in every later request, or 400 ("The
//   reasoning_content in the thinking mode must be passed back to the API"); an empty one too. With
//   tools in the request (always, here), so must every assistant message between two user messages,
//   a final answer after tool results included (the guide's tool-call section; kimi-cli#2141).
// - OpenRouter: openrouter.ai/docs/use-cases/reasoning-tokens ("preserving reasoning blocks") —
//   `reasoning_details` (reasoning.text / .summary / .encrypted entries) go back unchanged.
// - Google's OpenAI-compatible endpoint (ai.google.dev/gemini-api/docs/openai, thought
//   signatures): Gemini 3 puts the signature in `tool_calls[].extra_content.google.thought_signature`;
//   a tool message without the function's `name` is refused ("function_response.name: Name cannot
//   be empty"; NousResearch/hermes-agent#16478), while other relays refuse a `name` there.
// - Ollama (/v1/chat/completions): parallel calls arrive whole, each with its own `id`, all at
//   `index: 0`; keying by index alone merged them into one call.
// - vLLM renamed `reasoning_content` to `reasoning` (vllm-project/vllm#27752, the old name's output
//   removed in #33402) and reads either on an assistant message: what it sent goes back, so the
//   chat templates of interleaved-thinking models (Kimi K2, GLM, MiniMax, Qwen3) see it again.
// - Ollama streams thinking as `reasoning` and reads `reasoning` of an assistant message into its
//   Thinking (ollama openai/openai.go Message.Reasoning): gpt-oss's template keeps it on tool-call turns.
// - Mistral (and vLLM serving Mistral models, whose chat template has the same rule): a user message
//   right after tool messages is refused ("Unexpected role 'user' after role 'tool'", code 3230),
//   and so is a tool-call id that is not 9 letters and digits (one the runner invented, or from a
//   run continued from another provider).

import { DIALECT_NAMES, type DialectName } from '../types/provider-options.js';

export { DIALECT_NAMES, type DialectName };

/** A field kept to be sent back; its streamed fragments combine by type (openai-stream.ts mergeFragment). */
export interface EchoField {
  field: string;
  /** Sent on every assistant message with tool calls, empty when the server sent none (DeepSeek). */
  alwaysOnToolTurns?: boolean;
  /**
   * Kept from final answers too, and sent on every assistant message, empty when its turn had none
   * (DeepSeek V4 with tools: a final answer after tool results without it is refused once a user
   * message follows it, "The `reasoning_content` in the thinking mode must be passed back to the
   * API"; kimi-cli#2141). Only `reasoning_content` is sent for a turn that lost it (openai-mapping.ts).
   */
  everyTurn?: boolean;
}

export interface Dialect {
  name: DialectName;
  /** Assistant-message fields kept from an answer and sent back on that message next time. */
  echoMessage: readonly EchoField[];
  /** Fields of each tool call kept and sent back on that call. */
  echoToolCall: readonly EchoField[];
  /**
   * How a tool-call delta finds its call: `id` — a delta with an id not seen yet opens a new call
   * (Ollama's parallel calls share index 0), one without an id continues the last call at its
   * index; `index` — the index alone, for servers that put a fresh id on every fragment.
   */
  toolCallKey: 'id' | 'index';
  /** Each tool message carries its function's `name` (Google's endpoint: "function_response.name: Name cannot be empty"). */
  toolResultName?: boolean;
  /**
   * No user message may follow tool messages (Mistral: "Unexpected role 'user' after role 'tool'"),
   * so images a tool returned are named in its tool message instead of sent after it.
   */
  noUserAfterTools?: boolean;
  /**
   * The server takes no image parts (DeepSeek: "unknown variant `image_url`, expected `text`"), so a
   * tool's images are named in its result; provider_options.images overrides it either way.
   */
  textOnly?: boolean;
  /** Tool-call ids must be 9 letters and digits (Mistral): ids the server did not make are rewritten (openai-mapping.ts). */
  nineCharIds?: boolean;
  /**
   * Thinking goes back inside `content` as a `thinking` block before the text (Mistral's reasoning
   * models; vercel/ai @ai-sdk/mistral 4.0.15 "preserve reasoning in multi-turn conversations").
   */
  thinkingInContent?: boolean;
}

const REASONING_CONTENT: EchoField = { field: 'reasoning_content' };
const REASONING_DETAILS: EchoField = { field: 'reasoning_details' };
/** vLLM's and Ollama's name for it; Groq and Cerebras stream it too but refuse it back (generic leaves it). */
const REASONING: EchoField = { field: 'reasoning' };
const EXTRA_CONTENT: EchoField = { field: 'extra_content' };
/** LiteLLM's proxy in front of Claude with thinking: the signed blocks must come back (docs.litellm.ai/docs/reasoning_content). */
const THINKING_BLOCKS: EchoField = { field: 'thinking_blocks' };

/**
 * `generic` is for a server we cannot name: it sends back the fields whose whole purpose is to be
 * sent back (reasoning the server needs again, signatures), which servers that do not know them
 * ignore. Plain OpenAI sends none of them and strict validation is its habit: nothing is echoed.
 */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = Object.freeze({
  generic: { name: 'generic', echoMessage: [REASONING_CONTENT, REASONING_DETAILS, EXTRA_CONTENT, THINKING_BLOCKS], echoToolCall: [EXTRA_CONTENT], toolCallKey: 'id' },
  openai: { name: 'openai', echoMessage: [], echoToolCall: [], toolCallKey: 'id' },
  deepseek: { name: 'deepseek', echoMessage: [{ ...REASONING_CONTENT, alwaysOnToolTurns: true, everyTurn: true }], echoToolCall: [], toolCallKey: 'id', textOnly: true },
  openrouter: { name: 'openrouter', echoMessage: [REASONING_DETAILS], echoToolCall: [], toolCallKey: 'id' },
  google: { name: 'google', echoMessage: [EXTRA_CONTENT], echoToolCall: [EXTRA_CONTENT], toolCallKey: 'id', toolResultName: true },
  ollama: { name: 'ollama', echoMessage: [REASONING], echoToolCall: [], toolCallKey: 'id' },
  vllm: { name: 'vllm', echoMessage: [REASONING_CONTENT, REASONING], echoToolCall: [], toolCallKey: 'id' },
  llamacpp: { name: 'llamacpp', echoMessage: [REASONING_CONTENT], echoToolCall: [], toolCallKey: 'id' },
  dashscope: { name: 'dashscope', echoMessage: [REASONING_CONTENT], echoToolCall: [], toolCallKey: 'id' },
  xai: { name: 'xai', echoMessage: [REASONING_CONTENT], echoToolCall: [], toolCallKey: 'id' },
  mistral: { name: 'mistral', echoMessage: [], echoToolCall: [], toolCallKey: 'id', noUserAfterTools: true, nineCharIds: true, thinkingInContent: true },
});

/** Hosts that name their dialect for certain. Local servers (Ollama, vLLM, llama.cpp) share ports with anything: name them in the recipe. */
const HOSTS: ReadonlyArray<[RegExp, DialectName]> = [
  [/^api\.openai\.com$/, 'openai'],
  [/^api\.deepseek\.com$/, 'deepseek'],
  [/^openrouter\.ai$/, 'openrouter'],
  [/^generativelanguage\.googleapis\.com$/, 'google'],
  [/^ollama\.com$/, 'ollama'],
  [/^dashscope(-intl|-us)?\.aliyuncs\.com$/, 'dashscope'],
  [/^api\.x\.ai$/, 'xai'],
  [/^api\.mistral\.ai$/, 'mistral'],
];

/** The dialect for a base URL: the recipe's choice wins; a known host next; `generic` otherwise. */
export function dialectFor(baseURL: string, chosen: DialectName | null | undefined): Dialect {
  if (chosen) return DIALECTS[chosen];
  let host = '';
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return DIALECTS.generic;
  }
  const known = HOSTS.find(([pattern]) => pattern.test(host));
  return DIALECTS[known?.[1] ?? 'generic'];
}
