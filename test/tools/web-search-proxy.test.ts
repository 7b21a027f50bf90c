// web_search behind an HTTP proxy: the model's turns went through the proxy, but the search itself
// (the Gemini SDK's client, with the global fetch) went direct, and failed where only the proxy
// gets out. The fake Gemini is named models.proxied.test, a name only the test proxy resolves.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startHttpProxy } from '../helpers/http-proxy.js';

afterAll(removeTempDirs);

const grounded = JSON.stringify({
  candidates: [{ content: { role: 'model', parts: [{ text: 'Node 24 is the active LTS.' }] }, finishReason: 'STOP', index: 0, groundingMetadata: { groundingChunks: [{ web: { uri: 'https://nodejs.org/', title: 'nodejs.org' } }] } }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
});

describe('web_search behind an HTTP proxy', () => {
  it('searches through the proxy HTTP_PROXY names, as the turns go', async () => {
    const gemini = await startFakeGemini([{ calls: [{ name: 'web_search', args: { query: 'node lts' } }] }, { raw: grounded }, { text: 'Node 24.' }]);
    const proxy = await startHttpProxy();
    onTestFinished(async () => {
      await gemini.close();
      await proxy.close();
    });
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ws'));
    const recipe = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: search\nprompt: Which Node is LTS?\nworkspace: ws\nprovider: gemini\nmodel: gemini-2.5-flash\ntools: [web_search]\nconfirmation: { mode: auto-approve }\n');
    const base = gemini.url.replace('127.0.0.1', 'models.proxied.test');
    const env = { HTTPS_PROXY: undefined, https_proxy: undefined, http_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: base, HTTP_PROXY: proxy.url };
    const out = path.join(dir, 'out');
    const r = await cli(['run', recipe, '--out', out, '--model-retries', '1'], { env });
    expect(r.code, r.stderr).toBe(0);
    const result = readRun(out).events.find((e) => e.type === 'tool_result');
    expect(JSON.stringify(result)).toContain('Node 24 is the active LTS');
    expect(proxy.seen.filter((s) => s.target.startsWith(`${base}/`) && s.target.includes(':generateContent'))).toHaveLength(1);
  });
});
