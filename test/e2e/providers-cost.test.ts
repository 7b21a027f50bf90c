// The built CLI through the anthropic and openai providers against fake endpoints on 127.0.0.1:
// usage and cost in dollars reach report.json, report.md and the transcript through the
// model_response events; limits.max_cost_usd stops a run with exit 55; --no-stream and
// provider_options.stream: false use the non-streaming endpoints end to end.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeOpenAI, type FakeUsage, type FakeOpenAI } from '../helpers/fake-openai.js';

afterAll(removeTempDirs);

let anthropic: FakeAnthropic | undefined;
let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await anthropic?.close();
  await openai?.close();
  anthropic = openai = undefined;
});

function recipe(dir: string, body: string): string {
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: auto-approve }\n${body}`);
  return file;
}

describe('anthropic provider end to end', () => {
  it('runs tool calls to an answer and prices every turn from the price table (cache reads and writes included)', async () => {
    const ws = await fixtureWorkspace('rename');
    anthropic = await startFakeAnthropic([
      { thinking: { text: 'Find it first.', signature: 'sig-1' }, toolCalls: [{ id: 'toolu_a', name: 'grep', input: { pattern: 'addNumbers' } }], usage: { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 } },
      { text: 'It is in src/math.js.', usage: { input_tokens: 120, output_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 } },
    ]);
    const out = path.join(tempDir(), 'run');
    const r = await cli(['run', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--prompt', 'Where is addNumbers?', '--approval', 'auto-approve', '--workspace', ws, '--out', out], {
      env: { ANTHROPIC_API_KEY: 'sk-ant-not-secret', ANTHROPIC_BASE_URL: anthropic.url },
    });
    expect(r.stderr).not.toMatch(/unexpected/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('It is in src/math.js.');
    // The signed thinking block went back with the tool result.
    expect(anthropic.requests[1]!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'Find it first.', signature: 'sig-1' });

    const { report, events } = readRun(out);
    expect(report.usage).toMatchObject({ input: 4520, output: 70, cached: 2000, cache_write: 2300 });
    // claude-sonnet-4-5: $3 / Mtok input, $3.75 cache write, $0.30 cache read, $15 output.
    const expected = (220 * 3 + 2300 * 3.75 + 2000 * 0.3 + 70 * 15) / 1e6;
    expect(report.usage.cost_usd).toBeCloseTo(expected, 6);
    const perTurn = events.filter((e: any) => e.type === 'model_response').map((e: any) => e.usage.cost_usd);
    expect(perTurn).toHaveLength(2);
    expect(perTurn[0] + perTurn[1]).toBeCloseTo(expected, 6);
    const md = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| cost \| \$0\.0\d+ \|/);
    expect(md).toContain('2000 cached, 2300 written to cache');
  });

  it('stops at limits.max_cost_usd with exit 55 and the limit named', async () => {
    const ws = await fixtureWorkspace('rename');
    const call = (i: number) => ({ toolCalls: [{ id: `toolu_${i}`, name: 'ls', input: { path: '.' } }], usage: { input_tokens: 100_000, output_tokens: 1000 } });
    anthropic = await startFakeAnthropic([call(1), call(2), call(3), call(4), { text: 'never reached' }]);
    const dir = tempDir();
    // Each turn: 100k input at $3 + 1k output at $15 = $0.315; the budget allows two.
    const file = recipe(dir, `provider: anthropic\nmodel: claude-sonnet-4-5\nprompt: List files\nworkspace: ${ws}\nlimits: { max_cost_usd: 0.7 }\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--out', out], { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url } });
    expect(r.code).toBe(55);
    const { report } = readRun(out);
    expect([report.status, report.limit, report.turns]).toEqual(['limit', 'max_cost_usd', 3]);
    expect(report.usage.cost_usd).toBeCloseTo(0.945, 6);
    expect(anthropic.requests).toHaveLength(3);
  });
});

