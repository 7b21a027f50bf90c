// Issue 3, "Limits and faults": the built CLI against fake model endpoints that misbehave. Every
// case asserts the exit code, the report's status, and a transcript that is valid JSONL ending in
// run_end (readRun checks every line parses and seq counts up).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir, type RunFiles } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
let openai: FakeOpenAI | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await gemini?.close();
  await openai?.close();
  gemini = openai = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface FaultRun extends RunFiles {
  code: number;
  stdout: string;
  stderr: string;
  ws: string;
  ms: number;
}

/**
 * One run against the fake Gemini endpoint, in a fresh workspace: through the CLI's entry in
 * process, or with `builtCli` through the built CLI (the first case does, to prove the shipped one).
 */
async function runGemini(steps: FakeStep[], flags: string[] = [], { builtCli = false } = {}): Promise<FaultRun> {
  const root = tempDir('unattended-faults-');
  dirs.push(root);
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), '# fault test\n');
  const out = path.join(root, 'run');
  gemini = await startFakeGemini(steps);
  const started = performance.now();
  const r = await (builtCli ? cli : cliInProcess)(['run', '--prompt', 'Do the task.', '--workspace', ws, '--out', out, ...flags], {
    env: { GEMINI_API_KEY: 'fault-test-key-0123456789', GOOGLE_GEMINI_BASE_URL: gemini.url },
  });
  const ms = performance.now() - started;
  return { ...r, ...readRun(out), ws, ms };
}

