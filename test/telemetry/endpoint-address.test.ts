// Collector endpoints the OpenTelemetry exporter addressed wrongly. One with a query
// (`OTEL_EXPORTER_OTLP_ENDPOINT=https://h/otlp?token=x`, as some hosted collectors take their
// key): the signal's path was appended after the query (`/otlp?token=x/v1/traces`), and the
// exporter sent the URL's path alone, so the collector got no token and nothing was exported;
// each request now goes to /otlp/v1/traces?token=x. One at an IPv6 literal (`http://[::1]:4318`):
// the exporter looked `[::1]` up as a host name (getaddrinfo ENOTFOUND).
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { oneTurnRecipe } from './one-turn-recipe.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { telemetryFromEnv } from '../../src/telemetry/config.js';

afterAll(removeTempDirs);

describe('an OTLP endpoint whose URL carries a query', () => {
  it('keeps the query after the signal path, for the general endpoint and one written with a signal path', () => {
    expect(telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://h.example/otlp?token=x&b=1' })).toMatchObject({ tracesUrl: 'https://h.example/otlp/v1/traces?token=x&b=1', metricsUrl: 'https://h.example/otlp/v1/metrics?token=x&b=1' });
    expect(telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://h.example/otlp/?token=x' })).toMatchObject({ tracesUrl: 'https://h.example/otlp/v1/traces?token=x' });
    const written = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://h.example/v1/traces?token=x' })!;
    expect(written).toMatchObject({ tracesUrl: 'https://h.example/v1/traces?token=x', metricsUrl: 'https://h.example/v1/metrics?token=x' });
    // The warning about the signal path shows no token.
    expect(written.warnings.join('\n')).not.toContain('token=x');
  });

  it.each(['http/protobuf', 'http/json'])('a run over %s sends its spans and metrics with the query, and the collector gets them', async (protocol) => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = oneTurnRecipe('query');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/otlp?token=s3cret`, OTEL_EXPORTER_OTLP_PROTOCOL: protocol } });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.warnings.join('\n')).not.toContain('telemetry');
    const paths = receiver.requests.map((q) => q.path);
    expect(paths).toContain('/otlp/v1/traces?token=s3cret');
    expect(paths).toContain('/otlp/v1/metrics?token=s3cret');
    expect(paths.every((p) => p.endsWith('?token=s3cret'))).toBe(true);
    expect(receiver.spans.map((s) => s.name)).toContain('invoke_agent query');
  });
});

describe('an OTLP endpoint at an IPv6 literal', () => {
  it('a run exports its spans and metrics to http://[::1]:PORT', async () => {
    const receiver = await startOtlpReceiver('::1');
    onTestFinished(() => receiver.close());
    const { file, out } = oneTurnRecipe('ipv6');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(r.code, r.stderr).toBe(0);
    expect([...readRun(out).report.warnings, r.stderr].join('\n')).not.toContain('ENOTFOUND');
    expect(new Set(receiver.requests.map((q) => q.path))).toEqual(new Set(['/v1/metrics', '/v1/traces']));
    expect(receiver.spans.map((s) => s.name)).toContain('invoke_agent ipv6');
  });
});

describe('an OTLP endpoint with credentials in its URL (a collector behind basic auth)', () => {
  it('sends them as the Authorization header, which the exporter otherwise dropped with the URL\'s user part', async () => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const { file, out } = oneTurnRecipe('basic');
    const endpoint = receiver.url.replace('http://', 'http://fleet:s3cr%40t@');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    expect(r.code, r.stderr).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    const expected = `Basic ${Buffer.from('fleet:s3cr@t').toString('base64')}`;
    for (const q of receiver.requests) expect(q.headers.authorization, q.path).toBe(expected);
    // Nothing of them in what the run says.
    expect(JSON.stringify(readRun(out).report) + r.stderr).not.toContain('s3cr');
  });

  it('an Authorization header the headers set wins over the URL\'s credentials', () => {
    const config = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://u:p@h.example/otlp', OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc' })!;
    expect(config.tracesUrl).toBe('https://h.example/otlp/v1/traces');
    expect(config.tracesHeaders).toEqual({ Authorization: 'Bearer abc' });
  });
});
