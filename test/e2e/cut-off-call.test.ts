// A tool call the end of the model's answer cut off (its arguments unfinished) does not run, and
// the model hears why in the call's result. What it hears must be true: "raise the run's
// provider_options.max_output_tokens" only when the run sent that cap; a local server asked with
// no cap, or a context window that filled, ended the answer otherwise, and a model told to raise a
// setting that was never set repeats that advice to the user. The built CLI against fake
// OpenAI-compatible and Anthropic endpoints (the real SDKs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

let openai: FakeOpenAI | undefined;
let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await openai?.close();
  await anthropic?.close();
  openai = anthropic = undefined;
});

const CUT = '{"file_path": "/w';

/** Runs `recipe` (YAML lines after version, prompt and workspace); returns the run's files. */
async function run(recipe: string, env: Record<string, string>) {
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'r.yaml');
  fs.writeFileSync(file, `version: 1\nprompt: Write the notes\nworkspace: ${ws}\ntools: [write_file]\nconfirmation: { mode: auto-approve }\n${recipe}`);
  const out = path.join(dir, 'run');
  const r = await cliInProcess(['run', file, '--out', out], { env });
  return { r, ...readRun(out) };
}

describe("the result of a tool call the answer's end cut off", () => {
  it('a local server asked with no cap: its own limit is named, not a max_output_tokens the run never set', async () => {
    openai = await startFakeOpenAI([{ toolCalls: [{ name: 'write_file', arguments: CUT }], finishReason: 'length' }, { text: 'I will write less.' }]);
    const { r } = await run(`provider: openai\nmodel: qwen3\nbase_url: ${openai.url}\n`, { OPENAI_API_KEY: 'k' });
    expect(r.code, r.stderr).toBe(1); // every edit the model tried failed
    expect(openai.requests[0]!.body).not.toHaveProperty('max_tokens');
    const tool = openai.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toMatch(/the arguments are not a JSON object/);
    expect(tool.content).toMatch(/your answer was cut off while writing this call, so its arguments are incomplete and it did not run: write less in one call/);
    expect(tool.content).toMatch(/no provider_options\.max_output_tokens was set, so the server's own limit ended it/);
    expect(tool.content).not.toMatch(/must be raised|output-token limit/);
  });

  it('under the cap the recipe set: write less, or raise that cap', async () => {
    openai = await startFakeOpenAI([{ toolCalls: [{ name: 'write_file', arguments: CUT }], finishReason: 'length' }, { text: 'I will write less.' }]);
    const { r } = await run(`provider: openai\nmodel: qwen3\nbase_url: ${openai.url}\nprovider_options: { max_output_tokens: 2000 }\n`, { OPENAI_API_KEY: 'k' });
    expect(r.code, r.stderr).toBe(1); // every edit the model tried failed
    const tool = openai.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toMatch(/your answer reached the output-token limit while writing this call, .* or the run's provider_options\.max_output_tokens must be raised/);
  });

  it("Anthropic's model_context_window_exceeded: the window ended it, and a larger output cap makes no room", async () => {
    anthropic = await startFakeAnthropic([{ toolCalls: [{ name: 'write_file', input: CUT }], stopReason: 'model_context_window_exceeded' }, { text: 'I will write less.' }]);
    const { r } = await run(`provider: anthropic\nmodel: claude-sonnet-4-5\nbase_url: ${anthropic.url}\n`, { ANTHROPIC_API_KEY: 'k' });
    expect(r.code, r.stderr).toBe(1); // every edit the model tried failed
    const results = anthropic.requests[1]!.body.messages.at(-1).content.filter((b: { type: string }) => b.type === 'tool_result');
    const text = JSON.stringify(results);
    expect(text).toMatch(/your answer was cut off while writing this call/);
    expect(text).toMatch(/the context window filled before it ended, not an output cap/);
    expect(text).not.toMatch(/must be raised/);
  });
});
