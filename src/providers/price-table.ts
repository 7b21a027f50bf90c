// Looks a model's current price up in @pydantic/genai-prices (MIT; a maintained table of every
// provider's prices, with the date ranges and tiers they apply in) from a short-lived child
// process. Why not in this process: the table is ~800 kB of JavaScript whose parse holds ~7.5 MB
// for the rest of the run (measured on the rename benchmark: peak RSS 90 -> 97.7 MB, the budget is
// 100), and the lookup happens once. The child runs while the first model call is under way.
import { execFile } from 'node:child_process';
import { assetPath } from '../util/assets.js';

/** Dollars per million tokens (`*_mtok`), per thousand requests (`requests_kcount`); a tiered price by input size. */
export type PriceValue = number | { base: number; tiers: Array<{ start: number; price: number }> };
export type ModelPrice = Record<string, PriceValue | undefined>;

export interface PriceQuery {
  model: string;
  /** genai-prices provider id (google, anthropic), or null to match by the endpoint. */
  providerId: string | null;
  baseURL: string | null;
}

const LOOKUP_TIMEOUT_MS = 15_000;

// Runs in the child: the resolved module path and the query arrive as arguments.
const LOOKUP = `
const [path, query] = process.argv.slice(-2);
const { model, providerId, baseURL } = JSON.parse(query);
const { calcPrice } = require(path);
const options = providerId ? { providerId } : { providerApiUrl: baseURL };
const found = calcPrice({ input_tokens: 1, output_tokens: 1 }, model, options);
process.stdout.write(JSON.stringify(found ? found.model_price : null));
`;

/** The model's price as the table has it today, or null when the table does not know it (or cannot be read). */
export async function lookupPrice(query: PriceQuery): Promise<ModelPrice | null> {
  let modulePath: string;
  try {
    // dist/assets/genai-prices.cjs in a build (the package's CommonJS build, copied), else the package.
    modulePath = assetPath('genai-prices.cjs');
  } catch {
    return null; // not installed: prices are unknown, not an error
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', LOOKUP, '--', modulePath, JSON.stringify(query)],
      // Nothing of ours (keys included) is in its environment: it needs none.
      { env: {}, timeout: LOOKUP_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          const price: unknown = JSON.parse(stdout);
          resolve(price && typeof price === 'object' ? (price as ModelPrice) : null);
        } catch {
          resolve(null);
        }
      },
    );
  });
}
