// The gemini provider (REST over node:http, @google/genai types) against the fake endpoint: what a run
// gets back (text, calls, usage), what goes over the wire, and how each fault is classified.
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider, geminiTools, MISSING_KEY_MESSAGE } from '../../src/providers/gemini.js';
import type { ModelRequest } from '../../src/providers/provider.js';
import { ProviderError } from '../../src/providers/provider.js';
import { InputError } from '../../src/types/errors.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';

const READ_FILE_SCHEMA = {
  type: 'object',
  properties: { absolute_path: { type: 'string', description: 'Absolute path' } },
  required: ['absolute_path'],
};

const request: ModelRequest = {
  systemInstruction: 'You are terse.',
  contents: [{ role: 'user', parts: [{ text: 'Summarise README.md' }] }],
  tools: [{ name: 'read_file', description: 'Read a file', parameters: READ_FILE_SCHEMA }],
};

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function providerFor(steps: FakeStep[], idleTimeoutMs = 2000, maxOutputTokens?: number) {
  fake = await startFakeGemini(steps);
  return createGeminiProvider({
    model: 'gemini-test',
    env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.url },
    idleTimeoutMs,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
  });
}

const signal = () => new AbortController().signal;

describe('gemini provider: replies', () => {
  it('streams text over several chunks and returns it whole, as one part', async () => {
    const text = 'The README explains how to install and run the tool.';
    const provider = await providerFor([{ text, textChunks: 4 }]);
    const deltas: string[] = [];
    const turn = await provider.generate(request, { signal: signal(), onText: (d) => deltas.push(d) });
    expect(deltas.length).toBe(4);
    expect(deltas.join('')).toBe(text);
    expect(turn.text).toBe(text);
    expect(turn.parts).toEqual([{ text }]);
    expect(turn.functionCalls).toEqual([]);
    expect(turn.finish).toEqual({ reason: 'stop', raw: 'STOP' });
  });

  it('returns function calls with their arguments and ids (generated when the API gives none)', async () => {
    const provider = await providerFor([
      {
        text: 'Reading.',
        calls: [
          { name: 'read_file', args: { absolute_path: '/ws/README.md' } },
          { name: 'ls' }, // Gemini omits args for parameterless functions
          { name: 'glob', args: { pattern: '*.md' }, id: 'api-id-7' },
        ],
      },
    ]);
    const turn = await provider.generate(request, { signal: signal() });
    expect(turn.functionCalls).toEqual([
      { id: 'call_1_0', name: 'read_file', args: { absolute_path: '/ws/README.md' } },
      { id: 'call_1_1', name: 'ls', args: {} },
      { id: 'api-id-7', name: 'glob', args: { pattern: '*.md' } },
    ]);
    expect(turn.parts.map((p) => p.functionCall?.id ?? p.text)).toEqual(['Reading.', 'call_1_0', 'call_1_1', 'api-id-7']);
  });

  it('maps usage, counting thinking tokens as output and as reasoning', async () => {
    const provider = await providerFor([{ text: 'ok', usage: { input: 120, output: 8, cached: 20, thoughts: 5 } }]);
    const turn = await provider.generate(request, { signal: signal() });
    expect(turn.usage).toEqual({ input: 120, output: 13, total: 133, cached: 20, reasoning: 5 });
  });

  it('keeps thought parts and signatures for the history but out of the answer text', async () => {
    const provider = await providerFor([{ thought: 'Plan: read it.', thoughtSignature: 'sig-1', text: 'Done.' }]);
    const deltas: string[] = [];
    const turn = await provider.generate(request, { signal: signal(), onText: (d) => deltas.push(d) });
    expect(turn.text).toBe('Done.');
    expect(deltas.join('')).toBe('Done.');
    expect(turn.parts[0]).toEqual({ text: 'Plan: read it.', thought: true, thoughtSignature: 'sig-1' });
  });
});

