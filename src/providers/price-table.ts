// Looks a model's current price and context window up in @pydantic/genai-prices (MIT; a
// maintained table of every provider's prices, with the date ranges and tiers they apply in, and
// most models' context windows) from a short-lived child process, once per model and run, and once
// a day per model where a cache directory is at hand (price-cache.ts): the
// price (pricing.ts) and the window (loop/compaction.ts) share one lookup. Why not in this process: the table is ~800 kB of JavaScript whose parse holds ~7.5 MB
// for the rest of the run (measured on the rename benchmark: peak RSS 90 -> 97.7 MB, the budget is
// 100), and the lookup happens once. The child runs while the first model call is under way.
import { execFile } from 'node:child_process';
import { assetPath } from '../util/assets.js';
import { unattendedCacheDir } from '../util/cache-dir.js';
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

const LOOKUP_TIMEOUT_MS = 15_000;

// Runs in the child: the resolved module path and the query arrive as arguments.
const LOOKUP = `
const [path, query] = process.argv.slice(-2);
const { model, providerId, baseURL } = JSON.parse(query);
const { calcPrice } = require(path);
const options = providerId ? { providerId } : baseURL ? { providerApiUrl: baseURL } : {};
const found = calcPrice({ input_tokens: 1, output_tokens: 1 }, model, options);
process.stdout.write(JSON.stringify(found ? { price: found.model_price, context_window: found.model.context_window ?? null } : null));
`;

/** The model's price as the table has it today, or null when the table does not know it (or cannot be read). */
export async function lookupPrice(query: PriceQuery): Promise<ModelPrice | null> {
  return (await lookupModel(query))?.price ?? null;
}

const lookups = new Map<string, Promise<ModelFacts | null>>();

/** The model's price and window, looked up once per query for the life of the process. */
export function lookupModel(query: PriceQuery): Promise<ModelFacts | null> {
  const key = JSON.stringify([query.model, query.providerId, query.baseURL]);
  let found = lookups.get(key);
  if (!found) lookups.set(key, (found = lookupInChild(query, key)));
  return found;
}

/** `key` names the query, in this process's memo and in the day's cache alike. */
async function lookupInChild(query: PriceQuery, key: string): Promise<ModelFacts | null> {
  let modulePath: string;
  try {
    // dist/assets/genai-prices.cjs in a build (the package's CommonJS build, copied), else the package.
    modulePath = assetPath('genai-prices.cjs');
  } catch {
    return null; // not installed: prices are unknown, not an error
  }
  const cache = openFactsCache(unattendedCacheDir(process.env), modulePath);
  const cached = cache?.get(key);
  if (cached !== undefined) return cached;
  const answer = await askChild(modulePath, query);
  // A child that failed (timed out, crashed) said nothing about the model: that is not kept.
  if (answer === FAILED) return null;
  cache?.set(key, answer);
  return answer;
}

const FAILED = Symbol('the lookup failed');

function askChild(modulePath: string, query: PriceQuery): Promise<ModelFacts | null | typeof FAILED> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', LOOKUP, '--', modulePath, JSON.stringify(query)],
      // Nothing of ours (keys included) is in its environment: it needs none.
      { env: {}, timeout: LOOKUP_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) return resolve(FAILED);
        try {
          const found = JSON.parse(stdout) as { price?: unknown; context_window?: unknown } | null;
          if (!found || typeof found !== 'object') return resolve(null);
          const price = found.price && typeof found.price === 'object' ? (found.price as ModelPrice) : null;
          const window = typeof found.context_window === 'number' && found.context_window > 0 ? found.context_window : null;
          resolve({ price, contextWindow: window });
        } catch {
          resolve(FAILED);
        }
      },
    );
  });
}
