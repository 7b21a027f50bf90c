// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE, as the OTLP exporter spec defines it: delta
// for a backend that takes deltas, cumulative by default. The README said cumulative only; a value
// the exporter did not know (or ` delta` with a stray space) went to cumulative without a word.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs, ROOT } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { oneTurnRecipe } from './one-turn-recipe.js';

afterAll(removeTempDirs);

const DELTA = 1;
const CUMULATIVE = 2;

async function temporalities(preference: string | undefined, protocol = 'http/protobuf') {
  const receiver = await startOtlpReceiver();
  onTestFinished(() => receiver.close());
  const { file, out } = oneTurnRecipe('temporality');
  const env: Record<string, string> = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_PROTOCOL: protocol };
  if (preference !== undefined) env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE = preference;
  const r = await cli(['run', file, '--out', out], { env });
  expect(r.code, r.stderr).toBe(0);
  const runs = receiver.points.filter((p) => p.metric === 'unattended.runs');
  expect(runs.length).toBeGreaterThan(0);
  return { temporality: new Set(runs.map((p) => p.temporality)), warnings: readRun(out).report.warnings as string[] };
}

describe('OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE', () => {
  it('cumulative by default; delta and lowmemory (any case, spaces around) export deltas', async () => {
    expect(await temporalities(undefined)).toEqual({ temporality: new Set([CUMULATIVE]), warnings: [] });
    expect(await temporalities(' Delta ', 'http/json')).toEqual({ temporality: new Set([DELTA]), warnings: [] });
    expect(await temporalities('lowmemory')).toEqual({ temporality: new Set([DELTA]), warnings: [] });
  });

  it('a value it does not know is said in the report, and the metrics are cumulative', async () => {
    const { temporality, warnings } = await temporalities('deltas');
    expect(temporality).toEqual(new Set([CUMULATIVE]));
    expect(warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=deltas is not supported (use cumulative, delta or lowmemory); exporting cumulative metrics']);
  });

  it('the README says what is followed', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/Cumulative temporality, unless\s+`OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` says `delta`/);
  });
});
