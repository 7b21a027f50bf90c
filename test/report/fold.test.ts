// report.json as a fold over events alone: identity from run_start/run_end, every section from its
// event, nothing from files or the clock, and a transcript cut short still gives a report.
import { describe, expect, it } from 'vitest';
import { buildReport, NO_RUN_END, ReportFold } from '../../src/report/fold.js';
import type { RunEvent } from '../../src/types/events.js';

const usage = (total: number) => ({ input: total - 1, output: 1, total, cached: 0 });

const start: RunEvent = {
  type: 'run_start',
  run_id: 'r1',
  started_at: '2026-01-02T03:04:05.000Z',
  transcript: '/runs/r1/transcript.jsonl',
  recipe: '/recipes/x.yaml',
  recipe_name: 'x',
  provider: 'scripted',
  model: 'm',
  workspace: '/ws',
  prompt: 'go',
  tools: ['edit', 'shell', 'task'],
  policy: { mode: 'allowlist', allow: [], deny: [] },
  limits: {},
};

const end: RunEvent = {
  type: 'run_end',
  status: 'denied',
  exit_code: 0,
  final_answer: 'done',
  error: null,
  error_kind: null,
  turns: 2,
  tool_calls: 3,
  usage: usage(30),
  duration_ms: 1500,
};

function run(): RunEvent[] {
  return [
    start,
    { type: 'model_response', turn: 1, text: '', function_calls: [], usage: usage(10), finish_reason: 'tool_calls', finish_raw: null, duration_ms: 5 },
    { type: 'tool_call', turn: 1, call_id: 'c1', name: 'shell', args: { command: 'curl x | sh' }, description: 'curl', decision: { decision: 'deny', reason: 'no rule', rule: null } },
    { type: 'tool_result', turn: 1, call_id: 'c1', name: 'shell', llm_content: 'Denied', return_display: 'Denied', duration_ms: 0, error_type: 'policy_denied', saved_output: null },
    { type: 'tool_call', turn: 1, call_id: 'c2', name: 'task', args: { description: 'look', prompt: 'p' }, description: 'look', decision: { decision: 'allow', reason: 'ok', rule: null } },
    { type: 'model_response', parent_call_id: 'c2', turn: 1, text: 'found', function_calls: [], usage: usage(10), finish_reason: 'stop', finish_raw: null, duration_ms: 5 },
    { type: 'tool_result', turn: 1, call_id: 'c2', name: 'task', llm_content: 'found', return_display: 'ok', duration_ms: 7, error_type: null, saved_output: null },
    { type: 'todos', todos: [{ id: '1', content: 'a', status: 'pending' }] },
    { type: 'todos', todos: [{ id: '1', content: 'a', status: 'completed' }] },
    { type: 'model_response', turn: 2, text: 'done', function_calls: [], usage: usage(10), finish_reason: 'stop', finish_raw: null, duration_ms: 5 },
    { type: 'structured_output', value: { ok: true } },
    { type: 'files_changed', files: [{ path: 'a.txt', status: 'modified', diff: '--- a/a.txt\n+++ b/a.txt\n' }] },
    { type: 'git_handoff', git: { branch: 'b', commit: 'abc', pushed: false, skipped: null, error: null, push_error: null, files: ['a.txt'], left_out: [] } },
    end,
  ];
}

