// Structured output through the built CLI: a final answer that is JSON valid against output.schema,
// sent back with what is wrong a bounded number of times, and printed in the JSON report.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { cleanupTempDirs, geminiEnv, lastUserText, tempDir, type Turn, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const SCHEMA = {
  type: 'object',
  required: ['verdict'],
  additionalProperties: false,
  properties: { verdict: { enum: ['ok', 'broken'] }, count: { type: 'integer' } },
};
const recipe = (extra: Record<string, unknown> = {}) => ({
  prompt: 'Is the build ok?',
  tools: ['ls'],
  confirmation: { mode: 'deny' },
  output: { schema: SCHEMA, max_attempts: 3 },
  ...extra,
});

describe('structured output', () => {
  it('accepts a valid answer the first time (a ```json fence is fine) and prints it in the JSON report', async () => {
    const { file, out } = writeRecipe(recipe(), [{ text: 'Here it is:\n```json\n{"verdict": "ok", "count": 2}\n```' }]);
    const r = await cli(['run', file, '--out', out, '--output-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.structured_output).toEqual({ verdict: 'ok', count: 2 });
    expect(printed.status).toBe('success');
    const { report, reportMd, events } = readRun(out);
    expect(report.structured_output).toEqual({ verdict: 'ok', count: 2 });
    expect(reportMd).toContain('## Structured output');
    expect(events.some((e) => e.type === 'answer_rejected')).toBe(false);
  });

  it('sends invalid answers back with what is wrong, and succeeds with the corrected one', async () => {
    fake = await startFakeGemini([{ text: 'All fine!' }, { text: '{"verdict": "maybe"}' }, { text: '{"verdict": "broken", "count": 1}' }]);
    const { file, out } = writeRecipe(recipe({ provider: 'gemini' }));
    const r = await cliInProcess(['run', file, '--out', out], { env: geminiEnv(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('{"verdict": "broken", "count": 1}');

    // The schema is in the instructions, compactly; each rejection says what is wrong.
    const system = fake.requests[0]!.body.systemInstruction.parts[0].text as string;
    expect(system).toContain(JSON.stringify(SCHEMA));
    expect(lastUserText(fake.requests[1]!.body)).toMatch(/^Your final answer does not match the required JSON Schema: the answer is not JSON .*\(attempt 2 of 3\)\.$/);
    expect(lastUserText(fake.requests[2]!.body)).toMatch(/'verdict' must be one of "ok", "broken".*\(attempt 3 of 3\)/);

    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'success', structured_output: { verdict: 'broken', count: 1 }, turns: 3 });
    expect(events.filter((e) => e.type === 'answer_rejected').map((e) => e.attempt)).toEqual([1, 2]);
  });

  it.each([
    ['invalid every time', 3, [{ text: 'fine' }, { text: '{"verdict": 1}' }, { text: '{"verdict": "ok", "extra": true}' }], /after 3 attempts: unknown property 'extra'/],
    ['max_attempts 1: no second chance', 1, [{ text: '[]' }], /after 1 attempt: the answer must be object/],
  ] as Array<[string, number, Turn[], RegExp]>)('fails the run (exit 1) when the answer stays invalid: %s', async (_name, attempts, turns, error) => {
    const { file, out } = writeRecipe(recipe({ output: { schema: SCHEMA, max_attempts: attempts } }), turns);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(error);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'failed', exit_code: 1, final_answer: null, structured_output: null, turns: attempts });
    expect(report.error).toMatch(/^the final answer does not match output\.schema/);
  });

  it('takes a schema that names its dialect: 2020-12 (zod 4 writes it) is checked as 2020-12; draft-04 is refused at start (52)', async () => {
    const schema2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['labels'],
      properties: { labels: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } } },
    };
    // prefixItems: a string first, then integers (draft-07 would read items as every element's schema).
    const { file, out } = writeRecipe(recipe({ output: { schema: schema2020, max_attempts: 2 } }), [{ text: '{"labels": ["bug", "x"]}' }, { text: '{"labels": ["bug", 2]}' }]);
    const r = await cliInProcess(['run', file, '--out', out, '--output-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toEqual({ labels: ['bug', 2] });
    expect(readRun(out).events.find((e) => e.type === 'answer_rejected')?.reason).toMatch(/'labels.1' must be integer/);

    const old = writeRecipe(recipe({ output: { schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } } }), [{ text: '{}' }]);
    const refused = await cliInProcess(['run', old.file, '--out', old.out]);
    expect(refused.code).toBe(52);
    expect(refused.stderr).toMatch(/recipe\.yaml:\d+:\d+: output\.schema is not a usable JSON Schema: \$schema names the dialect "http:\/\/json-schema\.org\/draft-04\/schema#", which the runner does not check: name draft-07, 2019-09 or 2020-12/);
  });

  it('checks `format` in the answer: a date that is not one, an address that is not one, go back; a format nobody defines is named, not silently passed', async () => {
    const schema = {
      type: 'object',
      required: ['due', 'owner', 'at'],
      properties: { due: { type: 'string', format: 'date' }, owner: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, ticket: { type: 'string', format: 'jira-key' } },
    };
    const turns = [{ text: '{"due": "next Friday", "owner": "the team", "at": "2026-02-30T10:00:00Z", "ticket": "?"}' }, { text: '{"due": "2026-12-04", "owner": "ops@example.com", "at": "2026-11-29T10:00:00Z", "ticket": "?"}' }];
    const { file, out } = writeRecipe(recipe({ output: { schema, max_attempts: 2 } }), turns);
    const r = await cliInProcess(['run', file, '--out', out, '--output-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toMatchObject({ due: '2026-12-04', owner: 'ops@example.com' });
    const { events } = readRun(out);
    const reason = events.find((e) => e.type === 'answer_rejected')?.reason as string;
    expect(reason).toContain(`'due' must match format "date"`);
    expect(reason).toContain(`'owner' must match format "email"`);
    expect(reason).toContain(`'at' must match format "date-time"`); // February has no 30th
    // The format no library defines: said once, as a warning of the run, in the runner's words.
    const warnings = events.filter((e) => e.type === 'warning').map((e) => e.message as string);
    expect(warnings).toEqual([expect.stringMatching(/^output\.schema: the format "jira-key" at 'properties\.ticket' is not checked/)]);
    expect(r.stderr).not.toContain('unknown format'); // Ajv's own console note

    const validated = await cliInProcess(['validate', file]);
    expect(validated.code).toBe(0);
    expect(validated.stdout + validated.stderr).toMatch(/warning: output\.schema: the format "jira-key" at 'properties\.ticket' is not checked/);
    expect(validated.stdout + validated.stderr).not.toContain('unknown format');
  });

  it.each([
    ['a success check that fails', { checks: { commands: ['echo "2 tests failed"; exit 1'] } }, 56, 'check_failed', [{ text: '{"verdict": "ok"}' }]],
    [
      'every edit it tried failed',
      { tools: ['edit'], confirmation: { mode: 'auto-approve' } },
      1,
      'failed',
      [{ calls: [{ name: 'edit', args: { file_path: 'build.txt', old_string: 'red', new_string: 'green' } }] }, { text: '{"verdict": "ok"}' }],
    ],
  ] as Array<[string, Record<string, unknown>, number, string, Turn[]]>)('a valid answer of a run that did not succeed (%s) is no structured_output, as it is no final_answer', async (_name, extra, code, status, turns) => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'build.txt'), 'build: broken\n');
    const { file, out } = writeRecipe(recipe({ workspace: ws, ...extra }), turns);
    const r = await cliInProcess(['run', file, '--out', out, '--output-format', 'json']);
    expect(r.code, r.stderr).toBe(code);
    // What a later step reads: stdout, report.json, report.md, and the peer stream's result.
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ status, final_answer: null, structured_output: null });
    const { report, reportMd, events } = readRun(out);
    expect(report).toMatchObject({ status, final_answer: null, structured_output: null });
    expect(reportMd).not.toContain('## Structured output');
    // The transcript keeps what the model answered.
    expect(events.find((e) => e.type === 'structured_output')?.value).toEqual({ verdict: 'ok' });
    const streamed = await cliInProcess(['run', file, '--out', `${out}-stream`, '--output-format', 'stream-json']);
    const result = JSON.parse(streamed.stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', is_error: true });
    expect(result.structured_output).toBeUndefined();
  });
});
