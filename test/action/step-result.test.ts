// report.json -> outputs, annotations and the step's exit code, for every way a run can end.
import { describe, expect, it } from 'vitest';
import { stepResult } from '../../src/action/step-result.js';
import type { Denial, Report } from '../../src/report/report.js';

function report(over: Partial<Report> = {}): Report {
  return {
    run_id: 'r1',
    status: 'success',
    exit_code: 0,
    recipe: { name: 'probe', file: null },
    provider: 'scripted',
    model: 'scripted',
    workspace: '/ws',
    started_at: '',
    ended_at: '',
    duration_ms: 1,
    final_answer: 'Done.',
    structured_output: null,
    error: null,
    limit: null,
    turns: 1,
    tool_calls: { total: 0, by_tool: {} },
    denials: [],
    usage: { input: 1, output: 1, total: 2, cached: 0 },
    files_changed: [],
    warnings: [],
    transcript: '/out/transcript.jsonl',
    ...over,
  } as Report;
}

const denial = (n: number): Denial => ({ turn: n, tool: 'shell', args: { command: `rm -rf /${n}\nnext` }, reason: 'not allowed', rule: n === 1 ? 'shell:rm *' : null });
const ctx = { outDir: '/out' };
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('stepResult', () => {
  it.each([
    ['a success', report(), 0, 0, []],
    ['a denied run', report({ status: 'denied', denials: [denial(1)] }), 0, 0, ['warning']],
    // fail-on-denial reaches the CLI as --fail-on-denial: the run itself exits 57.
    ['a denied run with fail-on-denial', report({ status: 'denied', exit_code: 57, denials: [denial(1)], error: 'the policy denied a tool call, and fail_on_denial is set' }), 57, 57, ['warning', 'error']],
    ['failed checks', report({ status: 'check_failed', exit_code: 56, error: 'success check failed: `npm test` exit 1' }), 56, 56, ['error']],
    ['a turn limit', report({ status: 'limit', exit_code: 53, error: 'turn limit 2 reached' }), 53, 53, ['error']],
    ['an auth failure', report({ status: 'failed', exit_code: 41, error: 'key rejected' }), 41, 41, ['error']],
  ])('%s', (_, r, cliExitCode, exitCode, kinds) => {
    const result = stepResult(r, { ...ctx, cliExitCode });
    expect(result.exitCode).toBe(exitCode);
    expect(lines(result.annotations).map((l) => /^::(\w+)/.exec(l)![1])).toEqual(kinds);
    expect(result.outputs['exit-code']).toBe(String(r.exit_code));
  });

  it('a run that exited 54 after a report.json saying success (its report.md did not fit): the outputs say error, exit 54', () => {
    const result = stepResult(report(), { ...ctx, cliExitCode: 54 });
    expect(result.exitCode).toBe(54);
    expect(result.outputs.status).toBe('error');
    expect(result.outputs['exit-code']).toBe('54');
    expect(result.annotations).toMatch(/^::error title=unattended%3A run error \(exit 54\)::the run ended success \(exit 0\), as its report.json says, but exited 54: its record could not be written whole/);
  });

  it('carries the error, the structured output as JSON and the changed files one a line', () => {
    const r = report({
      status: 'failed',
      exit_code: 1,
      error: 'model error: 500\nafter 3 retries',
      structured_output: { labels: ['bug'], priority: 'p2' },
      files_changed: [
        { path: 'src/a.ts', status: 'modified', diff: '' },
        { path: 'docs/new file.md', status: 'added', diff: '' },
      ],
    });
    const result = stepResult(r, { ...ctx, cliExitCode: 1 });
    expect(result.annotations).toBe('::error title=unattended%3A run failed (exit 1)::model error: 500%0Aafter 3 retries\n');
    expect(JSON.parse(result.outputs['structured-output']!)).toEqual({ labels: ['bug'], priority: 'p2' });
    expect(result.outputs['changed-files']).toBe('src/a.ts\ndocs/new file.md');
    expect(result.outputs['report-path']).toBe('/out/report.json');
  });

  it('hints at the api-key input when authentication failed without one', () => {
    const r = report({ status: 'error', exit_code: 41, error: 'GEMINI_API_KEY is not set' });
    expect(stepResult(r, { ...ctx, cliExitCode: 41, apiKeyGiven: false }).annotations).toContain('GEMINI_API_KEY is not set (set the api-key input from a secret');
    expect(stepResult(r, { ...ctx, cliExitCode: 41, apiKeyGiven: true }).annotations).not.toContain('api-key input');
  });

  it('annotates nine denials on one line each, then says how many more', () => {
    const denials = Array.from({ length: 12 }, (_, i) => denial(i + 1));
    const result = stepResult(report({ status: 'denied', denials }), { ...ctx, cliExitCode: 0 });
    const warnings = lines(result.annotations);
    expect(warnings).toHaveLength(10);
    expect(warnings[0]).toBe('::warning title=unattended%3A policy denied shell::turn 1: rm -rf /1 next: not allowed (rule shell:rm *)');
    expect(warnings[9]).toBe('::warning title=unattended%3A more policy denials::3 more policy denials are listed in the report');
  });

  it.each([
    ['12 denials, 5 report warnings', 12, 5, 6, '6 more'],
    ['12 denials, 1 report warning', 12, 1, 8, '4 more'],
    ['7 denials, 3 report warnings', 7, 3, 7, null],
  ])('keeps within GitHub’s ten warnings a step, the report’s own warnings included (%s)', (_case, denialCount, warningCount, shownDenials, more) => {
    const denials = Array.from({ length: denialCount }, (_, i) => denial(i + 1));
    const warnings = Array.from({ length: warningCount }, (_, i) => `report warning ${i + 1}`);
    const annotated = lines(stepResult(report({ status: 'denied', denials, warnings }), { ...ctx, cliExitCode: 0 }).annotations);
    expect(annotated.length).toBeLessThanOrEqual(10);
    expect(annotated.filter((l) => l.includes('policy denied shell'))).toHaveLength(shownDenials);
    expect(annotated.filter((l) => l.includes('more policy denials')).map((l) => l.split('::').pop())).toEqual(more ? [`${more} policy denials are listed in the report`] : []);
    expect(annotated.filter((l) => l.startsWith('::warning title=unattended::'))).toEqual(warnings.slice(0, 3).map((w) => `::warning title=unattended::${w}`));
  });

  it('fails the step when the run left no report, even if the CLI exited 0', () => {
    const result = stepResult(null, { ...ctx, cliExitCode: 0 });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'error', 'exit-code': '1', 'report-path': '', 'run-dir': '/out' });
    expect(result.annotations).toMatch(/^::error title=unattended%3A run error \(exit 1\)::the run left no report/);
  });
});

describe('stepResult: cost-usd', () => {
  it('is the report cost in dollars, and empty when no price was known', () => {
    expect(stepResult(report({ usage: { input: 1000, output: 10, total: 1010, cost_usd: 0.003125 } }), { ...ctx, cliExitCode: 0 }).outputs['cost-usd']).toBe('0.003125');
    expect(stepResult(report(), { ...ctx, cliExitCode: 0 }).outputs['cost-usd']).toBe('');
    // A plain decimal a shell can compare, never `4.5e-7`.
    expect(stepResult(report({ usage: { input: 3, output: 0, total: 3, cost_usd: 4.5e-7 } }), { ...ctx, cliExitCode: 0 }).outputs['cost-usd']).toBe('0.00000045');
    expect(stepResult(report({ usage: { input: 0, output: 0, total: 0, cost_usd: 0 } }), { ...ctx, cliExitCode: 0 }).outputs['cost-usd']).toBe('0');
    expect(stepResult(report({ usage: { input: 9, output: 9, total: 18, cost_usd: 12 } }), { ...ctx, cliExitCode: 0 }).outputs['cost-usd']).toBe('12');
  });
});