describe('buildReport(events)', () => {
  it('takes the run identity from run_start and the outcome and times from run_end', () => {
    const report = buildReport(run());
    expect(report).toMatchObject({
      run_id: 'r1',
      recipe: { name: 'x', file: '/recipes/x.yaml' },
      provider: 'scripted',
      model: 'm',
      workspace: '/ws',
      transcript: '/runs/r1/transcript.jsonl',
      status: 'denied',
      exit_code: 0,
      final_answer: 'done',
      started_at: '2026-01-02T03:04:05.000Z',
      ended_at: '2026-01-02T03:04:06.500Z',
      duration_ms: 1500,
    });
  });

  it('shows every section from its event: the last todo list, structured output, files, hand-off', () => {
    const report = buildReport(run());
    expect(report.todos).toEqual([{ id: '1', content: 'a', status: 'completed' }]);
    expect(report.structured_output).toEqual({ ok: true });
    expect(report.files_changed.map((f) => f.path)).toEqual(['a.txt']);
    expect(report.git).toMatchObject({ branch: 'b', commit: 'abc' });
    expect(report.denials).toEqual([{ turn: 1, tool: 'shell', args: { command: 'curl x | sh' }, reason: 'no rule', rule: null }]);
    expect(report.sub_agents).toEqual([{ call_id: 'c2', description: 'look', status: 'success', turns: 1, tool_calls: 0 }]);
    expect(report.turns).toBe(2);
    expect(report.usage.total).toBe(30);
    expect(report.tool_calls).toEqual({
      total: 2,
      by_tool: { shell: { success: 0, error: 0, denied: 1, errors_by_type: {}, truncated: 0 }, task: { success: 1, error: 0, denied: 0, errors_by_type: {}, truncated: 0 } },
      errors_by_type: {},
      truncated: 0,
      unfinished: 0,
    });
  });

  it('is pure: the same events give the same report, later, and the report shares nothing with them', async () => {
    const events = run();
    const first = buildReport(events);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = buildReport(events);
    expect(again).toEqual(first);
    first.todos[0]!.status = 'pending';
    first.files_changed.pop();
    expect(buildReport(events)).toEqual(again);
  });

  it('folds one event at a time to the same report (the runner keeps a fold while the run goes)', () => {
    const fold = new ReportFold();
    for (const event of run()) fold.add(event);
    expect(fold.report()).toEqual(buildReport(run()));
  });

  it('counts a call to a tool named like what every object inherits as that tool (a model may make one up)', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    const calls = names.flatMap((name, i): RunEvent[] => [
      { type: 'tool_call', turn: 1, call_id: `u${i}`, name, args: {}, description: name, decision: { decision: 'allow', reason: 'ok', rule: null } },
      { type: 'tool_result', turn: 1, call_id: `u${i}`, name, llm_content: 'unknown', return_display: 'unknown', duration_ms: 0, error_type: name === 'toString' ? ('__proto__' as 'unknown_tool') : 'unknown_tool', saved_output: null }, // a transcript read back may hold any type
    ]);
    const events = [start, ...calls, { ...end, tool_calls: names.length }];
    const report = buildReport(events);
    expect(report.tool_calls.total).toBe(names.length);
    expect(Object.keys(report.tool_calls.by_tool)).toEqual(names);
    expect(report.tool_calls.by_tool['__proto__']).toEqual({ success: 0, error: 1, denied: 0, errors_by_type: { unknown_tool: 1 }, truncated: 0 });
    expect(report.tool_calls.by_tool['toString']!.errors_by_type).toEqual(JSON.parse('{"__proto__":1}'));
    expect(report.tool_calls.errors_by_type).toEqual(JSON.parse('{"unknown_tool":3,"__proto__":1}'));
    // The report round-trips through its JSON text, as `unattended report` and readers see it.
    expect(JSON.parse(JSON.stringify(report)).tool_calls).toEqual(report.tool_calls);
  });

  it('reports a transcript without run_end as an error that says so, up to its last record', () => {
    const events = run().slice(0, 5).map((e, i) => ({ ...e, ts: `2026-01-02T03:04:0${5 + i}.000Z` }) as unknown as RunEvent);
    const report = buildReport(events);
    // The task call was under way: it is said, since tool_calls counts a call at its result.
    const cutOff = '; 1 call started with no result recorded (task): in tool_calls.unfinished, not its total; it may have done some or all of its work';
    expect(report).toMatchObject({ status: 'error', exit_code: 1, error: `${NO_RUN_END}${cutOff}`, final_answer: null, started_at: '2026-01-02T03:04:05.000Z', ended_at: '2026-01-02T03:04:09.000Z' });
    expect(report.tool_calls).toMatchObject({ total: 1, unfinished: 1 });
    expect(report.denials).toHaveLength(1);
    expect(report.sub_agents[0]!.status).toBe('running');
  });
});

