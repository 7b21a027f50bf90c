// The build ships the price table with its data as JSON (scripts/price-table-json.mjs): the copy in
// dist/assets must answer every lookup exactly as the package does, and a package whose data JSON
// cannot hold, or that has changed shape, must fail the build rather than ship a different table.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without types
import { priceTableData, withJsonPriceData } from '../../scripts/price-table-json.mjs';
import { ROOT } from '../helpers/cli.js';

type CalcPrice = (usage: object, model: string, options: object) => { model_price: unknown; model: { context_window?: number } } | null;
interface Provider {
  id: string;
  models: Array<{ id: string }>;
}

const require = createRequire(import.meta.url);
const packageFile = require.resolve('@pydantic/genai-prices');
const built = path.join(ROOT, 'dist/assets/genai-prices.cjs');

describe('the price table with JSON data', () => {
  it('answers every model of every provider as the package does', () => {
    const theirs = require(packageFile) as { calcPrice: CalcPrice };
    const ours = require(built) as { calcPrice: CalcPrice };
    expect(fs.readFileSync(built, 'utf8')).toContain('JSON.parse(');
    const { data } = priceTableData(fs.readFileSync(packageFile, 'utf8')) as { data: Provider[] };
    let models = 0;
    for (const provider of data) {
      for (const model of provider.models) {
        const usage = { input_tokens: 250_000, cache_read_tokens: 1000, output_tokens: 2000 };
        const answer = (calc: CalcPrice) => {
          const found = calc(usage, model.id, { providerId: provider.id });
          return found && { price: found.model_price, window: found.model.context_window, total: (found as { total_price?: number }).total_price };
        };
        expect(answer(ours.calcPrice), `${provider.id} ${model.id}`).toEqual(answer(theirs.calcPrice));
        models++;
      }
    }
    expect(models).toBeGreaterThan(500);
  });

  it('refuses data JSON cannot hold, and a package without exactly one table', () => {
    const table = (extra: string) => `"use strict";const E=[{id:"p",api_pattern:"x",models:[{id:"m",match:{equals:"m"},prices:{input_mtok:1${extra}}}]}];exports.E=E;`;
    expect(withJsonPriceData(table(''))).toContain('JSON.parse("[{\\"id\\":\\"p\\"');
    expect(() => withJsonPriceData(table(',output_mtok:undefined'))).toThrow(/does not survive JSON/);
    expect(() => withJsonPriceData(table(',output_mtok:1/0'))).toThrow(/does not survive JSON/);
    expect(() => withJsonPriceData('"use strict";exports.calcPrice=()=>null;')).toThrow(/found 0/);
    expect(() => withJsonPriceData(table('') + table(''))).toThrow(/found 2/);
  });
});
