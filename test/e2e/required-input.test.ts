// `input: required` (issue 10 §7): a recipe that works on piped input (a diff, an issue) ends with
// exit 42 before any model call when that input is empty or missing, and leaves a report saying so.
// The shipped recipes that need it declare it. A fake Gemini endpoint; the built CLI where stdin
// itself is the subject (an empty pipe, an empty file), the CLI's entry in process for the rest
// (piped input given as a string: the same code without a process start each).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI, cli, fixtureWorkspace, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
});

const env = () => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini!.url });

describe('input: required', () => {
  for (const [name, input, built] of [
    ['an empty diff', '', true],
    ['whitespace only', '\n  \n\t\n', false],
  ] as const) {
    it(`summarize-changes with ${name} on stdin: exit 42, no model call, a report that says why${built ? ' (built CLI)' : ''}`, async () => {
      gemini = await startFakeGemini([{ text: 'A summary of nothing.' }]);
      const ws = await fixtureWorkspace('rename');
      const out = path.join(tempDir(), 'out');
      const args = ['run', 'recipes/summarize-changes.yaml', '--workspace', ws, '--out', out];
      const r = built ? await cli(args, { env: env(), input }) : await cliInProcess(args, { env: env(), stdin: input });
      expect(r.code, r.stderr).toBe(42);
      expect(gemini.requests).toHaveLength(0);
      expect(r.stderr).toMatch(/summarize-changes.yaml needs input on standard input \(input: required\), but the piped input was empty; no model was called/);
      const { report, events } = readRun(out);
      expect(report).toMatchObject({ status: 'error', exit_code: 42, error_kind: 'input' });
      expect(events.filter((e) => e.type.startsWith('model_'))).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'run_end', exit_code: 42 });
    });
  }

  it('piped input --no-stdin kept unread is told as that, not as nothing piped', async () => {
    gemini = await startFakeGemini([{ text: 'x' }]);
    const ws = await fixtureWorkspace('rename');
    const skipped = await cliInProcess(['run', 'recipes/triage-issue.yaml', '--no-stdin', '--workspace', ws, '--out', path.join(tempDir(), 'b')], { env: env(), stdin: 'an issue' });
    expect(skipped.code).toBe(42);
    expect(skipped.stderr).toContain('triage-issue.yaml needs input on standard input (input: required), but --no-stdin says not to read it');
    expect(skipped.stderr).toContain('drop --no-stdin');
    expect(skipped.stderr).not.toContain('nothing was piped');
    // -p - asks for the prompt from stdin, which --no-stdin refuses to read: the two flags are told, not a missing pipe.
    const prompt = await cliInProcess(['-p', '-', '--no-stdin', '--workspace', ws, '--out', path.join(tempDir(), 'c')], { env: env(), stdin: 'fix the typo' });
    expect(prompt.code).toBe(42);
    expect(prompt.stderr).toContain('-p -: the prompt is to be read from standard input, which --no-stdin says not to read');
    expect(prompt.stderr).not.toContain('no prompt was piped');
    const bare = await cliInProcess(['--no-stdin', '--workspace', ws], { env: env(), stdin: 'fix the typo' });
    expect(bare.code).toBe(42);
    expect(bare.stderr).toContain('(stdin is piped, and --no-stdin says not to read it)');
    expect(gemini.requests).toHaveLength(0);
  });

  it('no stdin at all (closed, or --no-stdin) is the same', async () => {
    gemini = await startFakeGemini([{ text: 'x' }]);
    const ws = await fixtureWorkspace('rename');
    const closed = await cliInProcess(['run', 'recipes/triage-issue.yaml', '--workspace', ws, '--out', path.join(tempDir(), 'a')], { env: env() });
    expect(closed.code).toBe(42);
    expect(closed.stderr).toMatch(/nothing was piped to it/);
    const skipped = await cliInProcess(['run', 'recipes/triage-issue.yaml', '--no-stdin', '--workspace', ws, '--out', path.join(tempDir(), 'b')], { env: env(), stdin: 'an issue' });
    expect(skipped.code).toBe(42);
    // An empty file on stdin, as the Action's stdin-file gives it (the built CLI: a real file descriptor).
    const empty = path.join(tempDir(), 'empty.diff');
    fs.writeFileSync(empty, '');
    const fromFile = await execa(process.execPath, [CLI, 'run', 'recipes/summarize-changes.yaml', '--workspace', ws, '--out', path.join(tempDir(), 'c')], {
      cwd: ROOT,
      env: baseEnv(env()),
      extendEnv: false,
      reject: false,
      inputFile: empty,
    });
    expect(fromFile.exitCode).toBe(42);
    expect(gemini.requests).toHaveLength(0);
  });

  it('ask (no prompt of its own) with an empty stdin also ends with 42 before any model call; --prompt still works', async () => {
    gemini = await startFakeGemini([{ text: 'In src/math.js.' }]);
    const ws = await fixtureWorkspace('rename');
    const empty = await cliInProcess(['run', 'recipes/ask.yaml', '--workspace', ws, '--out', path.join(tempDir(), 'a')], { env: env(), stdin: '\n' });
    expect(empty.code).toBe(42);
    expect(empty.stderr).toMatch(/no prompt/);
    expect(gemini.requests).toHaveLength(0);
    const asked = await cliInProcess(['run', 'recipes/ask.yaml', '--prompt', 'Where is addNumbers?', '--workspace', ws, '--out', path.join(tempDir(), 'b')], { env: env() });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout.trim()).toBe('In src/math.js.');
  });

  it('with input piped in, the run goes on as before', async () => {
    gemini = await startFakeGemini([{ text: 'Adds a time to live.' }]);
    const ws = await fixtureWorkspace('rename');
    const out = path.join(tempDir(), 'out');
    const r = await cliInProcess(['run', 'recipes/summarize-changes.yaml', '--workspace', ws, '--out', out], { env: env(), stdin: '+ remember(key, value, ttlMs)\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(gemini.requests[0]!.body.contents[0].parts[0].text).toContain('+ remember(key, value, ttlMs)');
  });

  it('a recipe without it still runs with an empty stdin (input is optional by default)', async () => {
    gemini = await startFakeGemini([{ text: 'Renamed nothing.' }]);
    const ws = await fixtureWorkspace('rename');
    const r = await cliInProcess(['run', '--prompt', 'Look around', '--workspace', ws, '--out', path.join(tempDir(), 'out')], { env: env(), stdin: '' });
    expect(r.code).toBe(0);
  });

  it('validate rejects a value other than required or optional, with its position', async () => {
    const file = path.join(tempDir(), 'r.yaml');
    fs.writeFileSync(file, 'version: 1\nprompt: x\ninput: mandatory\nconfirmation: {mode: deny}\n');
    const r = await cliInProcess(['validate', file]);
    expect(r.code).toBe(52);
    expect(r.stderr + r.stdout).toMatch(/r\.yaml:3:\d+.*input/);
  });
});

