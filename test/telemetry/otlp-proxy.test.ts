// OTLP export behind an HTTP proxy: the exporters send with node:http / node:https, which read no
// proxy variable, so a collector reached only through the proxy got nothing (each export failed
// with ENOTFOUND or a timeout). The collector is named collector.proxied.test, a name only the test
// proxy resolves (to 127.0.0.1): the spans and metrics arrive through the proxy or not at all.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs } from '../helpers/cli.js';
import { NO_PROXY_VARIABLES, startHttpProxy } from '../helpers/http-proxy.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { oneTurnRecipe } from './one-turn-recipe.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'providers', 'fixtures');
const CA = path.join(FIXTURES, 'proxied.crt');
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(removeTempDirs);

describe('OTLP export behind an HTTP proxy', () => {
  it.each(['http/protobuf', 'http/json'])('an http:// collector gets the spans and metrics through HTTP_PROXY, with its credentials (%s)', async (protocol) => {
    const receiver = await startOtlpReceiver();
    const proxy = await startHttpProxy({ credentials: 'alice:s3cret' });
    closers.push(() => receiver.close(), () => proxy.close());
    const endpoint = receiver.url.replace('127.0.0.1', 'collector.proxied.test');
    const { file, out } = oneTurnRecipe('proxied');
    const env = { ...NO_PROXY_VARIABLES, OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/otlp?token=t0k`, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, HTTP_PROXY: proxy.url.replace('http://', 'http://alice:s3cret@') };
    const r = await cli(['run', file, '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.warnings.join('\n')).not.toContain('telemetry');
    expect(receiver.spans.map((s) => s.name)).toContain('invoke_agent proxied');
    const seen = proxy.seen.map((s) => `${s.method} ${s.target} ${s.authorization}`);
    expect(seen).toContain(`POST ${endpoint}/otlp/v1/traces?token=t0k alice:s3cret`);
    expect(seen).toContain(`POST ${endpoint}/otlp/v1/metrics?token=t0k alice:s3cret`);
    expect(r.stderr + JSON.stringify(readRun(out).report)).not.toContain('s3cret');
  });

  it("an https:// collector through HTTPS_PROXY's CONNECT tunnel, trusting OTEL_EXPORTER_OTLP_CERTIFICATE", async () => {
    const receiver = await startOtlpReceiver();
    const proxy = await startHttpProxy();
    closers.push(() => receiver.close(), () => proxy.close());
    // TLS with the certificate of models.proxied.test in front of the plain receiver.
    const server = tls.createServer({ key: fs.readFileSync(path.join(FIXTURES, 'proxied.key')), cert: fs.readFileSync(CA) }, (socket) => {
      const upstream = net.connect(Number(new URL(receiver.url).port), '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as net.AddressInfo).port;
    const { file, out } = oneTurnRecipe('tunnelled');
    const env = { ...NO_PROXY_VARIABLES, OTEL_EXPORTER_OTLP_ENDPOINT: `https://models.proxied.test:${port}`, OTEL_EXPORTER_OTLP_CERTIFICATE: CA, HTTPS_PROXY: proxy.url };
    const r = await cli(['run', file, '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.warnings.join('\n')).not.toContain('telemetry');
    expect(receiver.spans.map((s) => s.name)).toContain('invoke_agent tunnelled');
    expect(proxy.seen.map((s) => `${s.method} ${s.target}`)).toContain(`CONNECT models.proxied.test:${port}`);
  });
});
