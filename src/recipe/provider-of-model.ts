// Which provider a run goes to when nobody named one: the model's name often says so beyond
// doubt. Ad-hoc runs, recipes, `validate` and the GitHub Action's key variable all settle it here,
// so a recipe with `model: claude-sonnet-4-5` and no `provider:` goes to Anthropic, not to Gemini
// asking for GEMINI_API_KEY.
import type { ProviderName } from './types.js';

/**
 * The provider a model's name belongs to beyond doubt (`claude-sonnet-4-5` from a Claude Code
 * user, `gpt-5` or `o3` from a Codex user; Mistral's models are served through the
 * OpenAI-compatible provider alone), null for any other name (a Qwen or Llama model is served by
 * many: `provider:` or --provider says which).
 */
export function providerOfModel(model: unknown): ProviderName | null {
  if (typeof model !== 'string') return null;
  if (/^claude-/i.test(model)) return 'anthropic';
  if (/^(gpt-|chatgpt-|codex-|o[1-9](-|$))/i.test(model)) return 'openai';
  if (/^(mistral|codestral|devstral|magistral|ministral|pixtral)-/i.test(model)) return 'openai';
  if (/^gemini-/i.test(model)) return 'gemini';
  return null;
}

/**
 * The provider a run uses: one named (a flag, then the recipe) always wins; else the one the model
 * belongs to (the --model flag's first, then the recipe's); else gemini.
 */
export function settledProvider(named: ReadonlyArray<ProviderName | null | undefined>, models: readonly unknown[]): ProviderName {
  for (const provider of named) if (provider) return provider;
  for (const model of models) {
    const provider = providerOfModel(model);
    if (provider) return provider;
  }
  return 'gemini';
}
