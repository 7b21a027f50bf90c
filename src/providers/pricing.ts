// What each model turn cost in US dollars, added to its usage (`usage.cost_usd`) so the cost
// reaches the transcript, the report and the budget through the model_response event like every
// other count. Prices come from the recipe's `pricing:` when given (private deployments), else
// from @pydantic/genai-prices, a maintained table (MIT), loaded when the first call starts (its
// ~500 kB parse overlaps the wait for the model), and never for a local endpoint.
//
// A turn whose model the table does not know has no cost_usd ("unknown", never "free"). A run with
// limits.max_cost_usd must know its price before the first call: without one the budget cannot be
// enforced, so the run refuses to start (fail closed).
import type { TokenUsage } from '../types/content.js';
import { roundUsd } from '../types/content.js';
import { ConfigError } from '../types/errors.js';
import type { Pricing } from '../types/provider-options.js';
import type { ModelProvider } from './provider.js';

export interface PriceSource {
  /** genai-prices' provider id when the provider is certain (google, anthropic); else null. */
  providerId: string | null;
  /** The endpoint, for the table to recognise an OpenAI-compatible host (api.deepseek.com...). */
  baseURL: string | null;
  model: string;
  override: Pricing | null;
}

export type PriceFn = (usage: TokenUsage) => number | null;

export function priceFromOverride(p: Pricing): PriceFn {
  return (usage) => {
    const cached = usage.cached ?? 0;
    const fresh = Math.max(0, usage.input - cached);
    const cachedRate = p.cachedInputPerMtok ?? p.inputPerMtok;
    return roundUsd((fresh * p.inputPerMtok + cached * cachedRate + usage.output * p.outputPerMtok) / 1e6);
  };
}

type PriceTable = typeof import('@pydantic/genai-prices');
let table: Promise<PriceTable> | undefined;

async function priceTable(): Promise<PriceTable> {
  table ??= import('@pydantic/genai-prices');
  return table;
}

/** The price function for a source, or null when neither the recipe nor the table has a price. */
export async function resolvePrice(source: PriceSource): Promise<PriceFn | null> {
  if (source.override) return priceFromOverride(source.override);
  const options = source.providerId ? { providerId: source.providerId } : source.baseURL && !isLocal(source.baseURL) ? { providerApiUrl: source.baseURL } : null;
  // A local server (Ollama, vLLM on this machine) is in no price table: do not load it.
  if (!options) return null;
  const { calcPrice } = await priceTable();
  const lookup = (usage: TokenUsage) =>
    calcPrice(
      {
        // genai-prices counts input as a whole, cache reads and writes as parts of it (as we do).
        input_tokens: usage.input,
        cache_read_tokens: usage.cached ?? 0,
        cache_write_tokens: usage.cache_write ?? 0,
        output_tokens: usage.output,
      },
      source.model,
      options,
    );
  if (lookup({ input: 1, output: 1, total: 2 }) === null) return null;
  return (usage) => {
    const result = lookup(usage);
    return result === null ? null : roundUsd(result.total_price);
  };
}

/** The provider with each turn's cost in its usage; `required`: no price is a recipe error (exit 52). */
export async function withPricing(inner: ModelProvider, source: PriceSource, required: boolean): Promise<ModelProvider> {
  let price: Promise<PriceFn | null> | undefined;
  if (required) {
    const known = await resolvePrice(source);
    if (!known) {
      const where = source.baseURL ? ` at ${source.baseURL}` : '';
      throw new ConfigError(
        `limits.max_cost_usd needs the price of model '${source.model}'${where}, and the price table has none: add pricing: {input_per_mtok, output_per_mtok} to the recipe`,
      );
    }
    price = Promise.resolve(known);
  }
  return {
    name: inner.name,
    model: inner.model,
    async generate(request, options) {
      // Started before the call, so the table is parsed while the model is thinking.
      price ??= resolvePrice(source).catch(() => null);
      const turn = await inner.generate(request, options);
      // A cost the server reported (OpenRouter's usage.cost) is what was billed: kept as it is.
      if (turn.usage.cost_usd !== undefined && !source.override) return turn;
      const cost = (await price)?.(turn.usage) ?? null;
      return cost === null ? turn : { ...turn, usage: { ...turn.usage, cost_usd: cost } };
    },
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
