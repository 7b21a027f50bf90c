// Plan mode through the built CLI: read-only tools until exit_plan_mode, the plan in the report,
// every tool from the next turn; plan_only ends the run at the plan.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { cleanupTempDirs, declaredTools, geminiEnv, workspace, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const PLAN = '1. Throw a RangeError in divide() when b is 0.';
const planRecipe = (ws: string, extra: Record<string, unknown> = {}) => ({
  prompt: 'Make divide() refuse a zero divisor.',
  workspace: ws,
  mode: 'plan',
  tools: ['read_file', 'edit', 'todo_write'],
  confirmation: { mode: 'allowlist', allow: [{ edit: 'src/**' }] },
  ...extra,
});
const fix = (ws: string) => ({
  name: 'edit',
  args: { file_path: path.join(ws, 'src/divide.js'), old_string: '  return a / b;', new_string: "  if (b === 0) throw new RangeError('b is 0');\n  return a / b;" },
});

describe('plan mode', () => {
  it('offers read-only tools and exit_plan_mode until the plan is in, then every tool', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe({ ...planRecipe(ws), provider: 'gemini' });
    fake = await startFakeGemini([
      { calls: [fix(ws)] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] },
      { calls: [fix(ws)] },
      { text: 'divide() throws for b = 0 now.' },
    ]);
    const r = await cli(['run', file, '--out', out], { env: geminiEnv(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'src/divide.js'), 'utf8')).toContain('throw new RangeError');

    const offered = fake.requests.map((q) => declaredTools(q.body));
    expect(offered[0]).toEqual(['read_file', 'todo_write', 'exit_plan_mode']);
    expect(offered[1]).toEqual(offered[0]);
    expect(offered[2]).toEqual(['read_file', 'edit', 'todo_write']);
    expect(fake.requests[0]!.body.systemInstruction.parts[0].text).toMatch(/starts in plan mode/);

    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('success');
    expect(report.plan).toBe(PLAN);
    expect(reportMd).toContain(`## Plan\n\n${PLAN}`);
    expect(events.find((e) => e.type === 'plan')).toMatchObject({ turn: 2, plan: PLAN });
    // The edit tried while planning never reached the policy or the file.
    const early = events.find((e) => e.type === 'tool_result' && e.name === 'edit' && e.turn === 1);
    expect(early?.error_type).toBe('invalid_params');
    expect(early?.llm_content).toMatch(/edit is not available in plan mode.*exit_plan_mode/);
    expect(report.tool_calls.by_tool.edit).toEqual({ success: 1, error: 1, denied: 0, errors_by_type: { invalid_params: 1 }, truncated: 0 });
  });

  it('plan_only ends the run successfully at the plan, which is the final answer', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true }), [
      { calls: [{ name: 'read_file', args: { absolute_path: '{{workspace}}/src/divide.js' } }] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] },
      { calls: [fix(ws)] }, // never asked for
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(PLAN);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'success', final_answer: PLAN, plan: PLAN, turns: 2, files_changed: [] });
    expect(fs.readFileSync(path.join(ws, 'src/divide.js'), 'utf8')).not.toContain('RangeError');
  });

  it('plan_only: a call of a held-back tool is told the plan ends the run, not that the tool comes after it', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true }), [{ calls: [fix(ws)] }, { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] }]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const refused = readRun(out).events.find((e) => e.type === 'tool_result' && e.name === 'edit');
    expect(refused?.llm_content).toBe(
      'edit is not available in plan mode: investigate with the read-only tools, then call exit_plan_mode with your plan, which is the result of this run (it ends there, and no other tool runs)',
    );
  });

  it.each([
    ['--require-changes', ['--require-changes']],
    ['--check CMD', ['--check', 'exit 1']],
  ])('a plan_only recipe given success checks by a flag (%s) is refused (exit 52), not a success whose checks never ran', async (_name, flags) => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true }), [{ calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] }]);
    const r = await cliInProcess(['run', file, '--out', out, ...flags]);
    expect(r.code, r.stderr).toBe(52);
    expect(r.stderr).toMatch(/plan_only ends the run with the plan, before the success checks could run/);
    expect(r.stderr).toContain(flags[0]);
    expect(readRun(out).report).toMatchObject({ status: 'error', exit_code: 52, turns: 0 });
  });

  it('a run --continue goes on from a plan_only run with --require-changes or --check is refused (exit 42): it would end at its plan again, its checks never run', async () => {
    const ws = await workspace('plan');
    const plan = { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] };
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true }), [plan, plan]);
    expect((await cliInProcess(['run', file, '--out', out])).code).toBe(0);
    for (const flags of [['--require-changes'], ['--check', 'exit 1']]) {
      const next = `${out}-${flags.length}`;
      const r = await cliInProcess(['run', '--continue', out, '-p', 'Now carry it out.', '--out', next, ...flags]);
      expect(r.code, r.stderr).toBe(42);
      expect(r.stderr).toContain(`${flags[0]}: this run is plan_only (a run --continue goes on from keeps it), so it ends with the plan again before it could apply`);
      expect(readRun(next).report).toMatchObject({ status: 'error', exit_code: 42, turns: 0 });
    }
  });

  it('a plan_only recipe given --output-schema is refused (exit 52), not a success whose answer is no JSON at all', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true }), [{ calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] }]);
    const r = await cliInProcess(['run', file, '--out', out, '--output-schema', '{"type": "object", "required": ["steps"]}']);
    expect(r.code, r.stderr).toBe(52);
    expect(r.stderr).toMatch(/plan_only ends the run with the plan, so --output-schema could never be met/);
    expect(readRun(out).report).toMatchObject({ status: 'error', exit_code: 52, turns: 0, final_answer: null });
  });

  it('an edit plan mode refused is no edit that failed: a plan_only run that tried one ends with its plan', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws, { plan_only: true, tools: ['read_file', 'edit', 'write_file'] }), [
      { calls: [fix(ws), { name: 'write_file', args: { file_path: '{{workspace}}/early.txt', content: 'x' } }] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'success', final_answer: PLAN, error: null });
    const refused = events.filter((e) => e.type === 'tool_call' && e.turn === 1);
    expect(refused.map((e) => e.effect)).toEqual([null, null]);
    expect(events.find((e) => e.type === 'tool_result' && e.name === 'edit')?.llm_content).toMatch(/^edit is not available in plan mode/);
  });

  it('a run that carries its plan out without editing is not failed for the edit plan mode refused', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws), [
      { calls: [fix(ws)] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: PLAN } }] },
      { text: 'divide() already refuses 0: nothing to change.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.status).toBe('success');
  });

  it('tells a model that answers without a plan how plan mode works, once', async () => {
    const ws = await workspace('plan');
    const { file, out } = writeRecipe(planRecipe(ws), [{ text: 'I would add a check.' }, { text: 'Nothing to plan: the check is one line.' }]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'success', final_answer: 'Nothing to plan: the check is one line.', plan: null });
    expect(events.filter((e) => e.type === 'answer_rejected')).toEqual([
      expect.objectContaining({ turn: 1, reason: 'answered in plan mode without calling exit_plan_mode' }),
    ]);
  });
});
