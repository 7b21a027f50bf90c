// What a run says when the collector answers with an error: the signal, the URL and the HTTP
// status, for a status the exporter retries (429, 502, 503, 504) as for one it does not (400):
// the retried ones were said only as 'Export failed with retryable status', so a throttling or
// down collector could not be told from a wrong one.
import http2 from 'node:http2';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { oneTurnRecipe } from './one-turn-recipe.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

const recipe = () => oneTurnRecipe('status');

describe('a collector answering with an error status', () => {
  it.each([
    [503, 'Service Unavailable'],
    [429, 'Too Many Requests'],
  ])('HTTP %i, which the exporter retries: the warning names the status; the run is not affected', async (status, text) => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    receiver.status = status;
    const { file, out } = recipe();
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: '600' } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.exit_code).toBe(0);
    const said = [...report.warnings, r.stderr].join('\n');
    expect(said).toContain(`telemetry: export failed: traces to ${receiver.url}/v1/traces: HTTP ${status} ${text}`);
    expect(said).toContain(`telemetry: export failed: metrics to ${receiver.url}/v1/metrics: HTTP ${status} ${text}`);
  });
});

describe('an endpoint on OTLP/gRPC port 4317 (a gRPC setup: OTEL_EXPORTER_OTLP_PROTOCOL=grpc)', () => {
  it("says the port is gRPC's and which to use, not only the HTTP parser's 'Parse Error'", async () => {
    // What a gRPC receiver is to an HTTP/1.1 client: an HTTP/2 server (prior knowledge), as the collector's on 4317.
    const server = http2.createServer();
    server.on('stream', (stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { endStream: true }));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(4317, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { file, out } = recipe();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TIMEOUT: '2000' };
    const r = await cliInProcess(['run', file, '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    const said = [...readRun(out).report.warnings, r.stderr].join('\n');
    expect(said).toMatch(/telemetry: export failed: traces to http:\/\/127\.0\.0\.1:4317\/v1\/traces: .+ \(port 4317 is OTLP\/gRPC's, which is not supported: point the endpoint at the collector's OTLP\/HTTP port, 4318 by default\)/);
  });
});
