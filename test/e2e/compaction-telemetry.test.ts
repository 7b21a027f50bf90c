// Telemetry's token and cost metrics count what the report counts: a compaction's summary side
// request is billed like a turn, and a dashboard built on unattended.tokens, unattended.cost or
// the conventions' gen_ai.client.token.usage must not read less than report.json for a run that compacted.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { chainFile, startWindowedModel } from '../helpers/fake-windowed-model.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

/** A metric's value summed over its series; each export is cumulative, so the last one of a series counts. */
function point(r: OtlpReceiver, metric: string, attrs: Record<string, unknown> = {}): number {
  const series = new Map<string, number>();
  for (const p of r.points) if (p.metric === metric && Object.entries(attrs).every(([k, v]) => p.attributes[k] === v)) series.set(JSON.stringify(p.attributes), p.value);
  return [...series.values()].reduce((sum, v) => sum + v, 0);
}

/** A histogram's sum over its series, from the last (cumulative) export of each. */
function histogramSum(r: OtlpReceiver, metric: string, attrs: Record<string, unknown>): number {
  const series = new Map<string, number>();
  for (const p of r.points) if (p.metric === metric && Object.entries(attrs).every(([k, v]) => p.attributes[k] === v)) series.set(JSON.stringify(p.attributes), p.sum ?? 0);
  return [...series.values()].reduce((sum, v) => sum + v, 0);
}

describe('a run that compacted, exported with OpenTelemetry', () => {
  it('counts the summary requests in unattended.tokens, unattended.cost and gen_ai.client.token.usage, as report.json does', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    for (let k = 0; k < 20; k++) fs.writeFileSync(path.join(ws, `f${k}.txt`), chainFile(k, 20));
    const fake = await startWindowedModel({ protocol: 'openai', maxBytes: 16_000, workspace: () => ws });
    const receiver = await startOtlpReceiver();
    try {
      const recipe = path.join(dir, 'recipe.yaml');
      fs.writeFileSync(
        recipe,
        'version: 1\nname: chain\nprompt: follow the chain from f0.txt and sum the values\nprovider: openai\nmodel: m\nworkspace: ws\ntools: [read_file]\n' +
          'confirmation: { mode: auto-approve }\nlimits: { model_retries: 1, context_tokens: 4000 }\npricing: { input_per_mtok: 1, output_per_mtok: 2 }\n',
      );
      const out = path.join(dir, 'run');
      const r = await cli(['run', recipe, '--out', out], { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
      expect(r.code, r.stderr).toBe(0);
      const { report, events } = readRun(out);
      const summaries = events.filter((e: any) => e.type === 'compaction' && e.usage);
      expect(summaries.length).toBeGreaterThan(0);
      expect(point(receiver, 'unattended.tokens', { 'gen_ai.token.type': 'input' })).toBe(report.usage.input);
      expect(point(receiver, 'unattended.tokens', { 'gen_ai.token.type': 'output' })).toBe(report.usage.output);
      expect(point(receiver, 'unattended.cost')).toBeCloseTo(report.usage.cost_usd, 9);
      // The conventions' per-request histogram: its sums are every request's tokens, summaries too.
      expect(histogramSum(receiver, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'input' })).toBe(report.usage.input);
      expect(histogramSum(receiver, 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'output' })).toBe(report.usage.output);
    } finally {
      await receiver.close();
      await fake.close();
    }
  });
});
