// xAI's chat completions count a reasoning model's thinking beside completion_tokens, not inside it
// as OpenAI does: total_tokens is prompt + completion + reasoning (docs.x.ai, "consumption and rate
// limits"; the figures below are grok-3-mini's as vercel/ai#12425 recorded them). Thinking is billed
// as output, so the run's output tokens, cost and budgets must hold it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeUsage } from '../helpers/fake-openai.js';

afterAll(removeTempDirs);

let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});

const xaiUsage = (prompt: number, completion: number, reasoning: number) =>
  ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion + reasoning, completion_tokens_details: { reasoning_tokens: reasoning } }) as FakeUsage;

it("an xAI reasoning model's thinking is output: in the report's output tokens and its cost", async () => {
  openai = await startFakeOpenAI([
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'addNumbers' } }], usage: xaiUsage(12, 1, 386) },
    { text: 'It is in src/math.js.', usage: xaiUsage(400, 9, 94) },
  ]);
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    `version: 1\nconfirmation: { mode: auto-approve }\nprovider: openai\nmodel: grok-3-mini\nbase_url: ${openai.url}\nprovider_options: { dialect: xai }\npricing: { input_per_mtok: 0.3, output_per_mtok: 0.5 }\nprompt: Where is addNumbers?\nworkspace: ${ws}\n`,
  );
  const out = path.join(dir, 'run');
  const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
  expect(r.code, r.stderr).toBe(0);
  const { report, events } = readRun(out);
  expect(report.usage).toMatchObject({ input: 412, output: 490, reasoning: 480, total: 902 });
  expect(report.usage.cost_usd).toBeCloseTo((412 * 0.3 + 490 * 0.5) / 1e6, 8);
  const first = events.find((e: any) => e.type === 'model_response');
  expect(first?.usage).toMatchObject({ input: 12, output: 387, reasoning: 386, total: 399 });
});

it('an OpenAI reasoning model, whose completion_tokens already hold the thinking, is not counted twice', async () => {
  openai = await startFakeOpenAI([{ text: 'It is in src/math.js.', usage: { prompt_tokens: 100, completion_tokens: 300, total_tokens: 400, completion_tokens_details: { reasoning_tokens: 256 } } as FakeUsage }]);
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: deny }\nprovider: openai\nmodel: o4-mini\nbase_url: ${openai.url}\nprompt: Where is addNumbers?\nworkspace: ${ws}\n`);
  const out = path.join(dir, 'run');
  const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
  expect(r.code, r.stderr).toBe(0);
  expect(readRun(out).report.usage).toMatchObject({ input: 100, output: 300, reasoning: 256, total: 400 });
});
