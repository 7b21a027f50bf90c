// What the providers contribute to runs longer than the context window: refusals for length, as
// each provider words them, become `context_length` (the loop compacts and retries once) while
// look-alikes (rate limits counted in tokens, other bad requests) do not (Gemini through its real
// SDK against a fake endpoint); the window from the price table; summary turns in a model script.
import { afterEach, describe, expect, it } from 'vitest';
import { contextLimitFrom, isContextLengthError } from '../../src/providers/context-errors.js';
import { httpFailure, streamFailure } from '../../src/providers/api-errors.js';
import { httpError } from '../../src/providers/gemini-mapping.js';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import { ProviderError, type ModelRequest } from '../../src/providers/provider.js';
import { lookupModel } from '../../src/providers/price-table.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

const ctx = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', keyVariable: 'OPENAI_API_KEY' };
const openai = (status: number, error: object) => httpFailure(status, JSON.stringify({ error }), new Headers(), ctx);

describe('OpenAI-compatible servers and Anthropic', () => {
  it.each([
    ['OpenAI', 400, { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' }],
    ['OpenAI, newer models', 400, { message: 'Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 477469 tokens. Please reduce the length of the messages.', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' }],
    ['Groq (code only)', 400, { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error', code: 'context_length_exceeded' }],
    ['vLLM', 400, { message: 'The decoder prompt (length 9000) is longer than the maximum model length of 8192.', type: 'BadRequestError', code: 400 }],
    ['vLLM, older', 400, { message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).", type: 'BadRequestError' }],
    ['llama.cpp', 400, { message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', code: 400 }],
    ['Ollama', 400, { message: 'prompt too long; exceeded max context length by 120 tokens' }],
    ['Anthropic', 400, { type: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' }],
    ['a body too large', 413, { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' }],
    ['SGLang', 400, { message: "The input (61709 tokens) is longer than the model's context length (40960 tokens).", type: 'BadRequestError', code: 400 }],
    ['Text Generation Inference', 422, { message: 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8192. Given: 6204 `inputs` tokens and 2047 `max_new_tokens`', error_type: 'validation' }],
    ['Text Generation Inference, inputs alone', 422, { message: 'Input validation error: `inputs` must have less than 1024 tokens. Given: 1168', error_type: 'validation' }],
    ['Moonshot', 400, { message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)', type: 'invalid_request_error' }],
    ['DashScope', 400, { code: 'invalid_parameter_error', message: '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]', type: 'invalid_request_error' }],
    ['Fireworks', 400, { message: 'The prompt is too long: 300000, model maximum context length: 131072', type: 'invalid_request_error' }],
    ['Cohere', 400, { message: 'too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000' }],
    ['Anthropic, with max_tokens', 400, { type: 'invalid_request_error', message: 'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again' }],
    ['Bedrock', 400, { message: 'Input is too long for requested model.' }],
    ['a plain wording', 400, { message: 'Input is too large for the model: 9000 input tokens exceed the limit of 8192.' }],
    ['LiteLLM', 400, { message: 'litellm.ContextWindowExceededError: litellm.BadRequestError: the conversation is too big', type: null, code: '400' }],
    ['Zhipu (GLM)', 400, { code: '1261', message: 'Prompt exceeds max length' }],
    ['OpenRouter (Poolside), Together', 400, { code: 400, message: 'Input length 131393 exceeds the maximum allowed input length of 131040 tokens.' }],
    ['Zhipu (z.ai), code 1210 (opencode#27629)', 400, { code: '1210', message: 'The number of tokens in request more than max tokens allowed (131072).' }],
    ['llama.cpp, context exceeded as a 500', 500, { code: 500, message: 'Context size has been exceeded.', type: 'server_error' }],
  ])('%s', (_name, status, error) => {
    const failure = openai(status, error);
    expect(failure.kind).toBe('context_length');
    expect(failure.exitCode).toBe(1);
  });

  it('LM Studio, whose error is a bare string', () => {
    for (const text of [
      'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.',
      'Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough.',
    ]) {
      const failure = httpFailure(400, JSON.stringify({ error: text }), new Headers(), ctx);
      expect(failure.kind).toBe('context_length');
      expect(contextLimitFrom(failure.message)).toBe(text.includes('n_ctx') ? 4096 : 7866);
    }
  });

  it('xAI, whose error is a bare string beside a code, naming the window', () => {
    const body = { code: 'Client specified an invalid argument', error: "This model's maximum prompt length is 131072 but the request contains 136973 tokens." };
    const failure = httpFailure(400, JSON.stringify(body), new Headers(), ctx);
    expect(failure.kind).toBe('context_length');
    expect(contextLimitFrom(failure.message)).toBe(131072);
  });

  it('an in-stream error says it too', () => {
    expect(streamFailure({ message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' }).kind).toBe('context_length');
  });

  it.each([
    ['a rate limit in tokens', 429, { message: 'Rate limit reached: too many tokens per minute', code: 'rate_limit_exceeded' }],
    ['a token rate limit worded as a 400', 400, { message: 'Request too large: too many tokens per min (TPM): limit 30000' }],
    ['another bad request', 400, { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." }],
    ['a server error', 500, { message: 'the context length cache failed' }],
    ['an output limit set too high', 400, { message: 'max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.', code: 'invalid_value' }],
    ['a token rate limit with a 413', 429, { message: 'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 45000.', code: 'rate_limit_exceeded' }],
  ])('not %s', (_name, status, error) => {
    expect(openai(status, error).kind).not.toBe('context_length');
  });

  it('reads the window a refusal names', () => {
    expect(contextLimitFrom("This model's maximum context length is 8192 tokens. However...")).toBe(8192);
    expect(contextLimitFrom('prompt is too long: 215000 tokens > 200000 maximum')).toBe(200000);
    expect(contextLimitFrom('The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).')).toBe(1048576);
    expect(contextLimitFrom('longer than the maximum model length of 4096')).toBe(4096);
    expect(contextLimitFrom("The input (61709 tokens) is longer than the model's context length (40960 tokens).")).toBe(40960);
    expect(contextLimitFrom('`inputs` tokens + `max_new_tokens` must be <= 8192. Given: 6204 `inputs` tokens and 2047 `max_new_tokens`')).toBe(8192);
    expect(contextLimitFrom('`inputs` must have less than 1024 tokens. Given: 1168')).toBe(1024);
    expect(contextLimitFrom('Your request exceeded model token limit: 262144 (requested: 269030)')).toBe(262144);
    expect(contextLimitFrom('Range of input length should be [1, 30720]')).toBe(30720);
    expect(contextLimitFrom('The prompt is too long: 300000, model maximum context length: 131072')).toBe(131072);
    expect(contextLimitFrom('total number of tokens in the prompt cannot exceed 4081 - received 5000')).toBe(4081);
    expect(contextLimitFrom('The number of tokens in request more than max tokens allowed (131072).')).toBe(131072);
    expect(contextLimitFrom('Input length 131393 exceeds the maximum allowed input length of 131040 tokens.')).toBe(131040);
    expect(contextLimitFrom('The input exceeds the maximum allowed input length of 262,144 tokens.')).toBe(262144);
    expect(contextLimitFrom('exceed context limit: 197000 + 8192 > 200000, decrease input length')).toBe(200000);
    expect(contextLimitFrom('Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 477469 tokens. Please reduce the length of the messages.')).toBe(272000);
    expect(contextLimitFrom('the request exceeds the available context size')).toBeNull();
  });

  // Only the last wording read "262,144": a server writing "maximum context length is 128,000
  // tokens" taught the run a window of 128 tokens, and compaction then aimed under a fraction of it.
  it.each([
    ['OpenAI', "This model's maximum context length is 128,000 tokens. However, your messages resulted in 130,001 tokens.", 128000],
    ['OpenAI, newer models', 'Input tokens exceed the configured limit of 272,000 tokens. Your messages resulted in 477,469 tokens.', 272000],
    ['DeepSeek', "This model's maximum context length is 65,536 tokens. However, you requested 70,000 tokens (70,000 in the messages, 0 in the completion).", 65536],
    ['vLLM', 'The decoder prompt (length 9,000) is longer than the maximum model length of 8,192.', 8192],
    ['vLLM, older', "'max_tokens' is too large: 4,096. This model's maximum context length is 4,096 tokens and your request has 10 input tokens (4,096 > 4,096 - 10).", 4096],
    ['vLLM, inputs alone', 'Input prompt (5 000 tokens) is too long and exceeds limit of 4 096', 4096],
    ['llama.cpp', 'the request exceeds the available context size, try increasing it (n_prompt_tokens: 5000, n_ctx: 4096)', 4096],
    ['Anthropic', 'prompt is too long: 215,000 tokens > 200,000 maximum', 200000],
    ['Anthropic, with max_tokens', 'input length and `max_tokens` exceed context limit: 197,000 + 8,192 > 200,000, decrease input length or `max_tokens` and try again', 200000],
    ['Gemini', 'The input token count (1,200,000) exceeds the maximum number of tokens allowed (1,048,576).', 1048576],
    ['Mistral', 'Prompt contains 40\u202f000 tokens and 0 draft tokens, too large for model with 32\u202f768 maximum context length', 32768],
    ['Together', 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32,769. Given: 40,000 `inputs` tokens and 2,048 `max_new_tokens`', 32769],
    ['Groq', "This model's maximum context length is 131 072 tokens. Please reduce the length of the messages or completion.", 131072],
    ['a window beside another count', 'maximum context length is 4096, 5000 requested', 4096],
    ['a window before a list of counts', 'context window of 8192 1 2 3', 8192],
  ])('reads a window written with thousands separators: %s', (_name, message, window) => {
    expect(contextLimitFrom(message)).toBe(window);
  });

  it('counts a refusal whose count has a thousands separator as one for length', () => {
    expect(openai(422, { message: 'Input validation error: `inputs` must have less than 1,024 tokens. Given: 1,168', error_type: 'validation' }).kind).toBe('context_length');
    expect(contextLimitFrom('`inputs` must have less than 1,024 tokens. Given: 1,168')).toBe(1024);
    expect(isContextLengthError({ status: null, code: null, message: 'prompt is too long: 5 tokens > 4 maximum' })).toBe(true);
  });
});

describe('Gemini', () => {
  let fake: FakeGemini | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('400 INVALID_ARGUMENT "exceeds the maximum number of tokens" through the SDK', async () => {
    const message = 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).';
    fake = await startFakeGemini([{ status: 400, message }]);
    const provider = await createGeminiProvider({ model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url } });
    const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] };
    const failure = await provider.generate(request, { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    // The message says what the endpoint answered, should this ever be classified otherwise.
    expect((failure as ProviderError).kind, `${(failure as ProviderError).message}; requests: ${fake.requests.length}`).toBe('context_length');
    expect(contextLimitFrom((failure as ProviderError).message)).toBe(1048576);
  });

  it('a request payload over its size limit (inline data) is too long too', () => {
    const body = JSON.stringify({ error: { code: 400, message: 'Request payload size exceeds the limit: 20971520 bytes.', status: 'INVALID_ARGUMENT' } });
    expect(httpError(400, body, null).kind).toBe('context_length');
    expect(contextLimitFrom(httpError(400, body, null).message)).toBeNull();
  });

  it('other INVALID_ARGUMENT errors stay bad requests', () => {
    const body = JSON.stringify({ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } });
    expect(httpError(400, body, null).kind).toBe('bad_request');
  });
});

describe('the context window from the price table', () => {
  it('knows the windows of well-known models, with or without the provider', async () => {
    expect((await lookupModel({ model: 'gemini-2.5-flash', providerId: 'google', baseURL: null }))?.contextWindow).toBe(1_048_576);
    expect((await lookupModel({ model: 'claude-sonnet-4-5', providerId: null, baseURL: null }))?.contextWindow).toBe(200_000);
    expect(await lookupModel({ model: 'no-such-model-anywhere', providerId: null, baseURL: null })).toBeNull();
  });
});

describe('summary turns in a model script', () => {
  const summaryTurn = { text: 'So far: read a.', purpose: 'compaction_summary' as const };
  const request = (purpose?: 'compaction_summary'): ModelRequest => ({ systemInstruction: '', contents: [], tools: [], ...(purpose ? { purpose } : {}) });
  const signal = new AbortController().signal;

  it('answer only a summary request; an agent turn skips them', async () => {
    const { ScriptedProvider } = await import('../../src/providers/scripted.js');
    const provider = new ScriptedProvider([{ text: 'one' }, summaryTurn, { text: 'two' }, summaryTurn, { text: 'three' }], '/ws', 'script.yaml');
    expect((await provider.generate(request(), { signal })).text).toBe('one');
    expect((await provider.generate(request('compaction_summary'), { signal })).text).toBe('So far: read a.');
    // The recording compacted here; this replay did not: the summary is skipped, not taken as an answer.
    expect((await provider.generate(request(), { signal })).text).toBe('two');
    expect((await provider.generate(request(), { signal })).text).toBe('three');
  });

  it('a summary request where the recording had none fails (the compaction goes on without a summary)', async () => {
    const { ScriptedProvider } = await import('../../src/providers/scripted.js');
    const provider = new ScriptedProvider([{ text: 'one' }], '/ws', 'script.yaml');
    await expect(provider.generate(request('compaction_summary'), { signal })).rejects.toThrow(/script.yaml has no compaction_summary turn at turn 1/);
    expect((await provider.generate(request(), { signal })).text).toBe('one');
  });

  it('a script checks the purpose it names', async () => {
    const { parseScript } = await import('../../src/providers/scripted.js');
    expect(parseScript('{"text":"s","purpose":"compaction_summary"}\n', 'r.jsonl')).toEqual([{ text: 's', purpose: 'compaction_summary' }]);
    expect(() => parseScript('{"text":"s","purpose":"other"}\n', 'r.jsonl')).toThrow(/purpose must be compaction_summary/);
  });
});
