// What to say to a provider named by the vendor, model family or server instead of ours.
import { didYouMean } from './suggest.js';

/**
 * `provider:` named by the vendor, the model family or the server (`claude`, `google`, `ollama`),
 * as other tools' configurations do: which provider serves it here. A typo gets "did you mean".
 * `endpointIn`: where the endpoint is given (the recipe's base_url, or --base-url).
 */
export function providerHint(named: string, providers: string[], endpointIn = 'base_url'): string {
  const key = named.trim().toLowerCase();
  if (/^(claude|anthropic-?ai)$/.test(key)) return ': Claude models are provider anthropic';
  if (/^(google|google-?genai|vertex(-?ai)?|gemini-?api)$/.test(key)) return ': Gemini models (the Gemini API and Vertex AI) are provider gemini';
  if (/^(ollama|vllm|lm-?studio|llama-?cpp|deepseek|mistral|openrouter|azure|azure-?openai|xai|grok|groq|together|dashscope|qwen|codex|chatgpt|gpt)$/.test(key))
    return `: ${named} is served through provider openai (any OpenAI-compatible endpoint), with its endpoint in ${endpointIn}`;
  return didYouMean(key, providers).replace(/^ \((.*)\)$/, ': $1');
}
