// Model requests behind a proxy: HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as curl and the other agent
// CLIs read them. Real runs of the built CLI against the fake endpoints, through a real forward
// proxy on 127.0.0.1 (test/helpers/http-proxy.ts): CONNECT tunnels for https, absolute-form
// requests for http, credentials, NO_PROXY, and a proxy that refuses.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { proxySettings, routeIn } from '../../src/util/proxy.js';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { NO_PROXY_VARIABLES, proxiedName, startHttpProxy } from '../helpers/http-proxy.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
// The endpoints behind the proxy are named models.proxied.test (the runner never proxies loopback):
// their certificate is for that name, and only the test proxy resolves it.
const CERT = { key: fs.readFileSync(path.join(FIXTURES, 'proxied.key')), cert: fs.readFileSync(path.join(FIXTURES, 'proxied.crt')) };
const CA = path.join(FIXTURES, 'proxied.crt');
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(removeTempDirs);

async function run(provider: string, model: string, env: Record<string, string | undefined>) {
  const dir = tempDir();
  const argv = [CLI, 'run', '--prompt', 'Say hello.', '--provider', provider, '--model', model, '--model-retries', '1', '--out', path.join(dir, 'out')];
  const r = await execa(process.execPath, argv, { cwd: dir, env: baseEnv({ ...NO_PROXY_VARIABLES, ...env }), extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
  const transcript = fs.readFileSync(path.join(dir, 'out', 'transcript.jsonl'), 'utf8');
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), transcript };
}

