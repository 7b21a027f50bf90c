// Gemini on Vertex AI behind a proxy, with workload identity credentials. google-auth-library's
// requests for them (the OIDC token, Google's STS) read HTTPS_PROXY and HTTP_PROXY but not
// ALL_PROXY, which the model's requests follow: with ALL_PROXY alone they went direct, and the run
// said "Gemini response was cut off after 0 chunk(s)", naming neither the credentials nor the way
// out. The identity endpoints and the model are named models.proxied.test, which only the test
// proxy resolves.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { NO_PROXY_VARIABLES, proxiedName, startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(removeTempDirs);

/** GitHub's OIDC token endpoint and Google's STS, as an external_account client uses them. */
async function startIdentity(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url!.split('?')[0]}`);
      res.setHeader('content-type', 'application/json');
      if (req.url!.startsWith('/oidc')) return res.end(JSON.stringify({ value: 'github-oidc-jwt' }));
      if (req.url === '/sts/v1/token') return res.end(JSON.stringify({ access_token: 'ya29.federated', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())));
  return { url: proxiedName(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), seen };
}

function credentialsFile(dir: string, identityUrl: string): string {
  const file = path.join(dir, 'gha-creds-test.json');
  const audience = '//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/github/providers/my-repo';
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: 'external_account',
      audience,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${identityUrl}/sts/v1/token`,
      credential_source: { url: `${identityUrl}/oidc?api-version=2.0`, headers: { Authorization: 'Bearer actions-id-token-request-token' }, format: { type: 'json', subject_token_field_name: 'value' } },
    }),
  );
  return file;
}

/** A Vertex AI run with workload identity credentials, behind the proxy `variable` names. */
async function vertexRun(variable: string) {
  const gemini: FakeGemini = await startFakeGemini([{ text: 'Hi from Vertex, by way of the proxy.', usage: { input: 5, output: 4 } }]);
  const proxy: HttpProxy = await startHttpProxy();
  closers.push(() => gemini.close(), () => proxy.close());
  const identity = await startIdentity();
  const dir = tempDir();
  const out = path.join(dir, 'out');
  const r = await cli(['run', '--prompt', 'Say hi.', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--model-retries', '1', '--out', out], {
    cwd: dir,
    env: {
      ...NO_PROXY_VARIABLES,
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_CLOUD_PROJECT: 'my-project',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
      GOOGLE_APPLICATION_CREDENTIALS: credentialsFile(dir, identity.url),
      GOOGLE_VERTEX_BASE_URL: proxiedName(gemini.url),
      [variable]: proxy.url,
    },
  });
  return { ...r, report: readRun(out).report, identity, gemini };
}

describe('Vertex AI credentials behind a proxy', () => {
  it('are fetched through the proxy HTTP_PROXY names, as the model\'s requests go', async () => {
    const r = await vertexRun('HTTP_PROXY');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hi from Vertex, by way of the proxy.');
    expect(r.identity.seen).toEqual(['GET /oidc', 'POST /sts/v1/token']);
    expect(r.gemini.requests[0]!.headers.authorization).toBe('Bearer ya29.federated');
  });

  it('with ALL_PROXY alone, fail naming the endpoint they were fetched from and the variable to set, not a cut-off answer', async () => {
    const r = await vertexRun('ALL_PROXY');
    expect(r.code).toBe(1);
    expect(r.report.error).toMatch(/^model call failed: cannot reach http:\/\/models\.proxied\.test:\d+\/oidc for the Vertex AI credentials of project my-project, from GOOGLE_APPLICATION_CREDENTIALS/);
    expect(r.report.error).toContain('reads only HTTPS_PROXY and HTTP_PROXY: set HTTPS_PROXY to the same proxy');
    expect(r.report.error).not.toContain('cut off');
    expect(r.gemini.requests).toHaveLength(0);
  });
});
