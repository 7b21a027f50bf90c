// Gemini on Vertex AI with workload identity federation, offline: the credentials file has the
// shape google-github-actions/auth writes (an `external_account` whose subject token comes from
// the GitHub OIDC endpoint), and the real @google/genai + google-auth-library fetch the OIDC token
// from a fake issuer, exchange it at a fake STS, and call the fake Vertex endpoint with the result.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import { ProviderError, type ModelRequest } from '../../src/providers/provider.js';
import { resolveVertex } from '../../src/providers/vertex.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { tempDir } from '../helpers/cli.js';

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }], tools: [] };
const signal = () => new AbortController().signal;

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

/** The GitHub OIDC token endpoint and Google's STS, as far as an external_account client uses them. */
async function startIdentity(opts: { stsStatus?: number } = {}) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.url!.startsWith('/oidc')) return res.end(JSON.stringify({ value: 'github-oidc-jwt' }));
      if (req.url === '/sts/v1/token') {
        if (opts.stsStatus) {
          res.statusCode = opts.stsStatus;
          return res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'The audience in ID Token does not match the expected audience.' }));
        }
        return res.end(JSON.stringify({ access_token: 'ya29.federated', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())) };
}

function credentialsFile(identityUrl: string): string {
  const file = path.join(tempDir('unattended-vertex-'), 'gha-creds-test.json');
  const audience = '//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/github/providers/my-repo';
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: 'external_account',
      audience,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${identityUrl}/sts/v1/token`,
      credential_source: {
        url: `${identityUrl}/oidc?api-version=2.0&audience=${encodeURIComponent(`https:${audience}`)}`,
        headers: { Authorization: 'Bearer actions-id-token-request-token' },
        format: { type: 'json', subject_token_field_name: 'value' },
      },
    }),
  );
  return file;
}

let fake: FakeGemini | undefined;
let identity: Awaited<ReturnType<typeof startIdentity>> | undefined;
afterEach(async () => {
  await Promise.all([fake?.close(), identity?.close()]);
  fake = identity = undefined;
});

describe('gemini on Vertex AI', () => {
  it('workload identity: OIDC token -> STS -> Bearer token on the project and location of the env', async () => {
    fake = await startFakeGemini([{ text: 'Hi from Vertex.', usage: { input: 5, output: 4 } }]);
    identity = await startIdentity();
    const provider = await createGeminiProvider({
      model: 'gemini-2.5-flash',
      env: {
        GOOGLE_GENAI_USE_VERTEXAI: 'True',
        GOOGLE_CLOUD_PROJECT: 'my-project',
        GOOGLE_CLOUD_LOCATION: 'us-central1',
        GOOGLE_APPLICATION_CREDENTIALS: credentialsFile(identity.url),
        GOOGLE_VERTEX_BASE_URL: fake.url,
      },
    });
    const turn = await provider.generate(request, { signal: signal() });
    expect(turn.text).toBe('Hi from Vertex.');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.url).toBe('/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer ya29.federated');
    expect(fake.requests[0]!.headers['x-goog-api-key']).toBeUndefined();
    const [oidc, sts] = identity.seen;
    expect(oidc).toMatchObject({ method: 'GET', authorization: 'Bearer actions-id-token-request-token' });
    expect(sts!.method).toBe('POST');
    expect(new URLSearchParams(sts!.body).get('subject_token')).toBe('github-oidc-jwt');
  });

  it('a token exchange the STS refuses is an auth error (exit 41) that names the credentials file; the model is never called', async () => {
    fake = await startFakeGemini([{ text: 'never' }]);
    identity = await startIdentity({ stsStatus: 400 });
    const file = credentialsFile(identity.url);
    const provider = await createGeminiProvider({
      model: 'gemini-2.5-flash',
      env: { GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_VERTEX_BASE_URL: fake.url },
    });
    const error = await provider.generate(request, { signal: signal() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('auth');
    expect((error as ProviderError).message).toContain(`GOOGLE_APPLICATION_CREDENTIALS (${file})`);
    expect(fake.requests).toHaveLength(0);
  });

  it('reads the SDK own variables: off unless GOOGLE_GENAI_USE_VERTEXAI is true; location defaults to global; a project or a key is required', async () => {
    expect(resolveVertex({ GOOGLE_CLOUD_PROJECT: 'p' })).toBeNull();
    expect(resolveVertex({ GOOGLE_GENAI_USE_VERTEXAI: 'false', GOOGLE_CLOUD_PROJECT: 'p' })).toBeNull();
    expect(resolveVertex({ GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p' })).toMatchObject({ project: 'p', location: 'global', apiKey: null });
    expect(resolveVertex({ GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_API_KEY: 'vk' })).toMatchObject({ project: null, apiKey: 'vk' });
    await expect(createGeminiProvider({ model: 'm', env: { GOOGLE_GENAI_USE_VERTEXAI: 'true' } })).rejects.toThrow(/GOOGLE_CLOUD_PROJECT is not set/);
  });
});
