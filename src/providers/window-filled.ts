// A self-hosted OpenAI-compatible server (vLLM, llama.cpp, Ollama, a generic one) asked with no
// output cap lets an answer run until its context window is full, and ends it with finish_reason
// "length": vLLM's default max_tokens is what the window has left after the prompt, llama.cpp's
// n_predict -1 stops at n_ctx. The user set no provider_options.max_output_tokens, so telling them
// to raise it was wrong, and the cut-off answer (a tool call without its arguments' end) went into
// the conversation again, one turn after another, until the loop guard ended the run. When the
// request was the larger part of what the server held, that stop is the window filling mid-answer:
// a refusal for length, which compaction answers (loop/compaction.ts), naming the window the
// server's counts add up to. When the answer was the larger part, compacting would not make room
// for it: the turn stands, and the loop asks the model to write less; a final answer so cut off
// fails the run naming the server's limits (serverLimitNote), not a cap the user never set.
import type { ModelTurn } from './provider.js';
import { ProviderError } from './provider.js';

/**
 * Request and answer together under this were no window: no server runs a chat model with a smaller
 * one (Ollama's default num_ctx was 2,048), so such a stop is a cap the server sets on answers
 * (LM Studio's maximum response length, Ollama's num_predict).
 */
const SMALLEST_WINDOW = 2048;
/** A count under one token per this many bytes of the request is no count of it (a server that sends prompt_tokens 0 or 1). */
const IMPLAUSIBLE_BYTES_PER_TOKEN = 16;

/**
 * The refusal for length a `length` stop of `turn` is, or null when it is an answer the model
 * made too long. `counted`: the usage is the server's, not estimated from bytes.
 */
export function windowFilledMidAnswer(turn: ModelTurn, requestBytes: number, counted: boolean): ProviderError | null {
  if (turn.finish.raw !== 'length') return null;
  const { input, output } = turn.usage;
  const plausible = counted && input * IMPLAUSIBLE_BYTES_PER_TOKEN >= requestBytes;
  const requestTokens = plausible ? input : requestBytes / 4;
  if (requestTokens < output || requestTokens + output < SMALLEST_WINDOW) return null;
  // The server stopped where request and answer filled its window: their sum is the window (vLLM's
  // max_model_len, llama.cpp's n_ctx), which compaction learns from "context window of N tokens".
  const window = plausible ? `, the server's context window of ${input + output} tokens (${input} of the request, ${output} of the answer)` : '';
  const error = new ProviderError(
    'context_length',
    `the context window is full: the server ended the answer with finish_reason "length" ${output > 0 ? `after ${output} tokens of it` : 'before any of it was written'}${window}, and no provider_options.max_output_tokens was set; if the server caps answers itself, set provider_options.max_output_tokens within that cap, else set limits.context_tokens to the server's window (vLLM --max-model-len, llama.cpp --ctx-size, Ollama num_ctx) so the run compacts before it fills`,
  );
  // The answer was billed (and it is a local server's compute): counted as the run's.
  if (turn.usage.total > 0) error.spent = turn.usage;
  return error;
}

/**
 * What ended an answer a self-hosted server asked with no cap cut off (finish_reason "length"),
 * when it was no full window: ModelTurn.notOurCap. The server's own default cap on an answer, or
 * its window with the answer the larger part of it; raising a cap the run never sent says nothing.
 */
export function serverLimitNote(turn: ModelTurn): ModelTurn {
  if (turn.finish.raw !== 'length') return turn;
  return { ...turn, notOurCap: SERVER_OWN_LIMIT };
}

/** ModelTurn.notOurCap of serverLimitNote; also what an answer of thinking alone so ended says. */
export const SERVER_OWN_LIMIT =
  "no provider_options.max_output_tokens was set, so the server's own limit ended it: its default cap on an answer (Ollama's num_predict, LM Studio's maximum response length, llama.cpp --n-predict), which provider_options.max_output_tokens overrides where the server allows it, or its context window (vLLM --max-model-len, llama.cpp --ctx-size, Ollama num_ctx), which must hold the request and the whole answer";

/**
 * ModelTurn.notOurCap of an answer the server says the full context window ended (Anthropic's and
 * GLM's model_context_window_exceeded, Mistral's model_length): no output cap did, so raising one
 * makes no room for it; compacting earlier does.
 */
export const WINDOW_ENDED_ANSWER =
  'the context window filled before it ended, not an output cap: a larger provider_options.max_output_tokens makes no room for it; a lower limits.compact_at (or limits.context_tokens) has the run compact its history with more of the window left for an answer';