describe('piped input beyond any prompt', () => {
  it('more than 16 MB on stdin is an input error (exit 42, one clear line), not a crash with a stack trace', async () => {
    const r = await cli(['-p', 'summarise this', '--provider', 'scripted', '--script', 'none.yaml'], { input: 'a'.repeat(17 * 1024 * 1024) });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('unattended: standard input holds more than 16 MB, far more than a model can read as a prompt');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('bytes that are no text (a NUL: an image or an archive piped in) are an input error, not replacement characters sent to the model', async () => {
    const r = await cli(['-p', 'what is this', '--provider', 'scripted', '--script', 'none.yaml'], { input: 'PNG\r\n\x1a\n\0\0\0\rIHDR' });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('unattended: standard input is not text (it holds NUL bytes: an image or an archive?)');
  });

  it('text in another encoding (a diff of Latin-1 files) is refused where its first such byte is, not sent with its letters replaced', async () => {
    const diff = Buffer.concat([Buffer.from('--- a/names.txt\n+++ b/names.txt\n@@ -1 +1 @@\n-Ren'), Buffer.from([0xe9]), Buffer.from('\n+Ren'), Buffer.from([0xe9]), Buffer.from(' Magritte\n')]);
    const r = await cli(['-p', 'review this diff', '--provider', 'scripted', '--script', 'none.yaml'], { input: diff });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('unattended: standard input is not UTF-8 text (byte 0xe9 at line 4, column 5)');
    expect(r.stderr).toContain('iconv -f latin1 -t utf-8');
    // Valid UTF-8 with the same letter is prompt text as before.
    const ok = await cli(['-p', 'review this diff', '--provider', 'scripted', '--script', 'none.yaml'], { input: '-René\n' });
    expect(ok.stderr).not.toContain('not UTF-8');
  });
});

describe('piped input refused, for a script that parses the output', () => {
  it('--output-format json prints the refused run\'s report (exit 42, the error), stream-json its init and result', async () => {
    const latin1 = Buffer.concat([Buffer.from('-Ren'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const args = ['-p', 'review this diff', '--provider', 'scripted', '--script', 'none.yaml'];
    const json = await cli([...args, '--output-format', 'json'], { input: latin1 });
    expect(json.code).toBe(42);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'error', exit_code: 42, error: expect.stringContaining('standard input is not UTF-8 text') });
    const stream = await cli([...args, '--output-format', 'stream-json'], { input: 'a'.repeat(17 * 1024 * 1024) });
    expect(stream.code).toBe(42);
    const lines = stream.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ type: 'result', is_error: true, exit_code: 42 });
    expect(String(lines.at(-1)!.errors ?? lines.at(-1)!.result)).toContain('standard input holds more than 16 MB');
  });
});
