// The CLI against replayed OpenAI-compatible streams: what a user sees on stderr and in the report,
// and what the runner sends back, for the dialect quirks that broke runs on turn 2. The first case
// runs the built CLI, the others its entry in process (the same code without a process start each).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { sse, startReplayServer, type ReplayServer } from '../helpers/replay-server.js';

afterAll(removeTempDirs);

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const done = { body: sse([chunk({ role: 'assistant', content: 'All read.' }), chunk({}, 'stop')]) };

async function runRecipe(extra: string, ws: string, { builtCli = false } = {}) {
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: auto-approve }\nprovider: openai\nmodel: m\nbase_url: ${server!.url}/v1\nprompt: Look around\nworkspace: ${ws}\nlimits: { model_retries: 3 }\n${extra}`);
  const out = path.join(dir, 'run');
  const r = await (builtCli ? cli : cliInProcess)(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
  return { r, out, ...readRun(out) };
}

describe('dialects through the CLI', () => {
  it('DeepSeek (provider_options.dialect): the second request carries reasoning_content, the transcript keeps it', async () => {
    const ws = await fixtureWorkspace('rename');
    server = await startReplayServer([
      { body: sse([chunk({ role: 'assistant', content: null, reasoning_content: 'List first.' }), chunk({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] }), chunk({}, 'tool_calls')]) },
      done,
    ]);
    const { r, events } = await runRecipe('provider_options: { dialect: deepseek }\n', ws, { builtCli: true });
    expect(r.code).toBe(0);
    const assistant = server.requests[1]!.body.messages.find((m: any) => m.role === 'assistant');
    expect(assistant.reasoning_content).toBe('List first.');
    expect(events.find((e: any) => e.type === 'model_response')!.provider_fields).toEqual({ reasoning_content: 'List first.' });
  });

  it("Ollama's parallel calls at index 0 run as two calls, and the run succeeds", async () => {
    const ws = await fixtureWorkspace('rename');
    server = await startReplayServer([
      {
        body: sse([
          chunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_x', index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }] }),
          chunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_y', index: 0, type: 'function', function: { name: 'grep', arguments: '{"pattern":"addNumbers"}' } }] }),
          chunk({ role: 'assistant', content: '' }, 'tool_calls'),
        ]),
      },
      done,
    ]);
    const { r, report } = await runRecipe('', ws);
    expect(r.code).toBe(0);
    expect(report.tool_calls.by_tool).toMatchObject({ ls: { success: 1, error: 0, denied: 0 }, grep: { success: 1, error: 0, denied: 0 } });
    expect(report.tool_calls.total).toBe(2);
  });

  it("OpenRouter's 400 shows the upstream's own message on stderr and in the report, with one request", async () => {
    const ws = await fixtureWorkspace('rename');
    const body = JSON.stringify({ error: { code: 400, message: 'Provider returned error', metadata: { raw: '{"error":{"message":"Unsupported value: temperature"}}', provider_name: 'OpenAI' } } });
    server = await startReplayServer([{ status: 400, body }, { status: 400, body }]);
    const { r, report } = await runRecipe('', ws);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('OpenAI: Unsupported value: temperature');
    expect(report.error).toContain('OpenAI: Unsupported value: temperature');
    expect(server.requests).toHaveLength(1);
  });
});
