// An answer the runner cannot use (a thinking model that spent its output cap thinking, an empty
// answer, a refusal) is still billed by the server. Whether it is asked again or ends the run, its
// tokens and cost are the run's: in report.json's usage, the transcript (a side_request event of
// purpose unusable_answer) and the budgets. Before, only answers that became turns were counted,
// so the report said less than the provider's bill and max_cost_usd let such answers run on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

let openai: FakeOpenAI | undefined;
let gemini: FakeGemini | undefined;
let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await openai?.close();
  await gemini?.close();
  await anthropic?.close();
  openai = gemini = anthropic = undefined;
});

async function run(body: string, env: Record<string, string>) {
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: auto-approve }\nprompt: Where is addNumbers?\nworkspace: ${ws}\n${body}`);
  const out = path.join(dir, 'run');
  const r = await cliInProcess(['run', file, '--out', out], { env });
  return { r, ...readRun(out) };
}

const unusable = (events: any[]) => events.filter((e) => e.type === 'side_request' && e.purpose === 'unusable_answer');

describe('tokens of an answer the run could not use', () => {
  it('OpenAI-compatible: a thinking model that used its whole output cap thinking, asked again, is in the usage and cost', async () => {
    openai = await startFakeOpenAI([
      // Thinking only, cut at max_tokens: billed 1000 in, 4000 out.
      { reasoning: 'Let me think about where addNumbers could be...', finishReason: 'length', usage: { prompt_tokens: 1000, completion_tokens: 4000, total_tokens: 5000 } },
      { text: 'It is in src/math.js.', usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 } },
    ]);
    const { r, report, events } = await run(
      `provider: openai\nmodel: m\nbase_url: ${openai.url}\npricing: { input_per_mtok: 1, output_per_mtok: 10 }\n`,
      { OPENAI_API_KEY: 'k' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    expect(report.usage).toMatchObject({ input: 2000, output: 4020, total: 6020 });
    expect(report.usage.cost_usd).toBeCloseTo((2000 * 1 + 4020 * 10) / 1e6, 6);
    const spent = unusable(events);
    expect(spent).toHaveLength(1);
    expect(spent[0].usage).toMatchObject({ input: 1000, output: 4000, cost_usd: expect.closeTo(0.041, 6) });
    expect(spent[0].reason).toMatch(/thinking|output/i);
  });

  it('OpenAI-compatible: the billed answers count toward limits.max_tokens', async () => {
    openai = await startFakeOpenAI([
      { reasoning: 'Thinking at length...', finishReason: 'length', usage: { prompt_tokens: 1000, completion_tokens: 9000, total_tokens: 10000 } },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'addNumbers' } }], usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 } },
      { text: 'It is in src/math.js.', usage: { prompt_tokens: 1100, completion_tokens: 20, total_tokens: 1120 } },
    ]);
    const { r, report } = await run(`provider: openai\nmodel: m\nbase_url: ${openai.url}\nlimits: { max_tokens: 8000 }\n`, { OPENAI_API_KEY: 'k' });
    // 10,000 tokens billed before the first turn came back: the budget was spent by then, so the
    // answer is not asked for again (that request would be billed past the budget, and its answer
    // thrown away at the limit).
    expect(r.code, r.stderr).toBe(55);
    expect(report.limit).toBe('max_tokens');
    expect(report.usage.total).toBe(10000);
    expect(openai!.requests).toHaveLength(1);
  });

  it("Anthropic: an answer the full context window ended before a word, which compaction answers, is billed for the window's input", async () => {
    const grep = (n: number) => ({ toolCalls: [{ name: 'grep', input: { pattern: `addNumbers${n}` } }], usage: { input_tokens: 1000 * n, output_tokens: 10 } });
    anthropic = await startFakeAnthropic([
      grep(1),
      grep(2),
      grep(3),
      { stopReason: 'model_context_window_exceeded', usage: { input_tokens: 150_000, output_tokens: 0 } },
      { text: 'Summary: searched for addNumbers three times.', usage: { input_tokens: 4000, output_tokens: 12 } },
      { text: 'It is in src/math.js.', usage: { input_tokens: 900, output_tokens: 8 } },
    ]);
    const { r, report, events } = await run(`provider: anthropic\nmodel: claude-sonnet-4-5\nbase_url: ${anthropic.url}\nprovider_options: { cache: false }\n`, { ANTHROPIC_API_KEY: 'k' });
    expect(r.code, r.stderr).toBe(0);
    expect(report.compactions.after_context_error).toBe(1);
    const spent = unusable(events);
    expect(spent).toHaveLength(1);
    expect(spent[0].usage).toMatchObject({ input: 150_000, output: 0 });
    // claude-sonnet-4-5 at $3 a million input tokens: that answer alone cost $0.45.
    expect(spent[0].usage.cost_usd).toBeCloseTo(0.45, 6);
    // The three turns before it and the answer after compaction, and the answer the window ended.
    expect(report.usage.input).toBeGreaterThan(1000 + 2000 + 3000 + 150_000);
  });

  it('Gemini: a run that fails on two empty answers still reports what they cost', async () => {
    gemini = await startFakeGemini([
      { text: '', thought: 'Hmm.', finishReason: 'MAX_TOKENS', usage: { input: 700, output: 0, thoughts: 2000 } },
      { text: '', thought: 'Hmm again.', finishReason: 'MAX_TOKENS', usage: { input: 700, output: 0, thoughts: 2000 } },
    ]);
    const { r, report, events } = await run(`provider: gemini\nmodel: gemini-2.5-flash\n`, { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url });
    expect(r.code, r.stderr).toBe(1);
    expect(report.status).toBe('failed');
    expect(report.usage).toMatchObject({ input: 1400, output: 4000, reasoning: 4000 });
    // gemini-2.5-flash is in the price table: the failed run's cost is known, not $0.
    expect(report.usage.cost_usd).toBeGreaterThan(0);
    expect(unusable(events)).toHaveLength(2);
  });
});