describe('gemini provider: an answer the output-token limit left empty', () => {
  it("says the thinking took the whole budget; with no cap sent, the model's own limit, which no setting raises", async () => {
    const provider = await providerFor([{ thought: 'Let me think about every file in turn...', finishReason: 'MAX_TOKENS' }]);
    const err = (await provider.generate(request, { signal: signal() }).catch((e: unknown) => e)) as ProviderError;
    expect(err.message).toMatch(
      /^a limit ended the model's answer before any text or tool call \(finish reason MAX_TOKENS\), all of it spent thinking: no provider_options\.max_output_tokens was set, so the model's own limit on one answer .* no setting raises it/,
    );
    expect(err.message).not.toMatch(/raise provider_options/);
  });

  it('says the thinking took the whole budget, and to raise the cap the run sent', async () => {
    const provider = await providerFor([{ thought: 'Let me think about every file in turn...', finishReason: 'MAX_TOKENS' }], 2000, 4000);
    const err = (await provider.generate(request, { signal: signal() }).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(
      "the model's output-token limit ended its answer before any text or tool call (finish reason MAX_TOKENS), all of it spent thinking: raise provider_options.max_output_tokens",
    );
  });
});

describe('gemini provider: the request on the wire', () => {
  it('uses generateContent, not the stream, when streaming is off', async () => {
    fake = await startFakeGemini([{ calls: [{ name: 'read_file', args: { absolute_path: '/w/README.md' } }] }]);
    const provider = await createGeminiProvider({ model: 'gemini-test', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url }, stream: false });
    const turn = await provider.generate(request, { signal: signal() });
    expect([fake.requests[0]!.stream, fake.requests[0]!.url]).toEqual([false, expect.stringMatching(/:generateContent$/)]);
    expect(turn.functionCalls.map((c) => c.name)).toEqual(['read_file']);
  });

  it('with streaming off, a server that never answers is abandoned after ten idle timeouts, not waited on for ever', async () => {
    fake = await startFakeGemini([{ hang: true }]);
    const provider = await createGeminiProvider({ model: 'gemini-test', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url }, stream: false, idleTimeoutMs: 100 });
    const started = Date.now();
    const err = (await provider.generate(request, { signal: signal() }).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('stalled');
    expect(err.message).toMatch(/no answer within 1 s \(streaming is off/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('sends the system instruction, contents and tool declarations, lean, with the key in a header', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    await provider.generate(request, { signal: signal() });
    const sent = fake!.requests[0]!;
    expect(sent.url).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(sent.headers['x-goog-api-key']).toBe('test-key');
    expect(sent.body.systemInstruction.parts).toEqual([{ text: 'You are terse.' }]);
    expect(sent.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Summarise README.md' }] }]);
    expect(sent.body.tools).toEqual([
      { functionDeclarations: [{ name: 'read_file', description: 'Read a file', parametersJsonSchema: READ_FILE_SCHEMA }] },
    ]);
    // Nothing beyond what we asked for, and what stays the same every turn first, so a provider's
    // prefix cache covers it whatever happens to the history.
    expect(Object.keys(sent.body)).toEqual(['systemInstruction', 'tools', 'contents']);
    expect(sent.bytes).toBeLessThan(500);
  });

  it('sends back API call ids but not the ones it invented', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    await provider.generate(
      {
        ...request,
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          {
            role: 'model',
            parts: [
              { functionCall: { id: 'call_1_0', name: 'ls', args: {} }, thoughtSignature: 'sig' },
              { functionCall: { id: 'api-9', name: 'ls', args: { path: 'src' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'call_1_0', name: 'ls', response: { output: 'a' } } },
              { functionResponse: { id: 'api-9', name: 'ls', response: { output: 'b' } } },
            ],
          },
        ],
      },
      { signal: signal() },
    );
    const [, model, user] = fake!.requests[0]!.body.contents;
    expect(model.parts).toEqual([
      { functionCall: { name: 'ls', args: {} }, thoughtSignature: 'sig' },
      { functionCall: { id: 'api-9', name: 'ls', args: { path: 'src' } } },
    ]);
    expect(user.parts).toEqual([
      { functionResponse: { name: 'ls', response: { output: 'a' } } },
      { functionResponse: { id: 'api-9', name: 'ls', response: { output: 'b' } } },
    ]);
  });

  it('maps the tool declarations once per declarations array, and sends the same tools every turn', async () => {
    expect(geminiTools(request.tools)).toBe(geminiTools(request.tools));
    expect(geminiTools(request.tools)).toEqual(geminiTools(structuredClone(request.tools)));
    const provider = await providerFor([{ text: 'one' }, { text: 'two' }]);
    await provider.generate(request, { signal: signal() });
    await provider.generate(request, { signal: signal() });
    expect(fake!.requests[1]!.body.tools).toEqual(fake!.requests[0]!.body.tools);
    expect(fake!.requests[1]!.body.tools[0].functionDeclarations[0].parametersJsonSchema).toEqual(READ_FILE_SCHEMA);
  });

  it('omits systemInstruction and tools when there are none', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    await provider.generate({ systemInstruction: '', contents: request.contents, tools: [] }, { signal: signal() });
    expect(Object.keys(fake!.requests[0]!.body)).toEqual(['contents']);
  });

  it('sends max_output_tokens as generationConfig.maxOutputTokens', async () => {
    fake = await startFakeGemini([{ text: 'ok' }]);
    const provider = await createGeminiProvider({ model: 'm', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url }, maxOutputTokens: 512 });
    await provider.generate(request, { signal: signal() });
    expect(fake.requests[0]!.body.generationConfig).toEqual({ maxOutputTokens: 512 });
  });

  it('sends a history entry the same way every turn, over one kept-alive connection', async () => {
    const provider = await providerFor([{ text: 'one' }, { text: 'two' }]);
    const history: ModelRequest = { ...request, contents: [...request.contents] };
    const first = await provider.generate(history, { signal: signal() });
    history.contents.push({ role: 'model', parts: first.parts }, { role: 'user', parts: [{ text: 'And the licence?' }] });
    await provider.generate(history, { signal: signal() });
    const [one, two] = fake!.requests;
    expect(two!.body.contents.slice(0, 1)).toEqual(one!.body.contents);
    expect(two!.body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'one' }] },
      { role: 'user', parts: [{ text: 'And the licence?' }] },
    ]);
    expect(two!.remotePort).toBe(one!.remotePort);
  });

  it('names the model as the API does, and refuses a name that would change the URL', async () => {
    fake = await startFakeGemini([{ text: 'ok' }]);
    const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: `${fake.url}/` };
    await (await createGeminiProvider({ model: 'models/gemini-x', env })).generate(request, { signal: signal() });
    expect(fake.requests[0]!.url).toBe('/v1beta/models/gemini-x:streamGenerateContent?alt=sse');
    const err = await createGeminiProvider({ model: 'gemini?x=1', env }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'bad_request', message: expect.stringContaining("invalid Gemini model name 'gemini?x=1'") });
  });

  // Before: /v1beta/v1beta/models/…, which the API answers 404.
  it('takes a base URL written with the API version (…/v1beta, as the docs\' examples carry it) for the one without', async () => {
    fake = await startFakeGemini([{ text: 'ok' }]);
    await (await createGeminiProvider({ model: 'gemini-x', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: `${fake.url}/v1beta/` } })).generate(request, { signal: signal() });
    expect(fake.requests[0]!.url).toBe('/v1beta/models/gemini-x:streamGenerateContent?alt=sse');
  });

  it('takes the key from GOOGLE_API_KEY, and the recipe base URL over GOOGLE_GEMINI_BASE_URL', async () => {
    fake = await startFakeGemini([{ text: 'ok' }]);
    const provider = await createGeminiProvider({
      model: 'm',
      env: { GOOGLE_API_KEY: 'google-key', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1' },
      baseUrl: fake.url,
    });
    await provider.generate(request, { signal: signal() });
    expect(fake.requests[0]!.headers['x-goog-api-key']).toBe('google-key');
  });

  it.each([
    { env: { GOOGLE_GEMINI_BASE_URL: 'localhost:8080' }, names: 'GOOGLE_GEMINI_BASE_URL' },
    { env: { GOOGLE_GEMINI_BASE_URL: 'ftp://127.0.0.1/' }, names: 'GOOGLE_GEMINI_BASE_URL' },
    { env: { GOOGLE_GEMINI_BASE_URL: '127.0.0.1 8080' }, names: 'GOOGLE_GEMINI_BASE_URL' },
    { env: {}, baseUrl: 'not a url', names: 'recipe base_url' },
  ])('rejects a malformed endpoint at creation, naming where it came from ($names)', async ({ env, baseUrl, names }) => {
    const err = await createGeminiProvider({ model: 'm', env: { GEMINI_API_KEY: 'k', ...env }, baseUrl }).catch((e: unknown) => e);
    // The user's setting: bad input (exit 42), never a model call retried (a malformed URL used to fail as 'network', five times).
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ kind: 'input', exitCode: 42, message: expect.stringContaining(names) });
    expect((err as Error).message).toContain(baseUrl ?? env.GOOGLE_GEMINI_BASE_URL!);
    expect((err as Error).message).not.toContain('\n');
  });

  it('fails with an auth error and a one-line fix when no key is set', async () => {
    const err = await createGeminiProvider({ model: 'm', env: { GEMINI_API_KEY: '  ' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'auth', message: MISSING_KEY_MESSAGE });
    expect(MISSING_KEY_MESSAGE).not.toContain('\n');
  });
});

