// Builds the provider a run asked for, with the retry layer and the recorder around it.
// Order: recorder(retries(provider)), so a recording holds only the turns the run actually used.
// Each backend is imported only when chosen: start-up time is measured.
import type { ProviderName, ReplayedModel } from '../recipe/types.js';
import type { Pricing, ProviderOptions } from '../types/provider-options.js';
import type { ModelProvider } from './provider.js';
import type { RetryOptions } from './retry.js';
import type { PriceRequirement } from './pricing.js';

export interface CreateProviderOptions {
  name: ProviderName;
  model: string;
  /** Script file for the scripted provider. */
  script: string | null;
  /** Endpoint override from the recipe or flags (wins over the provider's env variable). */
  baseUrl: string | null;
  /** The live model a scripted replay stands in for: it is what prices the turns. */
  replayOf?: ReplayedModel | null;
  /** Where keys and endpoint variables are read from; providers never read process.env. */
  env: NodeJS.ProcessEnv;
  workspaceRoot: string;
  /** Write every turn to this JSONL file (scripted format). */
  record?: string | null;
  /** Files the run reads that the recording must not overwrite (the recipe; the script is added here). */
  recordInputs?: ReadonlyArray<{ file: string; what: string }>;
  retry?: Partial<RetryOptions>;
  /** Stream idle timeout for network providers. */
  idleTimeoutMs?: number;
  /** provider_options: streaming, dialect, output cap, thinking, caching. */
  options?: Partial<ProviderOptions>;
  /** The recipe's price override; null: the price table. */
  pricing?: Pricing | null;
  /** A budget in dollars is set: a run whose price is unknown must not start; says which (pricing.ts). */
  priceRequired?: PriceRequirement | null;
}

export async function createProvider(opts: CreateProviderOptions): Promise<ModelProvider> {
  let provider = await createBare(opts);
  if (opts.name !== 'scripted') {
    const { withRetries } = await import('./retry.js');
    provider = withRetries(provider, opts.retry ?? {});
  }
  if (opts.record) {
    const { recordTurns } = await import('./recorder.js');
    // Recording over the script is how one would refresh it: said how to, without losing the old one.
    const inputs = [...(opts.recordInputs ?? []), ...(opts.script ? [{ file: opts.script, what: 'the script' }] : [])].map((input) =>
      input.what === 'the script' ? { ...input, instead: rerecord(input.file) } : input,
    );
    provider = recordTurns(provider, opts.record, opts.workspaceRoot, inputs);
  }
  const { withPricing } = await import('./pricing.js');
  return withPricing(provider, priceSource(opts), opts.priceRequired ?? null);
}

/** The model's context window from the price table, looked up on the first call only (loop/compaction.ts calls it when the history grows). */
export function contextWindowLookup(opts: CreateProviderOptions): (() => Promise<number | null>) | null {
  // A script that names no model (the scripted provider's default) has no window to look up; one
  // replaying a recording of a named model gets that model's window, so it compacts alike.
  // A replay of a live recipe (replayOf) stays windowless too: compacting where the recording did
  // not would ask it for a summary turn it does not have.
  if (opts.name === 'scripted' && opts.model === 'scripted') return null;
  let found: Promise<number | null> | undefined;
  return () => (found ??= import('./pricing.js').then(({ resolveContextWindow }) => resolveContextWindow(priceSource(opts))).catch(() => null));
}

/**
 * Fails (exit 52) unless the model's price is known: a batch sharing a budget in dollars checks
 * once, before any target, rather than have each of its runs refuse to start.
 */
export async function requireKnownPrice(opts: PriceSourceOptions, what: string): Promise<void> {
  const { requirePrice } = await import('./pricing.js');
  await requirePrice(priceSource(opts), what);
}

type PriceSourceOptions = Pick<CreateProviderOptions, 'name' | 'model' | 'baseUrl' | 'env' | 'pricing' | 'replayOf'>;

/** Which price applies: the provider says for certain for gemini and anthropic; an OpenAI-compatible endpoint by its host. */
function priceSource(opts: PriceSourceOptions) {
  const override = opts.pricing ?? null;
  // A replay costs what the live model it stands in for did (the recipe's pricing: still wins).
  if (opts.name === 'scripted' && opts.replayOf) return priceSource({ ...opts, name: opts.replayOf.provider, model: opts.replayOf.model, baseUrl: opts.replayOf.baseUrl, replayOf: null });
  switch (opts.name) {
    case 'gemini':
      return { providerId: 'google', baseURL: null, model: opts.model, override };
    case 'anthropic':
      return { providerId: 'anthropic', baseURL: null, model: opts.model, override };
    case 'openai':
      return { providerId: null, baseURL: opts.baseUrl?.trim() || opts.env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1', model: opts.model, override };
    default:
      return { providerId: null, baseURL: null, model: opts.model, override };
  }
}

async function createBare(opts: CreateProviderOptions): Promise<ModelProvider> {
  switch (opts.name) {
    case 'gemini': {
      const { createGeminiProvider } = await import('./gemini.js');
      return createGeminiProvider({
        model: opts.model,
        env: opts.env,
        baseUrl: opts.baseUrl,
        idleTimeoutMs: opts.idleTimeoutMs,
        stream: opts.options?.stream,
        maxOutputTokens: opts.options?.maxOutputTokens,
      });
    }
    case 'scripted': {
      const { createScriptedProvider, ScriptError } = await import('./scripted.js');
      // Recipe checks reject this first; kept so a caller that skips them still gets a clear error.
      if (!opts.script) throw new ScriptError('the scripted provider needs a model script: set `script:` in the recipe or pass --script FILE');
      return createScriptedProvider({ file: opts.script, workspaceRoot: opts.workspaceRoot, model: opts.model });
    }
    case 'openai': {
      const { createOpenAIProvider } = await import('./openai.js');
      return createOpenAIProvider({
        model: opts.model,
        env: opts.env,
        baseUrl: opts.baseUrl,
        idleTimeoutMs: opts.idleTimeoutMs,
        stream: opts.options?.stream,
        dialect: opts.options?.dialect,
        images: opts.options?.images,
        maxOutputTokens: opts.options?.maxOutputTokens,
      });
    }
    case 'anthropic': {
      const { createAnthropicProvider } = await import('./anthropic.js');
      return createAnthropicProvider({ model: opts.model, env: opts.env, baseUrl: opts.baseUrl, idleTimeoutMs: opts.idleTimeoutMs, options: opts.options });
    }
    default: {
      const unknown: never = opts.name;
      throw new Error(`unknown provider "${String(unknown)}" (expected gemini, openai, anthropic or scripted)`);
    }
  }
}

/**
 * Written as the run goes, a recording over the script would be read and replaced at once (a
 * replay), and a run that stops early would leave it with some of its turns: a new file, moved over
 * the script once the run has ended as it should, keeps the old one until then.
 */
function rerecord(script: string): string {
  return `to record it again, name a new file with --record FILE and move it over ${script} once the run has ended as it should: the script stays whole until then`;
}
