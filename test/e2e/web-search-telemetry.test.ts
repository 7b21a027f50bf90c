// web_search through Gemini's grounding is a model request of its own, paid by the run: its
// tokens reach telemetry's unattended.tokens as they reach report.json, the cached input of the
// search included (the CLI against a fake Gemini and a fake OTLP collector).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

/** A counter's value summed over its series; each export is cumulative, so the last one of a series counts. */
function total(r: OtlpReceiver, metric: string, attrs: Record<string, unknown>): number {
  const series = new Map<string, number>();
  for (const p of r.points) if (p.metric === metric && Object.entries(attrs).every(([k, v]) => p.attributes[k] === v)) series.set(JSON.stringify(p.attributes), p.value);
  return [...series.values()].reduce((sum, v) => sum + v, 0);
}

it("a search's cached input tokens are in unattended.tokens, as in report.json", { timeout: 60_000 }, async () => {
  const fake = await startFakeGemini([
    { calls: [{ name: 'web_search', args: { query: 'node lts' } }], usage: { input: 300, output: 10, cached: 100 } },
    { text: 'Node 24 is the active LTS.', usage: { input: 2_000, output: 100, cached: 1_500 } },
    { text: 'Node 24.', usage: { input: 400, output: 5 } },
  ]);
  onTestFinished(() => fake.close());
  const receiver = await startOtlpReceiver();
  onTestFinished(() => receiver.close());
  const dir = tempDir('unattended-search-telemetry-');
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, ['version: 1', 'prompt: find the node LTS', 'tools: [web_search]', 'confirmation: { mode: deny }', ''].join('\n'));
  const out = path.join(dir, 'run');
  const env = { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' };
  const r = await cli(['run', file, '--workspace', dir, '--out', out], { env });
  expect(r.code, r.stderr).toBe(0);
  const { report, events } = readRun(out);
  expect(events.filter((e: any) => e.type === 'side_request')).toHaveLength(1);
  expect(report.usage).toMatchObject({ input: 2_700, output: 115, cached: 1_600 });
  expect(report.warnings).toEqual([]);
  expect(total(receiver, 'unattended.tokens', { 'gen_ai.token.type': 'input' })).toBe(report.usage.input);
  expect(total(receiver, 'unattended.tokens', { 'gen_ai.token.type': 'cached' })).toBe(report.usage.cached);
});
