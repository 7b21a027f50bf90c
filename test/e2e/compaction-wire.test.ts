// Runs that outlive the context window, through the built CLI against a model on 127.0.0.1 that
// speaks each provider's wire protocol (test/helpers/fake-windowed-model.ts): it refuses a request
// past N bytes as that provider says "too long" (an HTTP 400, or an error event once the stream has
// started), and refuses, as each provider does, a tool result without its call or a call without
// its result. The model follows a chain of files and answers the sum of the values it read, so the
// answer is right only when what compaction removed reached it through the summaries.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { chainFile, chainSum, startWindowedModel, type TooLong, type WindowedModelOptions, type WireProtocol } from '../helpers/fake-windowed-model.js';

afterAll(removeTempDirs);

const MAX_BYTES = 16_000;

const ENV: Record<WireProtocol, (url: string) => Record<string, string>> = {
  openai: (url) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }),
  anthropic: (url) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }),
  gemini: (url) => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url }),
};

/** Each provider's refusal for length as an error event inside a stream that has started. */
const IN_STREAM: Record<WireProtocol, TooLong> = {
  openai: { streamError: (tokens, window) => ({ message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`, type: 'invalid_request_error', code: 'context_length_exceeded' }) },
  anthropic: { streamError: (tokens, window) => ({ type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${window} maximum` }) },
  gemini: { streamError: (tokens, window) => ({ code: 400, message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`, status: 'INVALID_ARGUMENT' }) },
};

interface Chain {
  files?: number;
  /** Filler lines of file k (default 40: about 2.7 KB a file). */
  padOf?: (k: number) => number;
  limits?: string;
  /** Then `run --continue` the run with this prompt (its outputs: `continued`). */
  continueWith?: string;
  /** More flags for the continued run. */
  continueFlags?: string[];
  /** Then `run --continue` the continued run with this prompt (its outputs: `again`). */
  thenContinueWith?: string;
  /** The recipe's tools (default: read_file). */
  tools?: string;
}

async function runChain(protocol: WireProtocol, chain: Chain, model: Omit<Partial<WindowedModelOptions>, 'protocol' | 'workspace'> = {}) {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  const count = chain.files ?? 20;
  for (let k = 0; k < count; k++) {
    fs.writeFileSync(path.join(ws, `f${k}.txt`), chainFile(k, count, chain.padOf?.(k) ?? 40));
    fs.writeFileSync(path.join(ws, `pad-f${k}.txt`), `pad ${k}\n${'p'.repeat(500)}`);
  }
  const fake = await startWindowedModel({ protocol, maxBytes: MAX_BYTES, workspace: () => ws, ...model });
  try {
    const recipe = path.join(dir, 'recipe.yaml');
    const limits = ['model_retries: 1', ...(chain.limits ? [chain.limits] : [])].join(', ');
    fs.writeFileSync(recipe, `version: 1\nname: chain\nprompt: follow the chain from f0.txt and sum the values\nprovider: ${protocol}\nmodel: m\nworkspace: ws\ntools: [${chain.tools ?? 'read_file'}]\nconfirmation: { mode: auto-approve }\nlimits: { ${limits} }\n`);
    const out = path.join(dir, 'run');
    const r = await cli(['run', recipe, '--out', out], { env: ENV[protocol](fake.url) });
    let continued: { r: Awaited<ReturnType<typeof cli>>; run: ReturnType<typeof readRun> } | null = null;
    if (chain.continueWith) {
      const next = path.join(dir, 'run2');
      const r2 = await cli(['run', '--continue', out, '-p', chain.continueWith, '--out', next, ...(chain.continueFlags ?? [])], { env: ENV[protocol](fake.url), cwd: dir });
      continued = { r: r2, run: readRun(next) };
    }
    let again: typeof continued = null;
    if (chain.thenContinueWith) {
      const third = path.join(dir, 'run3');
      const r3 = await cli(['run', '--continue', path.join(dir, 'run2'), '-p', chain.thenContinueWith, '--out', third], { env: ENV[protocol](fake.url), cwd: dir });
      again = { r: r3, run: readRun(third) };
    }
    return { r, run: readRun(out), fake, expected: `SUM=${chainSum(count)}`, continued, again };
  } finally {
    await fake.close();
  }
}

const compactionsOf = (events: Array<Record<string, any>>) => events.filter((e) => e.type === 'compaction');

describe.each<WireProtocol>(['openai', 'anthropic', 'gemini'])('%s: a run longer than the window', (protocol) => {
  it.each<[string, TooLong | undefined]>([
    ['refused with an HTTP 400', undefined],
    ['refused by an error event inside the stream', IN_STREAM[protocol]],
  ])('%s: survives, every call with its result, and answers right', { timeout: 60_000 }, async (_how, tooLong) => {
    const { r, run, fake, expected } = await runChain(protocol, {}, { tooLong });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(fake.refused).toBe(1);
    expect(fake.wireErrors).toEqual([]);
    expect(run.report.compactions.after_context_error).toBe(1);
    expect(run.report.compactions.total).toBe(compactionsOf(run.events).length);
  });

  it('with limits.context_tokens far above the real window: the window the refusal names stands for the rest of the run, with a warning', { timeout: 60_000 }, async () => {
    const { r, run, fake, expected } = await runChain(protocol, { limits: 'context_tokens: 64000' });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    // One refusal: every request after it was compacted under 70% of the window the server named.
    expect(fake.refused).toBe(1);
    expect(fake.wireErrors).toEqual([]);
    const [first, ...later] = compactionsOf(run.events);
    expect(first).toMatchObject({ reason: 'context_error', window: MAX_BYTES / 4 });
    expect(later.length).toBeGreaterThan(1);
    for (const event of later) expect(event).toMatchObject({ reason: 'threshold', window: MAX_BYTES / 4 });
    const warnings = run.report.warnings.filter((w: string) => /context window/.test(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/its context window is 4000 tokens, smaller than limits\.context_tokens \(64000 tokens\).*compact_at \(0\.7\) of 4000 tokens/);
  });

  it('continued with limits.context_tokens a third above the real window: the summary request of the earlier run\'s turns is what the server refuses, and it is asked again within the window it names', { timeout: 60_000 }, async () => {
    // 70% of 5,400 tokens fits the 4,000-token server; 80% of it, the summary request's share, does
    // not: the continued run's first request carries the earlier run's 20 reads, all to summarise.
    const { r, run, fake, expected, continued } = await runChain(protocol, { limits: 'context_tokens: 5400', continueWith: 'follow the chain from f0.txt again' });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(continued!.r.code, continued!.r.stderr).toBe(0);
    expect(continued!.run.report.final_answer).toBe(expected);
    expect(fake.refused).toBe(1);
    const [first, ...later] = compactionsOf(continued!.run.events);
    expect(first).toMatchObject({ reason: 'threshold', summary: 'written', window: MAX_BYTES / 4, error: expect.stringMatching(/(maximum context length is 4000|> 4000 maximum|tokens allowed \(4000\)).*\(asked again within \d+ tokens\)$/) });
    for (const event of later) expect(event).toMatchObject({ window: MAX_BYTES / 4, summary: 'written' });
    expect(continued!.run.report.warnings).toContainEqual(expect.stringMatching(/its context window is 4000 tokens, smaller than limits\.context_tokens \(5400 tokens\)/));
  });

  it('a window a refused summary request taught (a compaction the threshold began) holds for the run that continues it: not refused again, no second warning', { timeout: 90_000 }, async () => {
    // As above: the continued run's summary request is refused and teaches the 4,000-token window.
    // Continued once more, the window was back to limits.context_tokens' 5,400: its summary request
    // was refused again, with the same warning.
    const { fake, expected, continued, again } = await runChain(protocol, { limits: 'context_tokens: 5400', continueWith: 'follow the chain from f0.txt again', thenContinueWith: 'follow the chain from f0.txt once more' });
    expect(continued!.r.code, continued!.r.stderr).toBe(0);
    expect(compactionsOf(continued!.run.events)[0]).toMatchObject({ reason: 'threshold', window: MAX_BYTES / 4, window_learned: true });
    expect(again!.r.code, again!.r.stderr).toBe(0);
    expect(again!.run.report.final_answer).toBe(expected);
    expect(fake.refused).toBe(1);
    const compactions = compactionsOf(again!.run.events);
    expect(compactions.length).toBeGreaterThan(0);
    for (const event of compactions) expect(event).toMatchObject({ reason: 'threshold', window: MAX_BYTES / 4, error: null });
    expect(again!.run.report.warnings.filter((w: string) => /context window/.test(w))).toEqual([]);
  });

  it('continued after a refusal taught the window: the continued run starts from that window, and is not refused again', { timeout: 60_000 }, async () => {
    const { r, fake, expected, continued } = await runChain(protocol, { limits: 'context_tokens: 64000', continueWith: 'follow the chain from f0.txt again' });
    expect(r.code, r.stderr).toBe(0);
    expect(continued!.r.code, continued!.r.stderr).toBe(0);
    expect(continued!.run.report.final_answer).toBe(expected);
    // The first run's refusal only: the continued run's first request, the earlier run's 20 reads
    // and more, was compacted under the learned window before it was sent.
    expect(fake.refused).toBe(1);
    const compactions = compactionsOf(continued!.run.events);
    expect(compactions.length).toBeGreaterThan(0);
    for (const event of compactions) expect(event).toMatchObject({ reason: 'threshold', window: MAX_BYTES / 4 });
    expect(continued!.run.report.compactions.after_context_error).toBe(0);
  });

  it('but continued on another model, the window one model taught is not another\'s: that run learns its own', { timeout: 60_000 }, async () => {
    const { continued, fake } = await runChain(protocol, { limits: 'context_tokens: 64000', continueWith: 'follow the chain from f0.txt again', continueFlags: ['--model', 'm2'] });
    expect(continued!.r.code, continued!.r.stderr).toBe(0);
    expect(fake.refused).toBe(2);
    expect(compactionsOf(continued!.run.events)[0]).toMatchObject({ reason: 'context_error' });
  });

  // Some OpenAI-compatible servers report prompt_tokens 0 or 1 whatever was sent.
  it.each<[string, string | undefined, number]>([
    ['limits.context_tokens', `context_tokens: ${MAX_BYTES / 4}`, 0],
    ['the window a refusal names', undefined, 1],
  ])('a server that reports 1 input token for every request (%s): compaction measures bytes, and no request past the window is sent again', { timeout: 60_000 }, async (_how, limits, refusals) => {
    const { r, run, fake, expected } = await runChain(protocol, { limits }, { reportedTokens: () => 1 });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.refused).toBe(refusals);
    expect(compactionsOf(run.events).filter((e) => e.reason === 'threshold').length).toBeGreaterThan(1);
    expect(run.report.final_answer).toBe(expected);
    expect(run.report.warnings).toContainEqual(expect.stringMatching(/^the provider reported 1 input tokens for a request of \d+ KB, too few to be its size: .* measures the request's bytes instead/));
  });

  it('a window one sub-agent learned from a refusal holds for the next, as for the rest of the run: one refusal, one warning', { timeout: 60_000 }, async () => {
    // The agent hands the chain to a sub-agent twice, one after the other; each reads all 20 files.
    const { r, run, fake, expected } = await runChain(protocol, { tools: 'read_file, task', limits: 'context_tokens: 64000' }, { viaTask: 2 });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(fake.wireErrors).toEqual([]);
    const compactions = compactionsOf(run.events);
    expect(new Set(compactions.map((e) => e.parent_call_id)).size).toBe(2);
    // The second sub-agent was compacted under the window the first one's refusal named, before any request passed it.
    expect(fake.refused).toBe(1);
    expect(run.report.compactions.after_context_error).toBe(1);
    for (const event of compactions) expect(event.window).toBe(MAX_BYTES / 4);
    expect(run.report.warnings.filter((w: string) => /context window is 4000 tokens/.test(w))).toHaveLength(1);
  });

  it('a window the agent learned from a refusal holds for the sub-agent it then starts: one refusal, one warning', { timeout: 60_000 }, async () => {
    // The agent reads all 20 files itself (refused once, compacted), then hands the chain to a sub-agent that reads them again.
    const { r, run, fake, expected } = await runChain(protocol, { tools: 'read_file, task', limits: 'context_tokens: 64000' }, { viaTask: 1, readsFirst: true });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(fake.wireErrors).toEqual([]);
    const compactions = compactionsOf(run.events);
    expect(compactions.some((e) => e.parent_call_id === undefined)).toBe(true);
    expect(compactions.some((e) => e.parent_call_id !== undefined)).toBe(true);
    // The sub-agent was compacted under the window the agent's refusal named, before any request passed it.
    expect(fake.refused).toBe(1);
    expect(run.report.compactions.after_context_error).toBe(1);
    for (const event of compactions) expect(event.window).toBe(MAX_BYTES / 4);
    expect(run.report.warnings.filter((w: string) => /context window is 4000 tokens/.test(w))).toHaveLength(1);
  });

  it('a compaction that takes out tool outputs writes a summary of them: a run that ends right after one still answers right', { timeout: 60_000 }, async () => {
    // With a 4,800-token window the run's last compaction (before f18.txt) took out the outputs of
    // f16 and f17 and wrote no summary: the model answered without their values.
    const { r, run, fake, expected } = await runChain(protocol, { limits: 'context_tokens: 4800' });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.refused).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    for (const event of compactionsOf(run.events)) if (event.dropped.tool_outputs > 0) expect(event.summary).toBe('written');
  });

  it('with parallel calls and limits.context_tokens: no request reaches the window, and the answer is right', { timeout: 60_000 }, async () => {
    const { r, run, fake, expected } = await runChain(protocol, { limits: `context_tokens: ${MAX_BYTES / 4}` }, { parallel: true });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(fake.refused).toBe(0);
    expect(fake.wireErrors).toEqual([]);
    expect(Math.max(...fake.sizes)).toBeLessThanOrEqual(MAX_BYTES * 0.7);
    expect(run.report.compactions.summarized).toBeGreaterThan(0);
  });
});

describe('edges', () => {
  it.each<[string, string | undefined]>([
    ['a refusal', undefined],
    ['limits.context_tokens', `context_tokens: ${MAX_BYTES / 4}`],
  ])('one output bigger than the window (%s): the last turn keeps its head, the model is told, the run goes on', { timeout: 60_000 }, async (_how, limits) => {
    // f3.txt is about 28 KB: alone, 7,000 tokens of a 4,000-token window.
    const { r, run, fake } = await runChain('openai', { files: 6, padOf: (k) => (k === 3 ? 400 : 40), limits }, { keepBodies: true });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.status).toBe('success');
    expect(fake.wireErrors).toEqual([]);
    const cut = compactionsOf(run.events).find((e) => e.dropped.cut_outputs > 0);
    expect(cut).toBeDefined();
    const told = fake.bodies.find((body) => body.includes('cut to fit the context window'));
    expect(told).toBeDefined();
    // The head of the big read is what the model got of it, with the next file to read.
    expect(told).toContain('VALUE-3=24');
    expect(told).toContain('NEXT: f4.txt');
    // ...and what it read there, and in the reads after it, reached the answer once those outputs left the history.
    expect(run.report.final_answer).toBe(`SUM=${chainSum(6)}`);
  });

  it('a summary the provider blocks part way is no summary: the compaction says so, and its text is not kept', { timeout: 60_000 }, async () => {
    const blocked = 'SUMMARY: the values of f0.txt to f2.txt add up to RUNNING=999';
    const { r, run, fake } = await runChain('gemini', { limits: `context_tokens: ${MAX_BYTES / 4}` }, { summaryFaults: [{ text: blocked, stopReason: 'SAFETY' }], keepBodies: true });
    expect(r.code, r.stderr).toBe(0);
    const [first] = compactionsOf(run.events).filter((e) => e.summary !== 'none');
    expect(first).toMatchObject({ summary: 'failed' });
    expect(first!.error).toMatch(/the summary was blocked by the provider's safety filter \(finish reason SAFETY\)/);
    expect(fake.bodies.some((body) => body.includes(blocked))).toBe(false);
  });
});

describe('a self-hosted server whose window fills mid-answer (finish_reason "length", no output cap set)', () => {
  it('compacts and asks once more, learning the window from its counts: no cut-off answer reaches the conversation, and the answer is right', { timeout: 60_000 }, async () => {
    // vLLM with no max_tokens asked lets an answer run to max_model_len: past 3,200 tokens of a
    // 4,000-token window, what the model needs to write no longer fits, and the answer is cut.
    const { r, run, fake, expected } = await runChain('openai', { padOf: () => 20 }, { answerRoom: 800 });
    expect(r.code, r.stderr).toBe(0);
    expect(run.report.final_answer).toBe(expected);
    expect(fake.lengthStops).toBeGreaterThan(0);
    expect(fake.refused).toBe(0);
    expect(fake.wireErrors).toEqual([]);
    // The cut-off answers were refusals for length, not turns: no tool call went out without the end of its arguments.
    expect(run.events.filter((e) => e.type === 'model_response' && e.finish_reason === 'max_tokens')).toEqual([]);
    const [first] = compactionsOf(run.events);
    expect(first).toMatchObject({ reason: 'context_error', window: MAX_BYTES / 4, error: expect.stringMatching(/finish_reason "length".*context window of 4000 tokens/) });
    expect(JSON.stringify(run.report)).not.toMatch(/raise provider_options\.max_output_tokens/);
  });

  it('a prompt that alone leaves no room: the run fails for length, saying both what the window and what an output cap would change', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ws'));
    const fake = await startWindowedModel({ protocol: 'openai', maxBytes: MAX_BYTES, workspace: () => path.join(dir, 'ws'), answerRoom: 800 });
    try {
      // About 3,500 tokens of prompt in a 4,000-token window: an 800-token answer cannot fit.
      const prompt = `follow the chain from f0.txt and sum the values. ${'Background: '.repeat(1150)}`;
      fs.writeFileSync(path.join(dir, 'recipe.yaml'), `version: 1\nname: chain\nprompt: ${JSON.stringify(prompt)}\nprovider: openai\nmodel: m\nworkspace: ws\ntools: [read_file]\nconfirmation: { mode: auto-approve }\n`);
      const r = await cli(['run', path.join(dir, 'recipe.yaml'), '--out', path.join(dir, 'run')], { env: ENV.openai(fake.url) });
      const run = readRun(path.join(dir, 'run'));
      expect(r.code).not.toBe(0);
      expect(fake.lengthStops).toBe(1);
      expect(run.report.error_kind).toBe('context_length');
      expect(run.report.error).toMatch(/finish_reason "length".*context window of 4000 tokens.*no provider_options\.max_output_tokens was set; if the server caps answers itself, set provider_options\.max_output_tokens within that cap, else set limits\.context_tokens.*nothing older could be compacted: .* leaving too little of the context window \(4000 tokens\) for an answer/);
    } finally {
      await fake.close();
    }
  });
});
