// The CLI against a fake Gemini endpoint on 127.0.0.1 that speaks the API's SSE stream: the real
// @google/genai client, real tools, real files. A run to its answer and a prompt piped on a real
// stdin go through the built CLI, the other cases through its entry in process (the same code
// without a process start each; piped input given as a string).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const geminiEnv = (url: string) => ({ GEMINI_API_KEY: 'test-key-not-secret-123', GOOGLE_GEMINI_BASE_URL: url });

describe('gemini provider end to end', () => {
  it('runs tool calls to a final answer, with usage, over the real SDK', async () => {
    const ws = await fixtureWorkspace('rename');
    fake = await startFakeGemini([
      { calls: [{ name: 'grep', args: { pattern: 'addNumbers' } }], usage: { input: 900, output: 12 } },
      {
        calls: [{ name: 'edit', args: { file_path: path.join(ws, 'src/math.js'), old_string: 'function addNumbers', new_string: 'function sumOf' } }],
        usage: { input: 1000, output: 30 },
      },
      { text: 'Renamed the definition.', usage: { input: 1100, output: 8 } },
    ]);
    const out = path.join(tempDir(), 'run');
    const r = await cli(['run', '--prompt', 'Rename addNumbers', '--approval', 'auto-approve', '--workspace', ws, '--out', out], {
      env: geminiEnv(fake.url),
    });
    expect(r.stderr).not.toMatch(/unexpected/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Renamed the definition.');
    expect(fs.readFileSync(path.join(ws, 'src/math.js'), 'utf8')).toContain('function sumOf(a, b)');

    const { report, events } = readRun(out);
    expect(report.status).toBe('success');
    expect(report.usage).toMatchObject({ input: 3000, output: 50, total: 3050 });
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['src/math.js']);

    // The model saw the grep result, as a function response answering its call.
    const second = fake.requests[1]!.body;
    const response = second.contents.at(-1).parts[0].functionResponse;
    expect(response.name).toBe('grep');
    expect(response.response.output).toContain('src/main.js');
    // Tools were declared, the system instruction sent, and the key never reached the transcript.
    expect(fake.requests[0]!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name)).toContain('edit');
    expect(fake.requests[0]!.body.systemInstruction.parts[0].text).toContain(ws);
    expect(JSON.stringify(events)).not.toContain('test-key-not-secret-123');
  });

  it('takes the prompt from piped stdin', async () => {
    const ws = await fixtureWorkspace('rename');
    fake = await startFakeGemini([{ text: 'Nothing to do.' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cli(['run', '--workspace', ws, '--out', out], { env: geminiEnv(fake.url), input: 'List the files, please.' });
    expect(r.code).toBe(0);
    expect(fake.requests[0]!.body.contents[0].parts[0].text).toBe('List the files, please.');
    expect(readRun(out).report.final_answer).toBe('Nothing to do.');
  });

  it('appends piped stdin to --prompt as context', async () => {
    fake = await startFakeGemini([{ text: 'ok' }]);
    const r = await cliInProcess(['run', '--prompt', 'Summarise this diff.', '--out', path.join(tempDir(), 'run')], {
      env: geminiEnv(fake.url),
      stdin: '+added line',
    });
    expect(r.code).toBe(0);
    const sent = fake.requests[0]!.body.contents[0].parts[0].text as string;
    expect(sent.startsWith('Summarise this diff.')).toBe(true);
    expect(sent).toContain('+added line');
  });

  it('exits 41 with a one-line fix when no key is set, and still writes the report', async () => {
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--prompt', 'hi', '--out', out]);
    expect(r.code).toBe(41);
    expect(r.stderr).toMatch(/GEMINI_API_KEY/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const { report, events } = readRun(out);
    expect(report.status).toBe('error');
    expect(report.exit_code).toBe(41);
    expect(events.at(-1)!.type).toBe('run_end');
  });

  it('exits 42 when there is no prompt at all', async () => {
    const r = await cliInProcess(['run', '--out', path.join(tempDir(), 'run')], { env: { GEMINI_API_KEY: 'k' } });
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/no prompt/);
  });

  it('stops at max_turns with exit 53', async () => {
    const ws = await fixtureWorkspace('rename');
    fake = await startFakeGemini([
      { calls: [{ name: 'ls', args: {} }] },
      { calls: [{ name: 'glob', args: { pattern: '*.md' } }] },
      { text: 'never reached' },
    ]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--prompt', 'loop', '--workspace', ws, '--max-turns', '2', '--out', out], { env: geminiEnv(fake.url) });
    expect(r.code).toBe(53);
    const { report } = readRun(out);
    expect(report.status).toBe('limit');
    expect(report.limit).toBe('max_turns');
  });
});
