// What each model turn cost in US dollars, added to its usage (`usage.cost_usd`) so the cost
// reaches the transcript, the report and the budget through the model_response event like every
// other count. Prices come from the recipe's `pricing:` when given (private deployments), else
// from the maintained table of @pydantic/genai-prices, read once per run (price-table.ts), never
// for a local endpoint.
//
// The table gives the model's price record; the arithmetic over the four token counts this runner
// reports is below, as genai-prices does it (a test checks both agree): cache reads and writes
// at their own rates when the model has them, else as input; a tiered price by the request's input
// size; reasoning is part of output.
//
// A turn whose model the table does not know has no cost_usd ("unknown", never "free"). A run with
// limits.max_cost_usd must know its price before the first call: without one the budget cannot be
// enforced, so the run refuses to start (fail closed).
import type { TokenUsage } from '../types/content.js';
import { roundUsd } from '../types/content.js';
import { ConfigError } from '../types/errors.js';
import type { Pricing } from '../types/provider-options.js';
import { lookupModel, lookupPrice, type ModelPrice, type PriceValue } from './price-table.js';
import type { ModelProvider, ModelTurn, RetryInfo } from './provider.js';
import { ProviderError, sameModelAs } from './provider.js';

export interface PriceSource {
  /** genai-prices' provider id when the provider is certain (google, anthropic); else null. */
  providerId: string | null;
  /** The endpoint, for the table to recognise an OpenAI-compatible host (api.deepseek.com...). */
  baseURL: string | null;
  model: string;
  override: Pricing | null;
}

export type PriceFn = (usage: TokenUsage) => number;

/** Anthropic bills input written to its (5-minute) prompt cache at 1.25 times the input price. */
const ANTHROPIC_CACHE_WRITE = 1.25;

/** The recipe's prices; `providerId`: whose cache writes cost more than input when the recipe does not say. */
export function priceFromOverride(p: Pricing, providerId: string | null = null): PriceFn {
  const cacheWrite = p.cacheWritePerMtok ?? (providerId === 'anthropic' ? p.inputPerMtok * ANTHROPIC_CACHE_WRITE : undefined);
  return priceFromRecord({ input_mtok: p.inputPerMtok, output_mtok: p.outputPerMtok, cache_read_mtok: p.cachedInputPerMtok ?? undefined, cache_write_mtok: cacheWrite });
}

export function priceFromRecord(record: ModelPrice): PriceFn {
  return (usage) => {
    const rate = (value: PriceValue | undefined): number => (value === undefined ? 0 : typeof value === 'number' ? value : tierFor(value, usage.input));
    // Tokens the model has no separate price for are billed as the input they are part of.
    const cacheRead = record.cache_read_mtok === undefined ? 0 : (usage.cached ?? 0);
    const cacheWrite = record.cache_write_mtok === undefined ? 0 : (usage.cache_write ?? 0);
    const fresh = Math.max(0, usage.input - cacheRead - cacheWrite);
    const tokens =
      fresh * rate(record.input_mtok) + cacheRead * rate(record.cache_read_mtok) + cacheWrite * rate(record.cache_write_mtok) + usage.output * rate(record.output_mtok);
    const perRequest = rate(record.requests_kcount) / 1000;
    return roundUsd(tokens / 1e6 + perRequest);
  };
}

/** The price of the highest tier the request's input size passes. */
function tierFor(value: Exclude<PriceValue, number>, inputTokens: number): number {
  let price = value.base;
  for (const tier of [...value.tiers].sort((a, b) => a.start - b.start)) if (inputTokens > tier.start) price = tier.price;
  return price;
}

/** The price function for a source, or null when neither the recipe nor the table has a price. */
export async function resolvePrice(source: PriceSource): Promise<PriceFn | null> {
  if (source.override) return priceFromOverride(source.override, source.providerId);
  // A local server (Ollama, vLLM on this machine) is in no price table.
  if (!source.providerId && (!source.baseURL || isLocal(source.baseURL))) return null;
  const record = await lookupPrice({ model: source.model, providerId: source.providerId, baseURL: source.baseURL });
  return record ? priceFromRecord(record) : null;
}

