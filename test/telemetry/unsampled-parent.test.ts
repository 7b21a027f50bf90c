// A TRACEPARENT whose flags say the pipeline's trace is sampled out (00): the SDK's default sampler
// follows the parent, so the run's spans are not exported. report.json named a trace and a run span
// all the same, which no backend would ever show, and nothing said why the collector got no spans.
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { oneTurnRecipe } from './one-turn-recipe.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

const recipe = () => oneTurnRecipe('sampled');

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('TRACEPARENT and sampling', () => {
  it('flags 00: no spans, report.json names no trace, a warning says why; metrics still go', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = recipe();
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${TRACE}-00f067aa0ba902b7-00` } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(receiver.spans).toEqual([]);
    expect(report.trace).toBeNull();
    expect(report.warnings).toContainEqual(expect.stringMatching(/^telemetry: TRACEPARENT=00-4bf92f.* is not sampled \(trace flags 00, not 01\): .*not exported; metrics are$/));
    expect(receiver.points.some((p) => p.metric === 'unattended.runs')).toBe(true);
  });

  it('OTEL_TRACES_SAMPLER=always_off, with no TRACEPARENT: the warning names the sampler, not a parent', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = recipe();
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_off' } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(receiver.spans).toEqual([]);
    expect(report.trace).toBeNull();
    expect(report.warnings).toContainEqual("telemetry: the run's trace is not sampled (OTEL_TRACES_SAMPLER=always_off): its spans are not exported; metrics are");
  });

  it('flags 01: the run is exported under the parent and report.json names it, with no warning', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = recipe();
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${TRACE}-00f067aa0ba902b7-01` } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    const run = receiver.spans.find((s) => s.name.startsWith('invoke_agent'))!;
    expect(report.trace).toEqual({ trace_id: TRACE, span_id: run.spanId });
    expect(report.warnings.filter((w: string) => w.startsWith('telemetry:'))).toEqual([]);
  });
});
