// `--continue` of a plan-mode run goes on from where it was: a run that handed in its plan
// (exit_plan_mode) had every tool offered from then on, and so does the run that continues it; a
// run stopped before its plan is still planning. plan_only ends every run at a plan: continued, it
// plans again (a revised plan), never gets the other tools.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(() => removeTempDirs());

const offered = (request: { body: any }): string[] => (request.body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((d: any) => d.name)).sort();
const system = (request: { body: any }): string => (request.body.systemInstruction?.parts ?? []).map((p: any) => p.text).join('');

function recipe(dir: string, extra: string): string {
  const file = path.join(dir, 'plan.yaml');
  fs.writeFileSync(file, `version: 1\nname: plan\nprovider: gemini\nmodel: gemini-2.5-flash\nworkspace: ${dir}/ws\nprompt: Add a greeting file.\nmode: plan\n${extra}tools: [read_file, write_file]\nconfirmation: {mode: auto-approve}\n`);
  fs.mkdirSync(path.join(dir, 'ws'), { recursive: true });
  return file;
}

describe('--continue of a plan-mode run', () => {
  it('after the plan was handed in: every tool is offered from the first turn, as in the run it continues', async () => {
    const dir = tempDir('unattended-continue-plan-');
    const file = recipe(dir, '');
    const gemini = await startFakeGemini([
      { calls: [{ name: 'exit_plan_mode', args: { plan: '1. write hello.txt' } }] },
      { calls: [{ name: 'write_file', args: { file_path: 'hello.txt', content: 'hello\n' } }] },
      { text: 'Wrote hello.txt.' },
      // The continued run: the plan is carried out already, so the follow-up is plain work.
      { calls: [{ name: 'write_file', args: { file_path: 'bye.txt', content: 'bye\n' } }] },
      { text: 'Wrote bye.txt too.' },
      // A continuation of the continuation: the chain's plan is still handed in.
      { text: 'Nothing more to do.' },
    ]);
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
      const first = path.join(dir, 'first');
      expect((await cli(['run', file, '--out', first], { cwd: dir, env })).code).toBe(0);
      const next = path.join(dir, 'next');
      const r = await cli(['--continue', first, '-p', 'Also add bye.txt', '--out', next], { cwd: dir, env });
      expect([r.code, r.stdout.trim()], r.stderr).toEqual([0, 'Wrote bye.txt too.']);
      expect(fs.readFileSync(path.join(dir, 'ws/bye.txt'), 'utf8')).toBe('bye\n');
      // Offered as the first run offered them after its plan: no plan mode again.
      expect(offered(gemini.requests[3]!)).toEqual(offered(gemini.requests[2]!));
      expect(offered(gemini.requests[3]!)).toContain('write_file');
      expect(system(gemini.requests[3]!)).not.toContain('This run starts in plan mode');
      const { report } = readRun(next);
      expect(report).toMatchObject({ status: 'success', files_changed: expect.arrayContaining([expect.objectContaining({ path: 'bye.txt' })]) });
      const third = await cli(['--continue', next, '-p', 'Anything else?', '--out', path.join(dir, 'third')], { cwd: dir, env });
      expect([third.code, third.stdout.trim()], third.stderr).toEqual([0, 'Nothing more to do.']);
      expect(offered(gemini.requests[5]!)).toEqual(offered(gemini.requests[2]!));
    } finally {
      await gemini.close();
    }
  });

  it('before the plan was handed in (the run was stopped while planning): still in plan mode', async () => {
    const dir = tempDir('unattended-continue-planning-');
    const file = recipe(dir, 'limits: {max_turns: 1}\n');
    const gemini = await startFakeGemini([
      { calls: [{ name: 'read_file', args: { file_path: 'nothing.txt' } }] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: '1. write hello.txt' } }] },
      { text: 'Planned.' },
    ]);
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
      const first = path.join(dir, 'first');
      expect((await cli(['run', file, '--out', first], { cwd: dir, env })).code).toBe(53);
      const next = path.join(dir, 'next');
      const r = await cli(['--continue', first, '-p', 'Go on', '--out', next, '--max-turns', '5'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
      expect(offered(gemini.requests[1]!)).toEqual(['exit_plan_mode', 'read_file']);
      expect(readRun(next).report.plan).toBe('1. write hello.txt');
    } finally {
      await gemini.close();
    }
  });

  it('plan_only: a continued run plans again, with the read-only tools alone', async () => {
    const dir = tempDir('unattended-continue-plan-only-');
    const file = recipe(dir, 'plan_only: true\n');
    const gemini = await startFakeGemini([
      { calls: [{ name: 'exit_plan_mode', args: { plan: '1. write hello.txt' } }] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: '1. write hello.txt\n2. write bye.txt' } }] },
    ]);
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
      const first = path.join(dir, 'first');
      expect((await cli(['run', file, '--out', first], { cwd: dir, env })).code).toBe(0);
      const next = path.join(dir, 'next');
      const r = await cli(['--continue', first, '-p', 'Also plan bye.txt', '--out', next], { cwd: dir, env });
      expect([r.code, r.stdout.trim()], r.stderr).toEqual([0, '1. write hello.txt\n2. write bye.txt']);
      expect(offered(gemini.requests[1]!)).toEqual(['exit_plan_mode', 'read_file']);
      expect(fs.existsSync(path.join(dir, 'ws/hello.txt'))).toBe(false);
    } finally {
      await gemini.close();
    }
  });
});
