// `run --continue` from a transcript changed after its run (by hand, or by a tool): an event with a
// field of the wrong type is left out of the conversation and named, as `unattended report` skips
// it; a run_start or invocation that cannot be read is refused, saying which field is wrong. Never
// a crash, never a message that blames an older version for a damaged record.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { messageTexts, runInProcess } from './in-process.js';

afterAll(() => removeTempDirs());

describe('run --continue from a damaged transcript', () => {
  let ws: string;
  let lines: any[];
  beforeAll(async () => {
    ws = tempDir('unattended-continue-damaged-');
    fs.writeFileSync(path.join(ws, 'README.md'), '# app\n');
    const first = path.join(ws, 'first');
    const r = await runInProcess(`unattended -p "Look" --tools read_file --out ${first}`, {
      cwd: ws,
      replies: [{ calls: [{ name: 'read_file', args: { absolute_path: `${ws}/README.md` } }] }, { text: 'Seen.' }],
    });
    expect(r.code).toBe(0);
    lines = fs.readFileSync(path.join(first, 'transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  });

  /** A copy of the first run with one event changed; returns its directory and the changed line's number. */
  const damaged = (type: string, change: (event: any) => void): { dir: string; line: number } => {
    const dir = tempDir('unattended-damaged-run-');
    const copy = structuredClone(lines);
    const index = copy.findIndex((e) => e.type === type);
    change(copy[index]);
    fs.writeFileSync(path.join(dir, 'transcript.jsonl'), copy.map((e) => JSON.stringify(e)).join('\n') + '\n');
    return { dir, line: index + 1 };
  };

  it('the built CLI goes on from a transcript whose function_calls is no list, naming the line (no crash)', async () => {
    const { dir, line } = damaged('model_response', (e) => (e.function_calls = 'notalist'));
    const gemini = await startFakeGemini([{ text: 'Went on.' }]);
    try {
      const r = await cli(['run', '--continue', dir, '-p', 'Go on', '--out', path.join(dir, 'next')], { cwd: ws, env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url } });
      expect([r.code, r.stderr]).toEqual([0, expect.stringContaining(`line ${line} (model_response: function_calls is not a list)`)]);
      expect(r.stderr).not.toContain('unexpected error');
    } finally {
      await gemini.close();
    }
  });

  it.each([
    ['function_calls is not a list', 'model_response', (e: any) => (e.function_calls = 'notalist')],
    ['function_calls[0].name is not a string', 'model_response', (e: any) => (e.function_calls = [{ name: 7, args: {} }])],
    ['function_calls[0].args is not an object', 'model_response', (e: any) => (e.function_calls = [{ name: 'read_file', args: 'x' }])],
    ['text is not a string', 'model_response', (e: any) => (e.text = 5)],
    ['llm_content[0] is not an object', 'tool_result', (e: any) => (e.llm_content = [null])],
    ['call_id is not a string', 'tool_result', (e: any) => (e.call_id = { id: 1 })],
  ])('an event whose %s (%s) is left out and named; the run goes on', async (problem, type, change) => {
    const { dir, line } = damaged(type, change);
    const out = path.join(dir, 'next');
    const r = await runInProcess(`unattended run --continue ${dir} -p "Go on" --out ${out}`, { cwd: ws, replies: [{ text: 'Went on.' }] });
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining(`line ${line} (${type}: ${problem})`)]);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.warnings).toContainEqual(expect.stringContaining(`events with a field of the wrong type`));
    expect(report.warnings).toContainEqual(expect.stringContaining(`${path.join(dir, 'transcript.jsonl')}: line ${line} (${type}: ${problem})`));
    const sent = messageTexts(r.requests[0]!.body);
    expect(sent[0]).toEqual({ role: 'user', text: 'Look' });
    expect(sent.at(-1)).toEqual({ role: 'user', text: 'Go on' });
  });

  it.each([
    ['continued_from is not an object', (e: any) => (e.continued_from = 'oops')],
    ['continued_from.transcript is not a string', (e: any) => (e.continued_from = { run_id: 'x', transcript: null })],
    ['continued_from.run_id is missing', (e: any) => (e.continued_from = { transcript: null })],
    ['prompt is not a string', (e: any) => (e.prompt = ['Look'])],
    ['context.text is not a string', (e: any) => (e.context = { files: [], text: 12 })],
  ])('a run_start whose %s is refused, naming the field', async (problem, change) => {
    const { dir } = damaged('run_start', change);
    const r = await runInProcess(`unattended run --continue ${dir} -p "Go on" --out ${path.join(dir, 'next')}`, { cwd: ws });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(`its run_start event (line 1) is malformed: ${problem}`)]);
    expect(r.stderr).not.toMatch(/unexpected error|argument must be/);
    expect(r.requests).toHaveLength(0);
  });

  it.each([
    ['invocation is not an object', (e: any) => (e.invocation = 'oops')],
    ['invocation.params is not a list of strings', (e: any) => (e.invocation.params = 'who=bob')],
    ['invocation.overrides.allow is not a list of strings', (e: any) => (e.invocation.overrides.allow = 'shell')],
    ['invocation.overrides.approvl is no flag this version of unattended knows', (e: any) => (e.invocation.overrides.approvl = 'deny')],
    ['invocation.base.cwd is not a string', (e: any) => (e.invocation.base = { cwd: 1 })],
  ])('an invocation whose %s is said to be malformed, not to come from an older version', async (problem, change) => {
    const { dir } = damaged('run_start', change);
    const r = await runInProcess(`unattended run --continue ${dir} -p "Go on" --out ${path.join(dir, 'next')}`, { cwd: ws });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(`record of how it was started is malformed: ${problem}`)]);
    expect(r.stderr).not.toContain('an older unattended wrote it');
    expect(r.requests).toHaveLength(0);
  });
});