/** TLS with the models.proxied.test certificate in front of a plain endpoint: an https origin behind the proxy. */
async function tlsInFrontOf(plainUrl: string): Promise<number> {
  const { port } = new URL(plainUrl);
  const server = tls.createServer(CERT, (socket) => {
    const upstream = net.connect(Number(port), '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as net.AddressInfo).port;
}

describe('a run behind an HTTP proxy', () => {
  it('tunnels an https endpoint through CONNECT with the credentials of HTTPS_PROXY (gemini)', async () => {
    // Two turns: the second request goes over the same tunnel, kept alive as a direct connection is.
    const gemini = await startFakeGemini([{ calls: [{ name: 'ls', args: { path: '.' } }] }, { text: 'Hello through the tunnel.' }], { tls: CERT });
    const proxy = await startHttpProxy({ credentials: 'alice:s3cr@t' });
    closers.push(() => gemini.close(), () => proxy.close());
    const r = await run('gemini', 'gemini-2.5-flash', {
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: proxiedName(gemini.url),
      NODE_EXTRA_CA_CERTS: CA,
      HTTPS_PROXY: `http://alice:s3cr%40t@127.0.0.1:${proxy.port}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello through the tunnel.');
    expect(proxy.seen).toEqual([{ method: 'CONNECT', target: `models.proxied.test:${new URL(gemini.url).port}`, authorization: 'alice:s3cr@t' }]);
    expect(gemini.requests).toHaveLength(2);
  });

  it('tunnels an https OpenAI-compatible endpoint through CONNECT (https_proxy, lower case)', async () => {
    const openai = await startFakeOpenAI([{ toolCalls: [{ name: 'ls', arguments: { path: '.' } }] }, { text: 'Hello over TLS via the proxy.' }]);
    const port = await tlsInFrontOf(openai.url);
    const proxy = await startHttpProxy();
    closers.push(() => openai.close(), () => proxy.close());
    const r = await run('openai', 'gpt-4o', {
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: `https://models.proxied.test:${port}/v1`,
      NODE_EXTRA_CA_CERTS: CA,
      https_proxy: proxy.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello over TLS via the proxy.');
    expect(proxy.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`CONNECT models.proxied.test:${port}`]);
    expect(openai.requests).toHaveLength(2);
  });

  it('sends an http endpoint to HTTP_PROXY in absolute form, credentials for the proxy only (anthropic)', async () => {
    const anthropic = await startFakeAnthropic([{ text: 'Hello by way of the proxy.' }]);
    const proxy = await startHttpProxy({ credentials: 'bob:hunter2' });
    closers.push(() => anthropic.close(), () => proxy.close());
    const r = await run('anthropic', 'claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: proxiedName(anthropic.url), HTTP_PROXY: `http://bob:hunter2@127.0.0.1:${proxy.port}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello by way of the proxy.');
    expect(proxy.seen.map((s) => `${s.method} ${s.target} ${s.authorization}`)).toEqual([`POST ${proxiedName(anthropic.url)}/v1/messages bob:hunter2`]);
    expect(proxy.seen[0]!.forwardedHeaders!.host).toBe(new URL(proxiedName(anthropic.url)).host);
  });

  it('sends the gemini provider to an http endpoint through HTTP_PROXY in absolute form', async () => {
    const gemini = await startFakeGemini([{ text: 'Plain, proxied.' }]);
    const proxy = await startHttpProxy();
    closers.push(() => gemini.close(), () => proxy.close());
    const r = await run('gemini', 'gemini-2.5-flash', { GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: proxiedName(gemini.url), HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Plain, proxied.');
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]!.target).toMatch(new RegExp(`^${proxiedName(gemini.url)}/v1beta/models/gemini-2.5-flash:`));
  });

  it('goes through the HTTP proxy ALL_PROXY names when HTTPS_PROXY and HTTP_PROXY are unset, as curl and git do', async () => {
    const openai = await startFakeOpenAI([{ text: 'Hello via ALL_PROXY.' }]);
    const port = await tlsInFrontOf(openai.url);
    const proxy = await startHttpProxy();
    closers.push(() => openai.close(), () => proxy.close());
    const r = await run('openai', 'gpt-4o', { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `https://models.proxied.test:${port}/v1`, NODE_EXTRA_CA_CERTS: CA, ALL_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello via ALL_PROXY.');
    expect(proxy.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`CONNECT models.proxied.test:${port}`]);
  });

  it('goes direct to a loopback endpoint, with no NO_PROXY entry (a local model server)', async () => {
    const openai = await startFakeOpenAI([{ text: 'Direct.' }]);
    const gemini = await startFakeGemini([{ text: 'Direct too.' }]);
    closers.push(() => openai.close(), () => gemini.close());
    // Nothing listens at the proxy's address: a request that went there would fail.
    const dead = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' };
    const r = await run('openai', 'gpt-4o', { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: openai.url.replace('127.0.0.1', 'localhost'), ...dead });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Direct.');
    const g = await run('gemini', 'gemini-2.5-flash', { GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: gemini.url, ...dead });
    expect(g.code, g.stderr).toBe(0);
    expect(g.stdout).toContain('Direct too.');
  });

  it('says the proxy wants credentials, naming it without the ones it was given (407 on CONNECT)', async () => {
    const gemini = await startFakeGemini([{ text: 'never' }], { tls: CERT });
    const proxy = await startHttpProxy({ credentials: 'alice:right' });
    closers.push(() => gemini.close(), () => proxy.close());
    const r = await run('gemini', 'gemini-2.5-flash', {
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: proxiedName(gemini.url),
      NODE_EXTRA_CA_CERTS: CA,
      HTTPS_PROXY: `http://alice:wrong-pass@127.0.0.1:${proxy.port}`,
    });
    expect(r.code).toBe(41);
    expect(r.stderr).toContain(`the proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY) asks for credentials to reach models.proxied.test:${new URL(gemini.url).port} (407 Proxy Authentication Required)`);
    expect(r.stderr).toContain('correct them');
    expect(r.stderr + r.stdout + r.transcript).not.toContain('wrong-pass');
    expect(gemini.requests).toHaveLength(0);
  });

  it('says how to give credentials when the proxy asks for them in absolute form (407)', async () => {
    const openai = await startFakeOpenAI([{ text: 'never' }]);
    const proxy = await startHttpProxy({ credentials: 'alice:right' });
    closers.push(() => openai.close(), () => proxy.close());
    const r = await run('openai', 'gpt-4o', { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: proxiedName(openai.url), http_proxy: proxy.url });
    expect(r.code).toBe(41);
    expect(r.stderr).toContain(`the proxy ${proxy.url} (http_proxy) asks for credentials`);
    expect(r.stderr).toContain(`put them in http_proxy before the proxy's host: user:password@127.0.0.1:${proxy.port}`);
    expect(openai.requests).toHaveLength(0);
  });

  it('says the proxy could not connect to the endpoint (502 on CONNECT)', async () => {
    const proxy = await startHttpProxy({ refuseConnect: 502 });
    closers.push(() => proxy.close());
    const r = await run('anthropic', 'claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: 'https://api.example.com', HTTPS_PROXY: proxy.url });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`the proxy ${proxy.url} (HTTPS_PROXY) could not connect to api.example.com:443 (502 Bad Gateway)`);
  });

  it('says the proxy of an http endpoint cannot be reached (HTTP_PROXY, absolute form)', async () => {
    const r = await run('openai', 'gpt-4o', { OPENAI_BASE_URL: 'http://models.example.com/v1', HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot reach the proxy http:\/\/127\.0\.0\.1:9 that HTTP_PROXY names: .*ECONNREFUSED.*; check HTTP_PROXY, or name models\.example\.com in NO_PROXY/);
  });

  it('says the proxy cannot be reached, and which variable names it', async () => {
    const r = await run('openai', 'gpt-4o', { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: 'https://api.example.com/v1', HTTPS_PROXY: 'http://user:pw@127.0.0.1:9' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot reach the proxy http:\/\/127\.0\.0\.1:9 that HTTPS_PROXY names: .*ECONNREFUSED/);
    expect(r.stderr + r.transcript).not.toContain('user:pw');
  });
});

describe('which requests the proxy variables send through a proxy', () => {
  const route = (env: Record<string, string>, url: string) => routeIn(proxySettings(env), new URL(url))?.name ?? 'direct';

  it('reads https_proxy, then HTTPS_PROXY, then the HTTP_PROXY of http for https; http only HTTP_PROXY', () => {
    expect(route({ HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' }, 'https://api.openai.com')).toBe('http://b:2');
    expect(route({ HTTP_PROXY: 'http://a:1' }, 'https://api.openai.com')).toBe('http://a:1');
    expect(route({ HTTPS_PROXY: 'http://a:1' }, 'http://localhost:11434')).toBe('direct');
    expect(route({ HTTPS_PROXY: 'proxy.corp:3128' }, 'https://x.io')).toBe('http://proxy.corp:3128');
  });

  it('falls back on an HTTP proxy ALL_PROXY (all_proxy first) names; passes a socks one over', () => {
    expect(route({ ALL_PROXY: 'http://a:1' }, 'https://api.openai.com')).toBe('http://a:1');
    expect(route({ all_proxy: 'b:2', ALL_PROXY: 'http://a:1' }, 'http://models.corp')).toBe('http://b:2');
    expect(route({ ALL_PROXY: 'http://a:1', HTTP_PROXY: 'http://h:3' }, 'https://api.openai.com')).toBe('http://h:3');
    expect(route({ ALL_PROXY: 'http://a:1', HTTPS_PROXY: 'http://s:4' }, 'http://models.corp')).toBe('http://a:1');
    expect(route({ ALL_PROXY: 'socks5://a:1080' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ALL_PROXY: 'http://a:1', NO_PROXY: 'openai.com' }, 'https://api.openai.com')).toBe('direct');
  });

  it('never sends loopback through a proxy: localhost, 127.0.0.0/8, ::1', () => {
    const p = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    for (const url of ['http://localhost:11434', 'https://LOCALHOST.', 'http://app.localhost:8080', 'http://127.0.0.1:1234', 'http://127.8.9.10', 'https://[::1]:8000', 'http://[0:0:0:0:0:0:0:1]', 'http://[::ffff:127.0.0.1]']) {
      expect(route(p, url), url).toBe('direct');
    }
    for (const url of ['http://localhost.example.com', 'http://127.example.com', 'http://128.0.0.1', 'https://[::2]', 'http://10.0.0.1']) {
      expect(route(p, url), url).toBe('http://p:1');
    }
  });

  it('matches NO_PROXY entries: *, names with their subdomains, ports, addresses and ranges', () => {
    const p = { HTTPS_PROXY: 'http://p:1' };
    expect(route({ ...p, NO_PROXY: '*' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ...p, NO_PROXY: 'openai.com' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ...p, NO_PROXY: '.openai.com' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ...p, NO_PROXY: '*.openai.com' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ...p, NO_PROXY: 'penai.com' }, 'https://api.openai.com')).toBe('http://p:1');
    expect(route({ ...p, NO_PROXY: 'api.openai.com:8443' }, 'https://api.openai.com')).toBe('http://p:1');
    expect(route({ ...p, NO_PROXY: 'api.openai.com:443' }, 'https://api.openai.com')).toBe('direct');
    expect(route({ ...p, NO_PROXY: '10.0.0.0/8' }, 'https://10.1.2.3:8000')).toBe('direct');
    expect(route({ ...p, NO_PROXY: '::1' }, 'https://[::1]:8000')).toBe('direct');
    expect(route({ ...p, no_proxy: '127.0.0.1', NO_PROXY: 'other' }, 'https://127.0.0.1')).toBe('direct');
  });

  it('refuses a proxy it cannot speak to, without showing its credentials', () => {
    expect(() => route({ HTTPS_PROXY: 'socks5://u:secret@p:1080' }, 'https://x.io')).toThrow(/HTTPS_PROXY names a socks5 proxy \(socks5:\/\/p:1080\)/);
  });
});