describe('openai provider end to end: pricing override, non-streaming, budget without a price', () => {
  it('prices a private deployment from the recipe and runs without streaming (--no-stream)', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([
      { toolCalls: [{ id: 'c1', name: 'ls', arguments: { path: '.' } }], usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_tokens_details: { cached_tokens: 400 } } },
      { text: 'Two files.', usage: { prompt_tokens: 2000, completion_tokens: 100, total_tokens: 2100 } },
    ]);
    const dir = tempDir();
    const file = recipe(
      dir,
      `provider: openai\nmodel: our-qwen\nbase_url: ${openai.url}\nprompt: List\nworkspace: ${ws}\npricing: { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.5 }\n`,
    );
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--no-stream', '--out', out], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code).toBe(0);
    expect(openai.requests.map((q) => q.body.stream)).toEqual([false, false]);
    const { report } = readRun(out);
    // (600*2 + 400*0.5 + 200*8) + (2000*2 + 100*8), per million.
    expect(report.usage.cost_usd).toBeCloseTo((1200 + 200 + 1600 + 4000 + 800) / 1e6, 9);
  });

  it('refuses to start a run whose budget is in dollars when no price is known (exit 52, says how to fix)', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ text: 'x' }]);
    const dir = tempDir();
    const file = recipe(dir, `provider: openai\nmodel: local-llama\nbase_url: ${openai.url}\nprompt: Hi\nworkspace: ${ws}\nlimits: { max_cost_usd: 1 }\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('pricing:');
    expect(openai.requests).toHaveLength(0);
    expect(readRun(out).report.exit_code).toBe(52);
  });

  it.each([true, false])('a server that sends no usage: tokens and cost are estimated, said so, and the budget still binds (stream: %s)', async (stream) => {
    const ws = await fixtureWorkspace('rename');
    // Older llama.cpp and some gateways ignore stream_options.include_usage and send no usage at all.
    openai = await startFakeOpenAI([
      { toolCalls: [{ id: 'c1', name: 'ls', arguments: { path: '.' } }], noUsage: true },
      { toolCalls: [{ id: 'c2', name: 'ls', arguments: { path: '.' } }], noUsage: true },
      { text: 'Done.', noUsage: true },
    ]);
    const dir = tempDir();
    const file = recipe(
      dir,
      `provider: openai\nmodel: local-llama\nbase_url: ${openai.url}\nprompt: List\nworkspace: ${ws}\npricing: { input_per_mtok: 1, output_per_mtok: 2 }\nlimits: { max_cost_usd: 0.0000001 }\n`,
    );
    const out = path.join(dir, 'run');
    const r = await cli(['run', file, '--out', out, ...(stream ? [] : ['--no-stream'])], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code, r.stderr).toBe(55);
    expect(openai.requests).toHaveLength(1);
    const { report, events } = readRun(out);
    expect([report.status, report.limit]).toEqual(['limit', 'max_cost_usd']);
    // About 4 bytes a token of what was sent and received: never 0, and marked as an estimate.
    const sent = JSON.stringify(openai.requests[0]!.body).length;
    expect(report.usage.estimated).toBe(true);
    expect(report.usage.input).toBeGreaterThan(sent / 5);
    expect(report.usage.input).toBeLessThan(sent / 3);
    expect(report.usage.output).toBeGreaterThan(0);
    expect(report.usage.cost_usd).toBeGreaterThan(0);
    expect(events.find((e) => e.type === 'model_response')!.usage.estimated).toBe(true);
    expect(report.warnings).toEqual([expect.stringContaining(`${openai.url} sent no token usage`)]);
    expect(report.warnings[0]).toContain('estimated');
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/\| tokens \| about \d+ in, about \d+ out \(estimated: the endpoint sent no usage\) \|/);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/\| cost \| about \$0\.\d+ \(estimated\) \|/);
    expect(r.stderr).toMatch(/· about \d+ tokens \(estimated\) · about \$0\.\d+/);
  });

  it('a usage with no counts in it ({}) is no usage either; a sub-agent on the same server is not warned of twice', async () => {
    const ws = await fixtureWorkspace('rename');
    const empty = {} as FakeUsage;
    openai = await startFakeOpenAI([
      { toolCalls: [{ id: 't1', name: 'task', arguments: { description: 'look', prompt: 'List the files.' } }], usage: empty },
      { text: 'Two files.', usage: empty },
      { text: 'Done.', usage: empty },
    ]);
    const dir = tempDir();
    const file = recipe(dir, `provider: openai\nmodel: local-llama\nbase_url: ${openai.url}\nprompt: List\nworkspace: ${ws}\ntools: [ls, task]\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.usage.estimated).toBe(true);
    expect(report.usage.total).toBeGreaterThan(0);
    expect(report.warnings.filter((w: string) => w.includes('sent no token usage'))).toHaveLength(1);
  });

  it('max_tokens binds on the estimate too', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ toolCalls: [{ id: 'c1', name: 'ls', arguments: { path: '.' } }], noUsage: true }, { text: 'Done.', noUsage: true }]);
    const dir = tempDir();
    const file = recipe(dir, `provider: openai\nmodel: local-llama\nbase_url: ${openai.url}\nprompt: List\nworkspace: ${ws}\nlimits: { max_tokens: 1 }\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code).toBe(55);
    expect(readRun(out).report).toMatchObject({ status: 'limit', limit: 'max_tokens', usage: { estimated: true } });
    // No price known: the cost stays unknown, never $0.
    expect(readRun(out).report.usage.cost_usd).toBeUndefined();
  });
});

