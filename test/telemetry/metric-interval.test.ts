// OTEL_METRIC_EXPORT_INTERVAL, as the SDK spec defines it: how often a run's metrics go to the
// collector while it goes on. It was not read, so a long run reported each minute (or only at its
// end) whatever a team's dashboards were set up for.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { telemetryFromEnv } from '../../src/telemetry/config.js';

afterAll(removeTempDirs);

/** A run of about 2 s: one turn, then a command that sleeps, then the answer. */
function slowRecipe(): { file: string; out: string } {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  const turns = [{ calls: [{ name: 'shell', args: { command: 'sleep 2' } }], usage: { input: 10, output: 2 } }, { text: 'Slept.', usage: { input: 12, output: 2 } }];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const file = path.join(dir, 'recipe.yaml');
  const recipe = { version: 1, name: 'slow', prompt: 'Wait.', workspace: 'ws', provider: 'scripted', script: 'turns.yaml', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(file, YAML.stringify(recipe));
  return { file, out: path.join(dir, 'out') };
}

describe('OTEL_METRIC_EXPORT_INTERVAL', () => {
  it('a run exports its metrics that often while it goes on, not only at its end', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = slowRecipe();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none', OTEL_METRIC_EXPORT_INTERVAL: '300' };
    const r = await cli(['run', file, '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.warnings).toEqual([]);
    // The end of a run exports twice (before run_end, then at shutdown); the rest came on the interval, during the 2 s sleep.
    const metrics = receiver.requests.filter((q) => q.path === '/v1/metrics');
    expect(metrics.length).toBeGreaterThanOrEqual(5);
  });

  it('is whole milliseconds; a value that is not is said and the default kept', () => {
    const interval = (value?: string, more: Record<string, string> = {}) => telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_METRIC_EXPORT_INTERVAL: value, ...more })!;
    expect(interval().metricsIntervalMs).toBe(60_000);
    expect(interval(' 5000 ').metricsIntervalMs).toBe(5000);
    // Unset, never shorter than an export may take.
    expect(interval(undefined, { OTEL_EXPORTER_OTLP_TIMEOUT: '90000' }).metricsIntervalMs).toBe(90_000);
    const bad = interval('10s');
    expect(bad.metricsIntervalMs).toBe(60_000);
    expect(bad.warnings).toEqual(['telemetry: OTEL_METRIC_EXPORT_INTERVAL=10s is not a number of milliseconds from 1 to 86400000; using 60000']);
    // Metrics not exported: nothing to say about their interval.
    expect(interval('10s', { OTEL_METRICS_EXPORTER: 'none' }).warnings).toEqual([]);
  });
});
