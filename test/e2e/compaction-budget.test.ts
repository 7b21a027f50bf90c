// What a compaction's summary side requests cost is the run's: every answer billed, the unusable
// ones too, counts in its usage and against its budgets before the next request is sent (a summary
// that passes max_tokens ends the run there, not one request later).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { chainFile, startWindowedModel, type TooLong, type WindowedModelOptions, type WireProtocol } from '../helpers/fake-windowed-model.js';

afterAll(removeTempDirs);

/** Every request is billed 1 input and 10 output tokens: 11 a request, the summary's too. */
const PER_REQUEST = 11;

async function run(limits: string, protocol: WireProtocol = 'openai', tooLong?: TooLong, more: Partial<WindowedModelOptions> = {}) {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  for (let k = 0; k < 20; k++) fs.writeFileSync(path.join(ws, `f${k}.txt`), chainFile(k, 20));
  const fake = await startWindowedModel({ protocol, maxBytes: 16_000, workspace: () => ws, reportedTokens: () => 1, ...(tooLong ? { tooLong } : {}), ...more });
  try {
    const recipe = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(recipe, `version: 1\nname: chain\nprompt: follow the chain from f0.txt and sum the values\nprovider: ${protocol}\nmodel: m\nworkspace: ws\ntools: [read_file]\nconfirmation: { mode: auto-approve }\nlimits: { ${limits.includes('model_retries') ? '' : 'model_retries: 1, '}${limits} }\n`);
    const out = path.join(dir, 'run');
    const env = { openai: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.url }, anthropic: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url }, gemini: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url } }[protocol];
    const r = await cli(['run', recipe, '--out', out], { env });
    return { r, run: readRun(out), requests: fake.sizes.length, summaries: fake.summaries };
  } finally {
    await fake.close();
  }
}

describe('a compaction summary that passes a budget', () => {
  it('ends the run at max_tokens before the next request is sent', { timeout: 60_000 }, async () => {
    // Where the first summary falls, unbounded: before the request of turn T.
    const free = await run('context_tokens: 4000');
    const first = free.run.events.find((e: any) => e.type === 'compaction' && e.summary === 'written');
    expect(first).toBeDefined();
    const turn: number = first!.turn;
    // T - 1 turns fit the budget; with the summary's 11 tokens it is passed.
    const bounded = await run(`context_tokens: 4000, max_tokens: ${(turn - 1) * PER_REQUEST + 5}`);
    expect(bounded.r.code, bounded.r.stderr).toBe(55);
    expect(bounded.run.report.status).toBe('limit');
    expect(bounded.run.report.error).toMatch(/max_tokens/);
    expect(bounded.summaries).toBe(1);
    // The turns before it and the summary: the request of turn T would be billed past the limit.
    expect(bounded.requests).toBe(turn);
    expect(bounded.run.report.usage.total).toBe(turn * PER_REQUEST);
    expect(bounded.run.events.filter((e: any) => e.type === 'model_request')).toHaveLength(turn - 1);
  });

  // Claude ends an answer the full window cut off before a word with stop_reason
  // model_context_window_exceeded, and bills its input: compaction answers it like a refusal.
  it('ends the run at max_tokens when the answer the full window ended passed it: no summary, no retry', { timeout: 60_000 }, async () => {
    const windowFull: TooLong = { windowFull: true };
    const free = await run('max_turns: 100', 'anthropic', windowFull);
    expect(free.r.code, free.r.stderr).toBe(0);
    const first = free.run.events.find((e: any) => e.type === 'compaction');
    expect(first).toMatchObject({ reason: 'context_error' });
    const turn: number = first!.turn;
    const bounded = await run(`max_tokens: ${(turn - 1) * PER_REQUEST + 5}`, 'anthropic', windowFull);
    expect(bounded.r.code, bounded.r.stderr).toBe(55);
    expect(bounded.run.report.error).toMatch(/max_tokens/);
    // The turns before it and the billed answer: neither a summary nor the retry was asked for.
    expect(bounded.summaries).toBe(0);
    expect(bounded.requests).toBe(turn);
    expect(bounded.run.report.usage.total).toBe(turn * PER_REQUEST);
  });
});

describe.each<WireProtocol>(['openai', 'anthropic', 'gemini'])('%s: a summary request answered with no summary', (protocol) => {
  it('is billed all the same: both empty answers (the one asked again too) count in the compaction event and the run\'s usage', { timeout: 60_000 }, async () => {
    const { r, run: done, requests } = await run('context_tokens: 4000, model_retries: 2', protocol, undefined, { summaryFaults: [{ text: '' }, { text: '' }] });
    expect(r.code, r.stderr).toBe(0);
    const [first] = done.events.filter((e: any) => e.type === 'compaction' && e.summary !== 'none');
    expect(first).toMatchObject({ summary: 'failed', usage: { total: 2 * PER_REQUEST } });
    // Every request was answered and billed: the report counts each one.
    expect(done.report.usage.total).toBe(requests * PER_REQUEST);
  });
});
