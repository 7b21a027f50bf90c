// A model whose price is known to be nothing (a local model, `pricing: {input_per_mtok: 0, …}`):
// report.json says cost_usd 0, and unattended.cost says $0 too, rather than nothing at all, which
// a dashboard shows as "no data" (the scripted provider, a fake OTLP collector).
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { oneTurnRecipe } from './one-turn-recipe.js';

afterAll(removeTempDirs);

it('a run that cost $0 at a known price exports unattended.cost 0; one with no known price exports none', async () => {
  const receiver = await startOtlpReceiver();
  onTestFinished(() => receiver.close());
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' };

  const free = oneTurnRecipe('free', { pricing: { input_per_mtok: 0, output_per_mtok: 0 } });
  const r = await cli(['run', free.file, '--out', free.out], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(readRun(free.out).report.usage.cost_usd).toBe(0);
  const cost = receiver.points.filter((p) => p.metric === 'unattended.cost' && p.attributes['unattended.recipe'] === 'free');
  expect(cost.length).toBeGreaterThan(0);
  expect(cost.at(-1)!.value).toBe(0);

  const unpriced = oneTurnRecipe('unpriced');
  expect((await cli(['run', unpriced.file, '--out', unpriced.out], { env })).code).toBe(0);
  expect(readRun(unpriced.out).report.usage.cost_usd).toBeUndefined();
  expect(receiver.points.filter((p) => p.metric === 'unattended.cost' && p.attributes['unattended.recipe'] === 'unpriced')).toEqual([]);
  expect(receiver.points.some((p) => p.metric === 'unattended.runs' && p.attributes['unattended.recipe'] === 'unpriced')).toBe(true);
});
