// web_search through Gemini's grounding is a model request of its own, paid by the run: its tokens
// and cost reach the report and bind max_tokens and max_cost_usd, as a turn's do. The CLI runs
// against a fake Gemini that answers both the run's turns and the search request.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = (url: string) => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url });
const search = (query: string) => ({ calls: [{ name: 'web_search', args: { query } }], usage: { input: 300, output: 10 } });
/** The grounded search's answer: a generateContent reply with the tokens it cost. */
const searchAnswer = (input: number, output: number) => ({ text: 'Node 24 is the active LTS.', usage: { input, output } });

function recipe(limits: string): { file: string; out: string } {
  const dir = tempDir('unattended-search-usage-');
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    [
      'version: 1',
      'prompt: find the node LTS',
      'tools: [web_search]',
      'confirmation: { mode: deny }',
      'pricing: { input_per_mtok: 1, output_per_mtok: 2 }',
      `limits: ${limits}`,
      '',
    ].join('\n'),
  );
  return { file, out: path.join(dir, 'run') };
}

describe('web_search spends on the run account', () => {
  it('max_tokens binds on the tokens searches spent: exit 55 after the first search', async () => {
    fake = await startFakeGemini([search('node lts'), searchAnswer(1_000_000, 500_000), search('again'), searchAnswer(1_000_000, 500_000), { text: 'never' }]);
    const { file, out } = recipe('{ max_tokens: 50000 }');
    const r = await cli(['run', file, '--workspace', path.dirname(file), '--out', out], { env: env(fake.url) });
    expect(r.code).toBe(55);
    const { report, events } = readRun(out);
    expect(report.limit).toBe('max_tokens');
    expect(report.usage.total).toBe(1_500_310);
    expect(fake.requests).toHaveLength(2);
    const side = events.filter((e) => e.type === 'side_request');
    expect(side).toEqual([expect.objectContaining({ purpose: 'web_search', turn: 1, usage: expect.objectContaining({ input: 1_000_000, output: 500_000 }) })]);
  });

  it('max_cost_usd binds on what searches cost, priced as the turns are', async () => {
    fake = await startFakeGemini([search('node lts'), searchAnswer(40_000, 10_000), { text: 'never' }]);
    const { file, out } = recipe('{ max_cost_usd: 0.05 }');
    const r = await cliInProcess(['run', file, '--workspace', path.dirname(file), '--out', out], { env: env(fake.url) });
    expect(r.code).toBe(55);
    const { report } = readRun(out);
    expect(report.limit).toBe('max_cost_usd');
    // 40k input at $1/M and 10k output at $2/M: $0.06 for the search, beside the turn's $0.00032.
    expect(report.usage.cost_usd).toBeCloseTo(0.06032, 8);
  });

  it('a run under its budgets reports the searches in its usage', async () => {
    fake = await startFakeGemini([search('node lts'), searchAnswer(2_000, 100), { text: 'Node 24.', usage: { input: 400, output: 5 } }]);
    const { file, out } = recipe('{ max_tokens: 50000 }');
    const r = await cliInProcess(['run', file, '--workspace', path.dirname(file), '--out', out], { env: env(fake.url) });
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    expect(report.usage).toMatchObject({ input: 2_700, output: 115, total: 2_815 });
  });
});
