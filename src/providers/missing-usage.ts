// A server that sends no token counts (older llama.cpp, gateways that ignore or drop
// stream_options.include_usage, proxies in front of Gemini or Anthropic): its turns are not free.
// Their usage is estimated from the bytes sent and received, marked `estimated`, and the run is
// told once, naming the endpoint, so max_tokens and max_cost_usd still bind and the report says so.
import { BYTES_PER_TOKEN, estimatedUsage, uncountedImageBytesOf, type Content } from '../types/content.js';
import type { ModelTurn } from './provider.js';

export function withEstimatedUsage(turn: ModelTurn, sentBytes: number, endpoint: string, contents: readonly Content[]): ModelTurn {
  // An image counts as providers count it, a few thousand tokens, not a quarter of its base64
  // (a screenshot was ~260,000 tokens, and max_tokens stopped the run over one).
  const sent = sentBytes - contents.reduce((sum, content) => sum + uncountedImageBytesOf(content.parts), 0);
  let received = 0;
  for (const part of turn.parts) {
    if (part.text) received += Buffer.byteLength(part.text);
    if (part.functionCall) received += Buffer.byteLength(part.functionCall.name) + Buffer.byteLength(JSON.stringify(part.functionCall.args ?? {}));
  }
  return {
    ...turn,
    usage: estimatedUsage(Math.max(0, sent), received),
    usageNote: `${endpoint} sent no token usage (a server that ignores stream_options.include_usage, or a gateway that drops the counts): tokens, and any cost, are estimated from the bytes sent and received, about ${BYTES_PER_TOKEN} a token (an image a few thousand); max_tokens and max_cost_usd bind on the estimate`,
  };
}
