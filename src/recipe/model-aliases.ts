// The short model names peers take (Claude Code's `--model sonnet`, Gemini CLI's `-m flash`): each
// tool turns its alias into a model's full name before it calls the API, and the APIs take only
// the full name. Here the alias would settle no provider (gemini by default) and be sent as it is:
// a Claude Code user with ANTHROPIC_API_KEY set was told GEMINI_API_KEY is not set, and with both
// keys the Gemini API answered 404 for a model named "sonnet". Said before any request instead.
import type { ProviderName } from './types.js';

const ALIASES: Record<string, { tool: string; model: string }> = {
  sonnet: { tool: 'Claude Code', model: 'claude-sonnet-4-5' },
  opus: { tool: 'Claude Code', model: 'claude-opus-4-1' },
  opusplan: { tool: 'Claude Code', model: 'claude-opus-4-1' },
  haiku: { tool: 'Claude Code', model: 'claude-haiku-4-5' },
  pro: { tool: 'Gemini CLI', model: 'gemini-2.5-pro' },
  flash: { tool: 'Gemini CLI', model: 'gemini-2.5-flash' },
  'flash-lite': { tool: 'Gemini CLI', model: 'gemini-2.5-flash-lite' },
};

/**
 * What to write instead of a peer's model alias, or null when `model` is none. `provider` is the
 * one the run would use: behind the OpenAI-compatible provider (a gateway such as LiteLLM may
 * serve a model it calls "sonnet") and in a replay the name is left alone.
 */
export function modelAliasProblem(model: unknown, provider: ProviderName, where: '--model' | 'model:'): string | null {
  if (typeof model !== 'string' || provider === 'openai' || provider === 'scripted') return null;
  // Claude Code's `sonnet[1m]` asks for the long context window of the same model.
  const alias = ALIASES[model.trim().toLowerCase().replace(/\[1m\]$/, '')];
  if (alias === undefined) return null;
  const flag = where === '--model';
  const full = flag ? `--model ${alias.model}` : `model: ${alias.model}`;
  const gateway = flag ? '--provider openai --base-url URL' : 'provider: openai with its base_url';
  return `${flag ? '--model' : 'model'} '${model}' is ${alias.tool}'s alias, which the Anthropic and Gemini APIs do not take: name the model in full, ${full} (its name settles the provider); for a gateway that serves a model by that name, ${gateway}`;
}

/**
 * A `--model` value that is no model's name because it holds spaces: aider's `-m` is its
 * `--message`, so `unattended -m "fix the typo"` took the task for the model (and said "give a
 * task", or with a prompt piped failed as if a model call had). No API names a model with a space.
 */
export function messageAsModelProblem(model: unknown): { message: string; hint: string } | null {
  if (typeof model !== 'string' || !/\s/.test(model.trim())) return null;
  const task = model.trim();
  const quoted = task.includes("'") ? JSON.stringify(task) : `'${task}'`;
  return {
    message: `--model ${quoted} is no model's name (it has spaces): -m is --model here`,
    hint: `aider's -m (--message) is -p here: unattended -p ${quoted}; a model is named as -m gemini-2.5-pro`,
  };
}
