import { afterEach, describe, expect, it } from 'vitest';
import { SEARCH_UNAVAILABLE, WebSearchTool, geminiGroundedSearch, type SearchFunction } from '../../src/tools/builtin/web-search.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

const signal = () => new AbortController().signal;

/** A generateContent reply grounded on Google Search, as the real API shapes it. */
const grounded = JSON.stringify({
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'Node 24 is the active LTS ' }, { text: 'release.' }] },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: {
        webSearchQueries: ['node lts version'],
        groundingChunks: [
          { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'nodejs.org' } },
          { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/def', title: 'github.com' } },
          { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'nodejs.org' } },
        ],
      },
    },
  ],
  usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 9, totalTokenCount: 17 },
});

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const searchVia = (url: string) => geminiGroundedSearch({ model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'test-key' }, baseUrl: url });

describe('web_search through Gemini grounding', () => {
  it('asks generateContent with the googleSearch tool and returns the answer with numbered, deduplicated sources', async () => {
    fake = await startFakeGemini([{ raw: grounded }]);
    const tool = new WebSearchTool({ search: searchVia(fake.url) });
    const params = { query: '  current node LTS  ' };
    expect(tool.validateToolParams(params)).toBeNull();
    const result = await tool.execute(params, signal());
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      [
        'Web search results for "current node LTS":',
        '',
        'Node 24 is the active LTS release.',
        '',
        'Sources:',
        '[1] nodejs.org (https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc)',
        '[2] github.com (https://vertexaisearch.cloud.google.com/grounding-api-redirect/def)',
      ].join('\n'),
    );
    expect(result.returnDisplay).toBe('Searched "current node LTS": 2 source(s)');
    // The request's tokens are the run's: the loop counts them (side_request).
    expect(result.usage).toMatchObject({ input: 8, output: 9, total: 17 });
    const request = fake.requests[0]!;
    expect(request.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('test-key');
    expect(request.body.tools).toEqual([{ googleSearch: {} }]);
    expect(request.body.contents).toEqual([{ role: 'user', parts: [{ text: 'current node LTS' }] }]);
  });

  it('estimates what a search cost when the endpoint sends no token counts: never free', async () => {
    const { usageMetadata: _dropped, ...withoutUsage } = JSON.parse(grounded) as Record<string, unknown>;
    fake = await startFakeGemini([{ raw: JSON.stringify(withoutUsage) }]);
    const result = await new WebSearchTool({ search: searchVia(fake.url) }).execute({ query: 'current node LTS' }, signal());
    expect(result.usage).toMatchObject({ estimated: true });
    expect(result.usage!.total).toBeGreaterThan(0);
  });

  it('turns an API error into an error result the model can read', async () => {
    fake = await startFakeGemini([{ status: 429, message: 'Quota exceeded for search grounding' }]);
    const result = await new WebSearchTool({ search: searchVia(fake.url) }).execute({ query: 'x' }, signal());
    expect(result.error?.type).toBe('execution_failed');
    expect(result.error?.message).toMatch(/^web_search failed: .*Quota exceeded for search grounding/);
  });

  it('stops waiting when the call is cancelled', async () => {
    fake = await startFakeGemini([{ hang: true }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await new WebSearchTool({ search: searchVia(fake.url) }).execute({ query: 'x' }, controller.signal);
    expect(result.error?.type).toBe('aborted');
  });

  it('gives up at its time limit', async () => {
    fake = await startFakeGemini([{ hang: true }]);
    const result = await new WebSearchTool({ search: searchVia(fake.url), timeoutMs: 200 }).execute({ query: 'x' }, signal());
    expect(result.error).toEqual({ type: 'timeout', message: 'web_search did not answer within 0.2 s' });
  });
});

describe('web_search without a search backend', () => {
  it('tells the model it is not available and what to do instead', async () => {
    const tool = new WebSearchTool({ search: null });
    const result = await tool.execute({ query: 'anything' }, signal());
    expect(result.error).toEqual({ type: 'execution_failed', message: SEARCH_UNAVAILABLE });
    expect(result.llmContent).toMatch(/^Error: web_search is not available with this provider; configure the gemini provider/);
    expect(await tool.shouldConfirmExecute()).toBe(false);
  });

  it('says so when there were no results', async () => {
    const search: SearchFunction = async () => ({ text: '', sources: [] });
    const result = await new WebSearchTool({ search }).execute({ query: 'zzqx' }, signal());
    expect(result).toEqual({ llmContent: 'No results for "zzqx".', returnDisplay: 'Searched "zzqx": no results' });
  });

  it.each([
    [{ query: '   ' }, 'query must not be empty'],
    [{ query: 'q'.repeat(501) }, 'query is 501 characters; at most 500'],
    [{}, "missing required parameter 'query'"],
  ])('refuses %j', (params, message) => {
    expect(new WebSearchTool({ search: null }).validateToolParams(params)).toBe(message);
  });
});
