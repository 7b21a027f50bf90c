// Looks a model's current price and context window up in @pydantic/genai-prices (MIT; a
// maintained table of every provider's prices, with the date ranges and tiers they apply in, and
// most models' context windows), once per model and process, and once a day per model where a
// cache directory is at hand (price-cache.ts; the installation's beside the code, which a fresh
// HOME does not lose, else the user's): the price (pricing.ts) and the window
// (loop/compaction.ts) share one lookup.
//
// In this process, once the first request is on its way (pricing.ts), while the model thinks:
// loading the table costs ~35 ms of CPU here. It ran in a child process before, which took ~75 ms,
// most of it a second node starting, and a run whose model answered at once (the benchmark's) had
// its first turn wait for it: every run with a fresh cache directory, as each new CI job has. The
// module is dropped from require's cache once it has answered, and the answer copied out, so the
// table's ~2 MB of objects are garbage from then on rather than held for the run.
import { createRequire } from 'node:module';
import { assetPath } from '../util/assets.js';
import { installationCacheDir, unattendedCacheDir } from '../util/cache-dir.js';
import { openFactsCache } from './price-cache.js';

/** Dollars per million tokens (`*_mtok`), per thousand requests (`requests_kcount`); a tiered price by input size. */
export type PriceValue = number | { base: number; tiers: Array<{ start: number; price: number }> };
export type ModelPrice = Record<string, PriceValue | undefined>;

export interface PriceQuery {
  model: string;
  /** genai-prices provider id (google, anthropic), or null to match by the endpoint. */
  providerId: string | null;
  /** The endpoint; with neither, the model is matched by its name alone. */
  baseURL: string | null;
}

/** What the table says of one model. */
export interface ModelFacts {
  price: ModelPrice | null;
  /** Input plus output tokens one request may hold; null when the table does not say. */
  contextWindow: number | null;
}

/** The model's price as the table has it today, or null when the table does not know it (or cannot be read). */
export async function lookupPrice(query: PriceQuery): Promise<ModelPrice | null> {
  return (await lookupModel(query))?.price ?? null;
}

const lookups = new Map<string, Promise<ModelFacts | null>>();

/** The model's price and window, looked up once per query for the life of the process. */
export function lookupModel(query: PriceQuery): Promise<ModelFacts | null> {
  const key = JSON.stringify([query.model, query.providerId, query.baseURL]);
  let found = lookups.get(key);
  if (!found) lookups.set(key, (found = lookupInTable(query, key)));
  return found;
}

/** `key` names the query, in this process's memo and in the day's cache alike. */
async function lookupInTable(query: PriceQuery, key: string): Promise<ModelFacts | null> {
  let modulePath: string;
  try {
    // dist/assets/genai-prices.cjs in a build (the package's CommonJS build, copied), else the package.
    modulePath = assetPath('genai-prices.cjs');
  } catch {
    return null; // not installed: prices are unknown, not an error
  }
  // The installation's cache first (it outlives a fresh HOME), then the user's.
  const caches = [installationCacheDir(), unattendedCacheDir(process.env)].flatMap((dir) => openFactsCache(dir, modulePath) ?? []);
  for (const cache of caches) {
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
  }
  // Not inside the caller's own step (the request's write callback that asked): the next turn of the loop.
  await new Promise((resolve) => setImmediate(resolve));
  const answer = askTable(modulePath, query);
  // A table that could not be read said nothing about the model: that is not kept.
  if (answer === FAILED) return null;
  for (const cache of caches) if (cache.set(key, answer)) break;
  return answer;
}

const FAILED = Symbol('the lookup failed');

function askTable(modulePath: string, query: PriceQuery): ModelFacts | null | typeof FAILED {
  const require = createRequire(import.meta.url);
  try {
    const { calcPrice } = require(modulePath) as { calcPrice: CalcPrice };
    const options = query.providerId ? { providerId: query.providerId } : query.baseURL ? { providerApiUrl: query.baseURL } : {};
    const found = calcPrice({ input_tokens: 1, output_tokens: 1 }, query.model, options);
    if (!found) return null;
    // Plain data, as the day's cache keeps it: nothing of the table's objects outlives the lookup.
    const price = found.model_price && typeof found.model_price === 'object' ? (JSON.parse(JSON.stringify(found.model_price)) as ModelPrice) : null;
    const window = found.model?.context_window;
    return { price, contextWindow: typeof window === 'number' && window > 0 ? window : null };
  } catch {
    return FAILED;
  } finally {
    delete require.cache[modulePath];
  }
}

/** The part of genai-prices' calcPrice this lookup uses. */
type CalcPrice = (
  usage: { input_tokens: number; output_tokens: number },
  model: string,
  options: { providerId?: string; providerApiUrl?: string },
) => { model_price?: unknown; model?: { context_window?: unknown } } | null;
