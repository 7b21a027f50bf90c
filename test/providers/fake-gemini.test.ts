// The fake endpoint itself, as other tests rely on it: the unary route through the real SDK, and
// the errors it gives when a test misuses it.
import { afterEach, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function sdkFor(url: string) {
  const { GoogleGenAI } = await import('@google/genai');
  return new GoogleGenAI({ apiKey: 'k', vertexai: false, httpOptions: { baseUrl: url } });
}

it(':generateContent answers with the whole reply in one JSON body', async () => {
  fake = await startFakeGemini([{ text: 'Hello', calls: [{ name: 'ls', args: { path: '.' } }], usage: { input: 9, output: 3 } }]);
  const ai = await sdkFor(fake.url);
  const response = await ai.models.generateContent({ model: 'gemini-x', contents: 'hi' });
  expect(response.candidates?.[0]?.content?.parts).toEqual([{ text: 'Hello' }, { functionCall: { name: 'ls', args: { path: '.' } } }]);
  expect(response.candidates?.[0]?.finishReason).toBe('STOP');
  expect(response.usageMetadata).toMatchObject({ promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 });
  expect(fake.requests[0]).toMatchObject({ model: 'gemini-x', stream: false, url: '/v1beta/models/gemini-x:generateContent' });
  expect(fake.remaining()).toBe(0);
});

it('a request past the end of the script is a 400 that says so, and unknown routes are 404', async () => {
  fake = await startFakeGemini([]);
  const exhausted = await fetch(`${fake.url}/v1beta/models/m:streamGenerateContent?alt=sse`, { method: 'POST', body: '{}' });
  expect(exhausted.status).toBe(400);
  expect(((await exhausted.json()) as { error: { message: string } }).error.message).toBe('fake-gemini: script exhausted after 0 request(s)');
  const unknown = await fetch(`${fake.url}/v1/models`, { method: 'GET' });
  expect(unknown.status).toBe(404);
});

it('keeps connections alive between requests, as a real server does', async () => {
  fake = await startFakeGemini(Array.from({ length: 6 }, () => ({ text: 'ok' })));
  const ai = await sdkFor(fake.url);
  for (let i = 0; i < 6; i++) {
    const stream = await ai.models.generateContentStream({ model: 'm', contents: 'hi', config: { automaticContinuation: false } });
    for await (const _chunk of stream) void _chunk;
  }
  const ports = new Set(fake.requests.map((r) => r.remotePort));
  // undici may open a second socket early on; a new one per request is what must not happen.
  expect(ports.size).toBeLessThanOrEqual(2);
});