const BAD_KEY_BODY = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
    ],
  },
};

function errorInfoBody(code: number, reason: string) {
  return { error: { code, message: `rejected: ${reason}`, status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }] } };
}

describe('gemini provider: faults are classified (no retries at this layer)', () => {
  const cases: { name: string; step: FakeStep; kind: string; status?: number; retryAfterMs?: number; message?: RegExp }[] = [
    { name: '401', step: { status: 401, message: 'API key not valid' }, kind: 'auth', status: 401, message: /API key not valid.*GEMINI_API_KEY/ },
    { name: '403', step: { status: 403 }, kind: 'auth', status: 403 },
    // What Gemini really sends for a wrong key: 400, with the reason only in ErrorInfo.
    { name: '400 API_KEY_INVALID', step: { raw: JSON.stringify(BAD_KEY_BODY), status: 400, contentType: 'application/json' }, kind: 'auth', status: 400, message: /^Gemini API HTTP 400 INVALID_ARGUMENT: API key not valid\. Please pass a valid API key\. \(check GEMINI_API_KEY \/ GOOGLE_API_KEY\)$/ },
    { name: '400 API_KEY_SERVICE_BLOCKED', step: { raw: JSON.stringify(errorInfoBody(400, 'API_KEY_SERVICE_BLOCKED')), status: 400, contentType: 'application/json' }, kind: 'auth', status: 400 },
    { name: '400 with another ErrorInfo reason', step: { raw: JSON.stringify(errorInfoBody(400, 'FIELD_INVALID')), status: 400, contentType: 'application/json' }, kind: 'bad_request', status: 400 },
    { name: '400', step: { status: 400, message: 'bad schema' }, kind: 'bad_request', status: 400, message: /HTTP 400 INVALID_ARGUMENT: bad schema/ },
    { name: '404', step: { status: 404 }, kind: 'bad_request', status: 404 },
    { name: '429 with Retry-After', step: { status: 429, retryAfter: 7 }, kind: 'rate_limit', status: 429, retryAfterMs: 7000 },
    { name: '429 with RetryInfo', step: { status: 429, retryDelay: '1.5s' }, kind: 'rate_limit', retryAfterMs: 1500 },
    { name: '409 (ABORTED: a conflict, retried as openai does)', step: { status: 409 }, kind: 'server', status: 409 },
    { name: '500', step: { status: 500 }, kind: 'server', status: 500 },
    { name: '503', step: { status: 503 }, kind: 'server', status: 503 },
    { name: 'cut mid function call', step: { cut: true, partialText: 'Let me edit' }, kind: 'cut_off', message: /cut off/ },
    { name: 'cut before the first whole chunk', step: { cut: true }, kind: 'cut_off', message: /cut off after 0 chunk/ },
    { name: 'ended without finishReason', step: { cut: 'clean', partialText: 'Let me' }, kind: 'cut_off', message: /without a finishReason/ },
    { name: 'candidate with no parts', step: { empty: true }, kind: 'empty', message: /empty answer/ },
    { name: 'error event inside the stream', step: { raw: 'data: {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}\n\n' }, kind: 'server', status: 503 },
    { name: 'malformed stream', step: { raw: 'data: {"candidates": [' }, kind: 'empty' },
  ];
  it.each(cases)('$name → $kind', async ({ step, kind, status, retryAfterMs, message }) => {
    const provider = await providerFor([step]);
    const err = await provider.generate(request, { signal: signal() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind });
    if (status !== undefined) expect((err as ProviderError).status).toBe(status);
    if (retryAfterMs !== undefined) expect((err as ProviderError).retryAfterMs).toBe(retryAfterMs);
    if (message) expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('test-key');
    expect(fake!.requests).toHaveLength(1);
  });

  it('a wrong key (400 API_KEY_INVALID) ends the run with the auth exit code and the key hint', async () => {
    const provider = await providerFor([{ raw: JSON.stringify(BAD_KEY_BODY), status: 400, contentType: 'application/json' }]);
    // Imported here: the CLI pulls in the runner, which this file otherwise never needs.
    const { classifyError } = await import('../../src/cli/errors.js');
    const { ExitCode } = await import('../../src/types/outcome.js');
    const outcome = classifyError(await provider.generate(request, { signal: signal() }).catch((e: unknown) => e));
    expect(outcome.exitCode).toBe(ExitCode.auth);
    expect(outcome.error).toContain('GEMINI_API_KEY');
    expect(outcome.error).not.toContain('\n');
  });

  it('a refused connection is a network error naming the endpoint', async () => {
    const closed = await startFakeGemini([]);
    await closed.close();
    const provider = await createGeminiProvider({ model: 'm', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: closed.url } });
    const err = await provider.generate(request, { signal: signal() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network', message: `cannot reach ${closed.url}: fetch failed: ECONNREFUSED` });
  });

  it.each([
    { name: 'no answer at all', step: { hang: true } as FakeStep },
    { name: 'a stall mid-stream', step: { hang: true, partialText: 'Working' } as FakeStep },
  ])('$name is aborted after the idle timeout as stalled', async ({ step }) => {
    const provider = await providerFor([step], 200);
    const started = Date.now();
    const err = await provider.generate(request, { signal: signal() }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(err).toMatchObject({ kind: 'stalled', message: expect.stringMatching(/no data for 200 ms/) });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a slow stream that keeps sending is not stalled', async () => {
    const provider = await providerFor([{ text: 'one two three four', textChunks: 4, chunkDelayMs: 120 }], 200);
    const turn = await provider.generate(request, { signal: signal() });
    expect(turn.text).toBe('one two three four');
  });

  it("the run's abort ends a hanging request promptly with an AbortError", async () => {
    const provider = await providerFor([{ hang: true }], 10_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await provider.generate(request, { signal: controller.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(err).not.toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