/**
 * The model's context window as the table has it (one lookup with the price), or null: a local
 * endpoint or a model the table does not know. Without a provider or endpoint (the scripted
 * provider replaying a recording) the model is matched by its name.
 */
export async function resolveContextWindow(source: PriceSource): Promise<number | null> {
  if (!source.providerId && source.baseURL && isLocal(source.baseURL)) return null;
  const facts = await lookupModel({ model: source.model, providerId: source.providerId, baseURL: source.baseURL });
  return facts?.contextWindow ?? null;
}

/**
 * The price, or a configuration error (exit 52) naming the budget (`what`) that cannot be kept
 * without one. `ad-hoc`: the run has no recipe file (flags alone), so "add it to the recipe" would
 * point at nothing: the hint says how to write one, or how to bound the run with a flag instead.
 */
export async function requirePrice(source: PriceSource, what = 'limits.max_cost_usd', adHoc = false): Promise<PriceFn> {
  const known = await resolvePrice(source);
  if (known) return known;
  const where = source.baseURL ? ` at ${source.baseURL}` : '';
  const fix = adHoc
    ? `no flag gives a price: write a recipe with pricing: {input_per_mtok, output_per_mtok} (dollars per million tokens) and run it with ${what}, or leave ${what} out and bound the run with --max-tokens`
    : 'add pricing: {input_per_mtok, output_per_mtok} to the recipe';
  throw new ConfigError(`${what} needs the price of model '${source.model}'${where}, and the price table has none: ${fix}`);
}

/** Which budget needs a price, as the user set it (`limits.max_cost_usd` or `--max-cost-usd`), and whether the run has no recipe file. */
export interface PriceRequirement {
  what: string;
  adHoc: boolean;
}

/** The provider with each turn's cost in its usage; `required`: no price is a configuration error (exit 52). */
export async function withPricing(inner: ModelProvider, source: PriceSource, required: PriceRequirement | boolean | null): Promise<ModelProvider> {
  let price: Promise<PriceFn | null> | undefined;
  if (required === true) price = Promise.resolve(await requirePrice(source));
  else if (required) price = Promise.resolve(await requirePrice(source, required.what, required.adHoc));
  return {
    ...sameModelAs(inner),
    async generate(request, options) {
      // The table loads (~35 ms, in this process) once the first request is on its way, while the
      // model thinks; with a provider that cannot say when its request went (Vertex), on the answer.
      const lookUp = (): void => {
        price ??= resolvePrice(source).catch(() => null);
      };
      // A failed attempt whose answer was billed (ProviderError.spent) is priced like a turn, so
      // that its cost reaches the run's usage and max_cost_usd (loop/run-loop.ts).
      const priced = async (usage: TokenUsage): Promise<TokenUsage> => {
        lookUp();
        if (usage.cost_usd !== undefined && !source.override) return usage;
        const cost = (await price)?.(usage) ?? null;
        return cost === null ? usage : { ...usage, cost_usd: cost };
      };
      const onRetry = options.onRetry;
      const pricedRetry = onRetry && (async (info: RetryInfo) => onRetry(info.usage ? { ...info, usage: await priced(info.usage) } : info));
      let turn: ModelTurn;
      try {
        turn = await inner.generate(request, {
          ...options,
          ...(pricedRetry ? { onRetry: pricedRetry } : {}),
          ...(price ? {} : { onSent: chain(options.onSent, lookUp) }),
        });
      } catch (err) {
        if (err instanceof ProviderError && err.spent) err.spent = await priced(err.spent);
        throw err;
      }
      return { ...turn, usage: await priced(turn.usage) };
    },
  };
}

function chain(first: (() => void) | undefined, then: () => void): () => void {
  if (!first) return then;
  return () => {
    first();
    then();
  };
}

function isLocal(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host) || host.endsWith('.local');
  } catch {
    return true;
  }
}