function expectWellFormed(run: FaultRun): void {
  expect(run.events[0]!.type).toBe('run_start');
  expect(run.events.at(-1)!.type).toBe('run_end');
  expect(run.events.at(-1)!.exit_code).toBe(run.code);
  expect(run.report.exit_code).toBe(run.code);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

const retries = (run: FaultRun) => run.events.filter((e) => e.type === 'retry');
const toolEvents = (run: FaultRun) => run.events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');

describe('model faults through the CLI (fake Gemini on 127.0.0.1)', () => {
  it('429 with Retry-After: waits at least what the server asked, then succeeds', async () => {
    const run = await runGemini([{ status: 429, retryAfter: 1 }, { text: 'Done after the rate limit.' }], [], { builtCli: true });
    expectWellFormed(run);
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.stdout.trim()).toBe('Done after the rate limit.');
    expect(gemini!.requests).toHaveLength(2);
    const [retry] = retries(run);
    expect(retry).toMatchObject({ attempt: 1 });
    expect(retry!.delay_ms).toBeGreaterThanOrEqual(1000);
    expect(retry!.reason).toMatch(/429|rate|RESOURCE_EXHAUSTED/i);
    expect(run.ms).toBeGreaterThanOrEqual(1000);
  });

  it('500 then success: retried with backoff, exit 0', async () => {
    const run = await runGemini([{ status: 500 }, { text: 'Recovered.' }]);
    expectWellFormed(run);
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(retries(run)).toHaveLength(1);
    expect(gemini!.requests).toHaveLength(2);
  });

  it.each([
    [401, 41, 'error'],
    [403, 41, 'error'],
    [400, 1, 'failed'],
    [404, 1, 'failed'],
  ])('HTTP %i: exit %i at once, never retried', async (status, exitCode, reportStatus) => {
    const run = await runGemini([{ status, message: `refused with ${status}` }, { text: 'must not be reached' }]);
    expectWellFormed(run);
    expect(run.code).toBe(exitCode);
    expect(run.report.status).toBe(reportStatus);
    expect(gemini!.requests).toHaveLength(1);
    expect(retries(run)).toHaveLength(0);
    expect(run.stderr).toContain(`refused with ${status}`);
  });

  it('a Retry-After above the maximum fails at once with a clear message', async () => {
    const run = await runGemini([{ status: 429, retryAfter: 3600 }, { text: 'must not be reached' }]);
    expectWellFormed(run);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toMatch(/asked to wait 3600 s before retrying, more than the 60 s maximum/);
    expect(run.ms).toBeLessThan(10_000);
    expect(gemini!.requests).toHaveLength(1);
  });

  it('--model-retries bounds the attempts: 500 twice with 2 attempts fails, saying so', async () => {
    // Retry-After: 0, honoured as the server's own delay: the subject is the bound, not the backoff
    // (the case above waits it out), so this case does not wait up to a second for it.
    const run = await runGemini([{ status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }, { text: 'must not be reached' }], ['--model-retries', '2']);
    expectWellFormed(run);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toMatch(/gave up after 2 attempts/);
    expect(gemini!.requests).toHaveLength(2);
    expect(retries(run)).toHaveLength(1);
  });

  it('bad resilience flags are the caller\'s mistake: exit 42 naming each', async () => {
    const r = await cliInProcess(['run', '--prompt', 'hi', '--model-retries', '0', '--model-idle-timeout', 'soon', '--out', path.join(tempDir(), 'run')], {
      env: { GEMINI_API_KEY: 'fault-test-key-0123456789' },
    });
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/--model-retries must be a whole number of at least 1/);
    expect(r.stderr).toMatch(/--model-idle-timeout: 'soon' is not a duration/);
  });

  it('a refused connection is a network error: retried, then a clear failure naming the endpoint', async () => {
    // A port that was just free: nothing listens there.
    const closed = await startFakeGemini([]);
    const url = closed.url;
    await closed.close();
    const root = tempDir('unattended-refused-');
    dirs.push(root);
    const out = path.join(root, 'run');
    const r = await cliInProcess(['run', '--prompt', 'hi', '--workspace', root, '--out', out, '--model-retries', '2'], {
      env: { GEMINI_API_KEY: 'fault-test-key-0123456789', GOOGLE_GEMINI_BASE_URL: url },
    });
    expect(r.code).toBe(1);
    const { report, events } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.error).toContain(url);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('run_end');
  });

  it('a stream that hangs is aborted after the idle timeout and retried', async () => {
    const run = await runGemini([{ hang: true, partialText: 'Thinking' }, { text: 'Answered on the retry.' }], ['--model-idle-timeout', '300ms']);
    expectWellFormed(run);
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.report.final_answer).toBe('Answered on the retry.');
    const [retry] = retries(run);
    expect(retry!.reason).toMatch(/stalled/);
    expect(gemini!.requests).toHaveLength(2);
  });

  it('a stream cut in the middle of a function call: retried once, then exit 1, and nothing ran', async () => {
    // The first answer carries a complete write_file call but ends without a finishReason (the
    // connection closed); the second dies mid-event. Either call, run, would create the sentinel.
    const root = tempDir('unattended-cut-');
    dirs.push(root);
    const sentinel = path.join(root, 'sentinel.txt');
    const completeCall = {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'write_file', args: { file_path: sentinel, content: 'ran' } } }] }, index: 0 }],
    };
    const run = await runGemini(
      [{ raw: `data: ${JSON.stringify(completeCall)}\r\n\r\n` }, { cut: true, partialText: 'Writing' }, { text: 'must not be reached' }],
      ['--approval', 'auto-approve'],
    );
    expectWellFormed(run);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toMatch(/cut off|empty/i);
    expect(gemini!.requests).toHaveLength(2);
    expect(retries(run)).toHaveLength(1);
    expect(toolEvents(run)).toHaveLength(0);
    expect(fs.existsSync(sentinel)).toBe(false);
    expect(run.report.tool_calls.total).toBe(0);
  });

  it('an empty answer twice: exit 1 with status failed, never 0', async () => {
    const run = await runGemini([{ empty: true }, { empty: true }, { text: 'must not be reached' }]);
    expectWellFormed(run);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.final_answer).toBeNull();
    expect(run.report.error).toMatch(/empty/);
    expect(gemini!.requests).toHaveLength(2);
  });

  it('an answer of only whitespace is empty: asked once more, and the second answer is the run\'s', async () => {
    const run = await runGemini([{ text: ' \n\t ' }, { text: 'Done.' }]);
    expectWellFormed(run);
    expect(run.code).toBe(0);
    expect(run.report.final_answer).toBe('Done.');
    expect(gemini!.requests).toHaveLength(2);
    expect(retries(run)).toHaveLength(1);
  });

  it('an unknown tool name goes back to the model as an error listing the real tools; the run goes on', async () => {
    const run = await runGemini([{ calls: [{ name: 'delete_everything', args: { confirm: true } }] }, { text: 'Sorry, used ls instead.' }]);
    expectWellFormed(run);
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('success');
    const sent = gemini!.requests[1]!.body.contents.at(-1).parts[0].functionResponse;
    expect(sent.name).toBe('delete_everything');
    expect(sent.response.error).toMatch(/Unknown tool 'delete_everything'/);
    expect(sent.response.error).toMatch(/read_file/);
    expect(sent.response.error).toMatch(/shell/);
    const result = run.events.find((e) => e.type === 'tool_result');
    expect(result!.error_type).toBe('unknown_tool');
  });

  it("a call to another agent's tool (Claude Code's Bash, Gemini CLI's replace) is told which tool does the same here, and whether the run offers it", async () => {
    const calls = [
      { name: 'Bash', args: { command: 'ls' } },
      { name: 'Read', args: { file_path: 'README.md' } },
      { name: 'replace', args: { file_path: 'README.md', old_string: 'fault', new_string: 'x' } },
    ];
    const run = await runGemini([{ calls }, { text: 'Done.' }], ['--tools', 'read_file,grep']);
    expectWellFormed(run);
    expect(run.code).toBe(0);
    const errors = gemini!.requests[1]!.body.contents.at(-1).parts.map((p: any) => p.functionResponse.response.error);
    expect(errors).toEqual([
      "Unknown tool 'Bash': that is Claude Code's name for 'shell', which this run does not offer. Available tools: read_file, grep.",
      "Unknown tool 'Read': that is Claude Code's name: here call 'read_file'. Available tools: read_file, grep.",
      "Unknown tool 'replace': that is Gemini CLI's name for 'edit', which this run does not offer. Available tools: read_file, grep.",
    ]);
    // Nothing ran under the peer's name: the file is as it was.
    expect(fs.readFileSync(path.join(run.ws, 'README.md'), 'utf8')).toBe('# fault test\n');
  });

  it('the same call five times in a row ends the run with status loop', async () => {
    const same = { calls: [{ name: 'ls', args: { path: '.' } }] };
    const run = await runGemini([same, same, same, same, same, { text: 'must not be reached' }]);
    expectWellFormed(run);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('loop');
    expect(run.report.error).toMatch(/ls.*5 times/);
    expect(gemini!.requests).toHaveLength(5);
  });

  it('malformed JSON arguments (OpenAI-compatible endpoint) go back to the model as an error; the run goes on, and fails when that was its only edit', async () => {
    const root = tempDir('unattended-badjson-');
    dirs.push(root);
    const sentinel = path.join(root, 'sentinel.txt');
    openai = await startFakeOpenAI([
      { toolCalls: [{ name: 'write_file', arguments: `{"file_path": ${JSON.stringify(sentinel)}, "content": "x"` }] },
      { text: 'I will fix my arguments next time.' },
    ]);
    const out = path.join(root, 'run');
    const r = await cliInProcess(
      ['run', '--provider', 'openai', '--model', 'x', '--prompt', 'Write it.', '--approval', 'auto-approve', '--workspace', root, '--out', out],
      { env: { OPENAI_API_KEY: 'sk-fake-not-secret', OPENAI_BASE_URL: openai.url } },
    );
    // The model went on (a second request), but nothing was written: not a success.
    expect(r.code).toBe(1);
    const { report, events } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/every edit the model tried failed \(1 call: invalid_params ×1\)/);
    expect(openai.requests).toHaveLength(2);
    expect(events.at(-1)!.type).toBe('run_end');
    expect(fs.existsSync(sentinel)).toBe(false);
    const toolMessage = openai.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(String(toolMessage.content)).toMatch(/Invalid parameters for write_file: the arguments are not a JSON object/);
    expect(events.find((e) => e.type === 'tool_result')!.error_type).toBe('invalid_params');
  });

  it('arguments JSON-encoded twice (a string holding the object, as watsonx sends them) are the call the model made: it runs', async () => {
    const root = tempDir('unattended-twice-');
    dirs.push(root);
    const sentinel = path.join(root, 'sentinel.txt');
    openai = await startFakeOpenAI([
      { toolCalls: [{ name: 'write_file', arguments: JSON.stringify(JSON.stringify({ file_path: sentinel, content: 'x' })) }] },
      { text: 'Written.' },
    ]);
    const out = path.join(root, 'run');
    const r = await cliInProcess(
      ['run', '--provider', 'openai', '--model', 'x', '--prompt', 'Write it.', '--approval', 'auto-approve', '--workspace', root, '--out', out],
      { env: { OPENAI_API_KEY: 'sk-fake-not-secret', OPENAI_BASE_URL: openai.url } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(sentinel, 'utf8')).toBe('x');
    expect(readRun(out).events.find((e) => e.type === 'tool_result')!.error_type).toBeNull();
    // The history carries the call as the object it is, encoded once, as servers parse it.
    const assistant = openai.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual({ file_path: sentinel, content: 'x' });
  });
});