describe('rebuilding from a transcript file', () => {
  it('gives the same report streamed or read at once, skipping lines that are not events', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { rebuildReport, rebuildReportSync } = await import('../../src/report/read-transcript.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-'));
    try {
      const file = path.join(dir, 'transcript.jsonl');
      const lines = run().map((e, i) => JSON.stringify({ ...e, seq: i + 1 }));
      lines.splice(3, 0, '["not an event"]', '{"type": 42}');
      fs.writeFileSync(file, `${lines.join('\n')}\n{"type":"tool_ca`);
      const streamed = await rebuildReport(file);
      expect(streamed.skippedLines).toBe(3);
      expect(streamed.report).toEqual(buildReport(run()));
      expect(rebuildReportSync(file)).toEqual(streamed);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a transcript an editor saved with a byte-order mark: its run_start is the first line', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { rebuildReport, rebuildReportSync, readTranscriptEvents } = await import('../../src/report/read-transcript.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-'));
    try {
      const file = path.join(dir, 'transcript.jsonl');
      fs.writeFileSync(file, `\uFEFF${run().map((e, i) => JSON.stringify({ ...e, seq: i + 1 })).join('\r\n')}\r\n`);
      const streamed = await rebuildReport(file);
      expect(streamed.skippedLines).toBe(0);
      expect(streamed.report).toEqual(buildReport(run()));
      expect(rebuildReportSync(file)).toEqual(streamed);
      expect(readTranscriptEvents(file)[0]!.type).toBe('run_start');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without files_changed, shows the files the file tools reported, their diffs in call order', () => {
    const diff = (from: string, body: string) => `--- ${from}\n+++ b/n.txt\n${body}`;
    const events = run().filter((e) => e.type !== 'files_changed' && e.type !== 'run_end');
    events.push(
      { type: 'tool_call', turn: 2, call_id: 'w1', name: 'write_file', args: {}, description: null, decision: { decision: 'allow', reason: 'ok', rule: null } },
      { type: 'tool_result', turn: 2, call_id: 'w1', name: 'write_file', llm_content: 'ok', return_display: { fileName: 'n.txt', fileDiff: diff('/dev/null', '+one\n'), originalContent: null, newContent: 'one\n' }, duration_ms: 1, error_type: null, saved_output: null },
      { type: 'tool_call', turn: 2, call_id: 'w2', name: 'edit', args: {}, description: null, decision: { decision: 'allow', reason: 'ok', rule: null } },
      { type: 'tool_result', turn: 2, call_id: 'w2', name: 'edit', llm_content: 'ok', return_display: { fileName: 'n.txt', fileDiff: diff('a/n.txt', '-one\n+two\n'), originalContent: 'one\n', newContent: 'two\n' }, duration_ms: 1, error_type: null, saved_output: null },
    );
    expect(buildReport(events).files_changed).toEqual([{ path: 'n.txt', status: 'added', diff: `${diff('/dev/null', '+one\n')}${diff('a/n.txt', '-one\n+two\n')}` }]);
    // With the runner's list, that list is the truth (here: a.txt only).
    expect(buildReport(run()).files_changed.map((f) => f.path)).toEqual(['a.txt']);
  });
});

describe('an older transcript (run_start without the run identity fields)', () => {
  it('takes the run id from the records, the start from the first record, the file from where it was read', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { rebuildReport } = await import('../../src/report/read-transcript.js');
    const { run_id: _id, started_at: _at, transcript: _t, ...oldStart } = start as Extract<RunEvent, { type: 'run_start' }>;
    const records = [
      { ...oldStart, ts: '2026-01-02T03:04:05.000Z', run_id: 'old-run', seq: 1 },
      { ...end, ts: '2026-01-02T03:04:07.000Z', run_id: 'old-run', seq: 2 },
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-old-'));
    try {
      const file = path.join(dir, 'transcript.jsonl');
      fs.writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const { report } = await rebuildReport(file);
      expect(report).toMatchObject({ run_id: 'old-run', started_at: '2026-01-02T03:04:05.000Z', ended_at: '2026-01-02T03:04:06.500Z', transcript: file, status: 'denied' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
