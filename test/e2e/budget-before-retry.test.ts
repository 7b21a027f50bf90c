// An answer the run cannot use (empty, only thinking, cut at the output cap) is billed, counts
// toward max_tokens and max_cost_usd, and is asked for again. When that billed answer alone passed
// the budget, the retry was still sent: a request billed past the user's hard limit, whose answer
// (even a good one) was then thrown away at the limit, exit 55. The budget now binds before the
// retry, as it binds before the next turn: one request, exit 55, the limit named.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

afterAll(removeTempDirs);
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function run(limits: string, spawned = false) {
  fake = await startFakeOpenAI([
    { empty: true },
    { text: 'It is in src/math.js.', usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 } },
  ]);
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    `version: 1\nprompt: Where is addNumbers?\nprovider: openai\nmodel: m\nbase_url: ${fake.url}\nworkspace: .\nconfirmation: { mode: deny }\npricing: { input_per_mtok: 1000, output_per_mtok: 1000 }\nlimits: ${limits}\n`,
  );
  const out = path.join(dir, 'run');
  const args = ['run', file, '--out', out];
  const env = { OPENAI_API_KEY: 'k' };
  const r = spawned ? await cli(args, { cwd: dir, env }) : await cliInProcess(args, { cwd: dir, env });
  return { r, ...readRun(out) };
}

describe('a budget an unusable answer passed', () => {
  // The fake's empty answer is billed 10 in, 5 out (15 tokens, $0.015 at these prices).
  it.each([
    ['max_tokens', '{ max_tokens: 10 }', false],
    ['max_cost_usd', '{ max_cost_usd: 0.01 }', true],
  ] as const)('%s: the answer is not asked for again; the run ends at the limit (exit 55)', async (limit, limits, spawned) => {
    const { r, report, events } = await run(limits, spawned);
    expect(r.code, r.stderr).toBe(55);
    expect(report.limit).toBe(limit);
    expect(fake!.requests).toHaveLength(1);
    expect(events.filter((e: any) => e.type === 'retry')).toEqual([]);
    expect(events.filter((e: any) => e.type === 'side_request')).toHaveLength(1);
    expect(report.usage.total).toBe(15);
  });

  it('an unusable answer within the budget is still asked for again', async () => {
    const { r, report } = await run('{ max_tokens: 100000 }');
    expect(r.code, r.stderr).toBe(0);
    expect(report.final_answer).toBe('It is in src/math.js.');
    expect(fake!.requests).toHaveLength(2);
  });
});
