// Status says what happened (issue 10 §1): a final answer cut off by the output-token limit,
// withheld by a safety filter or refused is a failure with the reason in the report; tool failures
// are counted by tool and by error type; a run whose every edit failed is not a success.
// The built CLI against fake Gemini and OpenAI endpoints (the real SDKs) and the scripted provider.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
let openai: FakeOpenAI | undefined;
let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await gemini?.close();
  await openai?.close();
  await anthropic?.close();
  gemini = openai = anthropic = undefined;
});

const geminiEnv = (url: string) => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url });

/** Runs scripted turns in a fresh directory; returns the result and the run's files. */
async function scripted(turns: unknown[], extra: string[], ws?: string) {
  const dir = tempDir();
  const workspace = ws ?? path.join(dir, 'ws');
  if (!ws) fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const out = path.join(dir, 'out');
  const r = await cliInProcess(['run', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--workspace', workspace, '--out', out, '--prompt', 'go', ...extra]);
  return { r, out, ...readRun(out) };
}

describe('a final answer that is not whole', () => {
  it('Gemini MAX_TOKENS: the run fails (exit 1), the report names the finish reason', async () => {
    const ws = await fixtureWorkspace('rename');
    gemini = await startFakeGemini([{ text: 'The changes rename addNumbers in three fil', finishReason: 'MAX_TOKENS' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cli(['run', '--prompt', 'Summarize', '--workspace', ws, '--out', out], { env: geminiEnv(gemini.url) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(''); // no half answer where a script expects the answer
    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.final_answer).toBeNull();
    // No cap was sent: Gemini's default is the model's own limit, which no setting raises.
    expect(report.error).toMatch(/cut off \(finish reason MAX_TOKENS\): it is incomplete; no provider_options\.max_output_tokens was set, so the model's own limit on one answer .* ended it: no setting raises it/);
    expect(report.error).not.toMatch(/raise provider_options/);
    expect(report.finish).toEqual({ reason: 'max_tokens', raw: 'MAX_TOKENS' });
    expect(reportMd).toMatch(/failed \(exit 1\)/);
    expect(reportMd).toMatch(/last turn ended \| max_tokens/);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed', exit_code: 1 });
    expect(r.stderr).toMatch(/unattended: the final answer was cut off/);
  });

  it('Gemini MAX_TOKENS under the cap the recipe set: raise it', async () => {
    const ws = await fixtureWorkspace('rename');
    gemini = await startFakeGemini([{ text: 'The changes rename addNumbers in three fil', finishReason: 'MAX_TOKENS' }]);
    const dir = tempDir();
    const recipe = path.join(dir, 'r.yaml');
    fs.writeFileSync(recipe, `version: 1\nconfirmation: { mode: deny }\nprompt: Summarize\nworkspace: ${ws}\nprovider_options: { max_output_tokens: 2000 }\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', recipe, '--out', out], { env: geminiEnv(gemini.url) });
    expect(r.code, r.stderr).toBe(1);
    expect(gemini.requests[0]!.body.generationConfig.maxOutputTokens).toBe(2000);
    expect(readRun(out).report.error).toMatch(/cut off by the model's output-token limit \(finish reason MAX_TOKENS\): it is incomplete; raise provider_options\.max_output_tokens$/);
  });

  it('OpenAI finish_reason length: the same', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ text: 'Here is the plan: first, we', finishReason: 'length' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'openai', '--model', 'qwen3', '--prompt', 'Plan', '--workspace', ws, '--out', out], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    });
    expect(r.code, r.stderr).toBe(1);
    const { report } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.finish).toEqual({ reason: 'max_tokens', raw: 'length' });
    // A local server asked with no cap: its own limit ended the answer, not one the user set.
    expect(report.error).toMatch(/cut off \(finish reason length\): it is incomplete; no provider_options\.max_output_tokens was set, so the server's own limit ended it/);
  });

  it("OpenAI finish_reason length on a self-hosted server whose answer filled most of its window: the server's limits are named, not a cap the user never set", async () => {
    const ws = await fixtureWorkspace('rename');
    // vLLM with no max_tokens: the answer ran on until request and answer filled its 4,500-token window.
    const long = 'and then the next step, '.repeat(400);
    openai = await startFakeOpenAI([{ text: long, finishReason: 'length', usage: { prompt_tokens: 1500, completion_tokens: 3000, total_tokens: 4500 } }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'openai', '--model', 'qwen3', '--prompt', 'Plan', '--workspace', ws, '--out', out], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    });
    expect(r.code, r.stderr).toBe(1);
    const { report } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.error).not.toMatch(/raise provider_options\.max_output_tokens/);
    expect(report.error).toMatch(/no provider_options\.max_output_tokens was set, so the server's own limit ended it: .*num_predict.*--max-model-len/);
    expect(r.stderr).toMatch(/no provider_options\.max_output_tokens was set/);
  });

  it("Anthropic's model_context_window_exceeded after some text: the window ended it, so raising the output cap is not what to do", async () => {
    const ws = await fixtureWorkspace('rename');
    anthropic = await startFakeAnthropic([{ text: 'Here is the plan: first, we', stopReason: 'model_context_window_exceeded' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'anthropic', '--prompt', 'Plan', '--workspace', ws, '--out', out], {
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url },
    });
    expect(r.code, r.stderr).toBe(1);
    const { report } = readRun(out);
    expect(report.finish).toEqual({ reason: 'max_tokens', raw: 'model_context_window_exceeded' });
    expect(report.error).not.toMatch(/raise provider_options\.max_output_tokens/);
    expect(report.error).toMatch(/cut off \(finish reason model_context_window_exceeded\): it is incomplete; the context window filled before it ended, not an output cap: .*limits\.compact_at/);
  });

  it("Mistral's finish_reason model_length after some text: the same", async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ text: 'Here is the plan: first, we', finishReason: 'model_length' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'openai', '--model', 'mistral-large-latest', '--prompt', 'Plan', '--workspace', ws, '--out', out], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    });
    expect(r.code, r.stderr).toBe(1);
    const { report } = readRun(out);
    expect(report.finish).toEqual({ reason: 'max_tokens', raw: 'model_length' });
    expect(report.error).not.toMatch(/max_output_tokens was set|raise provider_options\.max_output_tokens/);
    expect(report.error).toMatch(/the context window filled before it ended, not an output cap/);
  });

  it('OpenAI finish_reason length under the cap the recipe set: raise it', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ text: 'Here is the plan: first, we', finishReason: 'length' }]);
    const dir = tempDir();
    const recipe = path.join(dir, 'r.yaml');
    fs.writeFileSync(recipe, `version: 1\nconfirmation: { mode: deny }\nprompt: Plan\nprovider: openai\nmodel: qwen3\nbase_url: ${openai.url}\nworkspace: ${ws}\nprovider_options: { max_output_tokens: 2000 }\n`);
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', recipe, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
    expect(r.code, r.stderr).toBe(1);
    expect(openai.requests[0]!.body.max_tokens).toBe(2000);
    expect(readRun(out).report.error).toMatch(/cut off by the model's output-token limit \(finish reason length\): it is incomplete; raise provider_options\.max_output_tokens$/);
  });

  it('a safety block after some text is a failure, not a success with half an answer', async () => {
    const ws = await fixtureWorkspace('rename');
    gemini = await startFakeGemini([{ text: 'Sure, the first step is', finishReason: 'SAFETY' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--prompt', 'Explain', '--workspace', ws, '--out', out], { env: geminiEnv(gemini.url) });
    expect(r.code).toBe(1);
    const { report } = readRun(out);
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/safety filter.*SAFETY/);
    expect(report.finish.reason).toBe('safety');
  });

  it('Gemini losing the tool call it was making (MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL) after some text is asked once more, then a failure', async () => {
    for (const finishReason of ['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']) {
      const ws = await fixtureWorkspace('rename');
      gemini = await startFakeGemini([
        { text: 'I will now edit src/math.js.', finishReason },
        { text: 'I will now edit src/math.js.', finishReason },
      ]);
      const out = path.join(tempDir(), 'run');
      const r = await cliInProcess(['run', '--prompt', 'Rename', '--workspace', ws, '--out', out], { env: geminiEnv(gemini.url) });
      expect(r.code).toBe(1);
      const { report } = readRun(out);
      expect(report.status).toBe('failed');
      expect(report.final_answer).toBeNull();
      expect(report.error).toContain(`finishReason ${finishReason}: the tool call it was making was lost`);
      expect(gemini.requests).toHaveLength(2);
      await gemini.close();
      gemini = undefined;
    }
  });

  it('a later turn blocked with no content leaves no stale finish of an earlier turn in the report', async () => {
    const ws = await fixtureWorkspace('rename');
    gemini = await startFakeGemini([{ calls: [{ name: 'ls', args: { path: '.' } }] }, { finishReason: 'SAFETY' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--prompt', 'Look', '--workspace', ws, '--out', out, '--tools', 'ls'], { env: geminiEnv(gemini.url) });
    expect(r.code).toBe(1);
    const { report } = readRun(out);
    expect(report.error).toMatch(/refused: .*finishReason SAFETY/);
    expect(report.finish).toBeNull();
  });

  it('OpenAI content_filter with text, recitation and refusal (replayed) fail with their reason', async () => {
    const ws = await fixtureWorkspace('rename');
    openai = await startFakeOpenAI([{ text: 'Partial', finishReason: 'content_filter' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'openai', '--model', 'm', '--prompt', 'x', '--workspace', ws, '--out', out], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    });
    expect(r.code).toBe(1);
    expect(readRun(out).report.finish.reason).toBe('safety');

    for (const [finish, pattern] of [['recitation', /reciting/], ['refusal', /refused/]] as const) {
      const run = await scripted([{ text: 'I will not', finish }], []);
      expect(run.r.code).toBe(1);
      expect(run.report.status).toBe('failed');
      expect(run.report.error).toMatch(pattern);
    }
  });

  it('an unknown finish reason is taken, with a warning in the report', async () => {
    openai = await startFakeOpenAI([{ text: 'All fine.', finishReason: 'content_moderated_v9' }]);
    const out = path.join(tempDir(), 'run');
    const r = await cliInProcess(['run', '--provider', 'openai', '--model', 'm', '--prompt', 'x', '--workspace', tempDir(), '--out', out], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    });
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    expect(report.finish).toEqual({ reason: 'other', raw: 'content_moderated_v9' });
    expect(report.warnings).toEqual([expect.stringMatching(/finish reason the runner does not know \(content_moderated_v9\)/)]);
  });

  it('a cut-off turn that still called tools goes on: only a final answer is judged', async () => {
    const run = await scripted([{ text: 'Looking', calls: [{ name: 'ls', args: {} }], finish: 'max_tokens' }, { text: 'Nothing here.' }], []);
    expect(run.r.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.report.finish).toEqual({ reason: 'stop', raw: null });
  });
});

describe('tool failures in the report', () => {
  it('are counted by tool and by error type, in report.json and report.md', async () => {
    const ws = await fixtureWorkspace('rename');
    const math = path.join(ws, 'src/math.js');
    const run = await scripted(
      [
        {
          calls: [
            { name: 'edit', args: { file_path: math, old_string: 'no such text', new_string: 'x' } },
            { name: 'read_file', args: { absolute_path: path.join(ws, 'missing.js') } },
            { name: 'edit', args: { file_path: math, old_string: 'still not there', new_string: 'y' } },
            { name: 'edit', args: { file_path: math, old_string: 'function addNumbers', new_string: 'function sumOf' } },
          ],
        },
        { text: 'Renamed it.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(run.r.code).toBe(0);
    const calls = run.report.tool_calls;
    expect(calls.by_tool.edit).toEqual({ success: 1, error: 2, denied: 0, errors_by_type: { edit_no_match: 2 }, truncated: 0 });
    expect(calls.by_tool.read_file).toMatchObject({ error: 1, errors_by_type: { file_not_found: 1 } });
    expect(calls.errors_by_type).toEqual({ edit_no_match: 2, file_not_found: 1 });
    expect(run.reportMd).toContain('| `edit` | 1 | 2 | 0 | edit_no_match ×2 | 0 |');
  });
});

describe('a run whose every edit failed', () => {
  const failingEdits = (file: string) => [
    { calls: [{ name: 'edit', args: { file_path: file, old_string: 'absent', new_string: 'x' } }] },
    // A file where a directory should be: the write fails.
    { calls: [{ name: 'write_file', args: { file_path: path.join(file, 'child.txt'), content: 'x' } }] },
    { calls: [{ name: 'edit', args: { file_path: file, old_string: 'absent again', new_string: 'y' } }] },
    { text: 'I renamed the function everywhere.' },
  ];

  it('ends failed (exit 1), not success, and says why', async () => {
    const ws = await fixtureWorkspace('rename');
    const before = fs.readFileSync(path.join(ws, 'src/math.js'), 'utf8');
    const run = await scripted(failingEdits(path.join(ws, 'src/math.js')), ['--approval', 'auto-approve'], ws);
    expect(run.r.code, run.r.stderr).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toMatch(/every edit the model tried failed \(\d calls: .*edit_no_match ×2.*\) and no file changed/);
    expect(run.report.files_changed).toEqual([]);
    expect(fs.readFileSync(path.join(ws, 'src/math.js'), 'utf8')).toBe(before);
    // The claim is in the transcript, not offered as the run's answer.
    expect(run.report.final_answer).toBeNull();
    expect(run.r.stdout).toBe('');
    expect(run.events.some((e) => e.type === 'model_response' && e.text === 'I renamed the function everywhere.')).toBe(true);
  });

  it('counts edits refused for their parameters (wrong names, nothing to replace) as failed edits too', async () => {
    const ws = await fixtureWorkspace('rename');
    const math = path.join(ws, 'src/math.js');
    const before = fs.readFileSync(math, 'utf8');
    const run = await scripted(
      [
        { calls: [{ name: 'edit', args: { path: math, old: 'function addNumbers', new: 'function sumOf' } }] },
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'function addNumbers', new_string: 'function addNumbers' } }] },
        { text: 'I renamed the function.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(run.r.code, run.r.stderr).toBe(1);
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toMatch(/every edit the model tried failed \(2 calls: invalid_params ×2\) and no file changed/);
    expect(fs.readFileSync(math, 'utf8')).toBe(before);
  });

  it('counts a write_file of the bytes the file already held as no change: "Fixed it" over an untouched file is no success', async () => {
    const ws = await fixtureWorkspace('rename');
    const math = path.join(ws, 'src/math.js');
    const before = fs.readFileSync(math, 'utf8');
    const same = await scripted([{ calls: [{ name: 'write_file', args: { file_path: math, content: before } }] }, { text: 'I renamed the function.' }], ['--approval', 'auto-approve'], ws);
    expect(same.r.code, same.r.stderr).toBe(1);
    expect(same.report.status).toBe('failed');
    expect(same.report.error).toBe('every edit the model tried changed nothing (1 call: wrote what the file held ×1) and no file changed');
    expect(same.report.final_answer).toBeNull();
    // Beside a failed edit, both are named.
    const mixed = await scripted(
      [
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'absent', new_string: 'x' } }] },
        { calls: [{ name: 'write_file', args: { file_path: math, content: before } }] },
        { text: 'I renamed the function.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(mixed.r.code, mixed.r.stderr).toBe(1);
    expect(mixed.report.error).toMatch(/^every edit the model tried failed or changed nothing \(2 calls: (edit_no_match ×1, wrote what the file held ×1|wrote what the file held ×1, edit_no_match ×1)\) and no file changed$/);
    // One that wrote what a file held and then changed another did its work.
    const other = await scripted(
      [
        { calls: [{ name: 'write_file', args: { file_path: math, content: before } }] },
        { calls: [{ name: 'write_file', args: { file_path: path.join(ws, 'NOTES.md'), content: 'renamed\n' } }] },
        { text: 'Done.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(other.r.code, other.r.stderr).toBe(0);
    expect(other.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['NOTES.md']);
    expect(fs.readFileSync(math, 'utf8')).toBe(before);
  });

  it('a workspace git could not snapshot at the end is said, not reported as "no file changed"', async () => {
    const ws = await fixtureWorkspace('rename');
    for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'init']]) execFileSync('git', args, { cwd: ws });
    const run = await scripted(
      [
        { calls: [{ name: 'shell', args: { command: 'echo changed >> src/math.js' } }] },
        // What a command can do to a repository: the end snapshot has no repository to read.
        { calls: [{ name: 'shell', args: { command: 'mv .git/objects .git/objects.gone' } }] },
        { text: 'Changed it.' },
      ],
      ['--approval', 'auto-approve', '--sandbox', 'off', '--require-changes'],
      ws,
    );
    expect(run.r.code, run.r.stderr).toBe(56);
    expect(run.report.checks).toEqual([expect.objectContaining({ kind: 'require_changes', passed: false, reason: expect.stringContaining('git could not snapshot it') })]);
    expect(run.events.some((e) => e.type === 'warning' && /git could not snapshot the workspace/.test(e.message))).toBe(true);
  });

  it('with checks.require_changes: check_failed, exit 56', async () => {
    const ws = await fixtureWorkspace('rename');
    const run = await scripted(failingEdits(path.join(ws, 'src/math.js')), ['--approval', 'auto-approve', '--require-changes'], ws);
    expect(run.r.code).toBe(56);
    expect(run.report.status).toBe('check_failed');
    expect(run.report.checks).toEqual([expect.objectContaining({ kind: 'require_changes', passed: false, reason: 'no file changed' })]);
  });

  it('is a success when one edit of several worked, or when the run never tried to edit', async () => {
    const ws = await fixtureWorkspace('rename');
    const math = path.join(ws, 'src/math.js');
    const mixed = await scripted(
      [
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'absent', new_string: 'x' } }] },
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'function addNumbers', new_string: 'function sumOf' } }] },
        { text: 'Done.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(mixed.r.code).toBe(0);
    const readOnly = await scripted([{ calls: [{ name: 'read_file', args: { absolute_path: path.join(ws, 'gone.txt') } }] }, { text: 'No such file.' }], [], ws);
    expect(readOnly.r.code).toBe(0);
    expect(readOnly.report.status).toBe('success');
  });

  it("outside git, a sub-agent's failed edits fail the run: its task call is no shell call that may have changed something", async () => {
    const ws = await fixtureWorkspace('rename');
    const math = path.join(ws, 'src/math.js');
    const before = fs.readFileSync(math, 'utf8');
    const run = await scripted(
      [
        { calls: [{ name: 'task', args: { description: 'rename', prompt: 'Rename addNumbers.' } }] },
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'absent', new_string: 'x' } }] },
        { text: 'Renamed.' },
        { text: 'I renamed the function everywhere.' },
      ],
      ['--approval', 'auto-approve', '--tools', 'edit,read_file,task'],
      ws,
    );
    expect(run.r.code, run.r.stderr).toBe(1);
    expect(run.report.error).toBe('every edit the model tried failed (1 call: edit_no_match ×1) and no file changed');
    expect(fs.readFileSync(math, 'utf8')).toBe(before);
    // A sub-agent's shell call that ran is still given the benefit of the doubt, as the agent's own is.
    const shell = await scripted(
      [
        { calls: [{ name: 'task', args: { description: 'rename', prompt: 'Rename addNumbers.' } }] },
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'absent', new_string: 'x' } }] },
        { calls: [{ name: 'shell', args: { command: 'true' } }] },
        { text: 'Renamed.' },
        { text: 'I renamed the function everywhere.' },
      ],
      ['--approval', 'auto-approve', '--tools', 'edit,read_file,shell,task'],
      ws,
    );
    expect(shell.r.code, shell.report.error).toBe(0);
  });

  it('a change made by the shell after failed edits counts (git sees it): success', async () => {
    const ws = await fixtureWorkspace('rename', { git: true });
    const math = path.join(ws, 'src/math.js');
    const run = await scripted(
      [
        { calls: [{ name: 'edit', args: { file_path: math, old_string: 'absent', new_string: 'x' } }] },
        { calls: [{ name: 'shell', args: { command: "sed -i 's/addNumbers/sumOf/' src/math.js" } }] },
        { text: 'Renamed with sed.' },
      ],
      ['--approval', 'auto-approve'],
      ws,
    );
    expect(run.r.code, run.report.error).toBe(0);
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['src/math.js']);
  });
});
