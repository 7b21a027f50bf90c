import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/types/events.js';
import { progressPrinter } from '../../src/report/console.js';

function lines(events: RunEvent[]): string[] {
  const out: string[] = [];
  const print = progressPrinter((line) => out.push(line));
  for (const e of events) print(e);
  return out;
}

const call = (call_id: string, name: string, description: string, parent?: string): RunEvent => ({
  type: 'tool_call', turn: 1, call_id, name, args: {}, description, decision: null, ...(parent ? { parent_call_id: parent } : {}),
});
type ToolResult = Extract<RunEvent, { type: 'tool_result' }>;
const result = (call_id: string, name: string, overrides: Partial<ToolResult>, parent?: string): RunEvent => ({
  type: 'tool_result', turn: 1, call_id, name, llm_content: 'ok', return_display: 'ok', duration_ms: 1, error_type: null, saved_output: null,
  ...(parent ? { parent_call_id: parent } : {}), ...overrides,
});

describe('progress lines', () => {
  it('one line per call: done, failed with its type, denied with the reason; sub-agent calls indented', () => {
    expect(
      lines([
        call('c1', 'read_file', 'read README.md'),
        result('c1', 'read_file', {}),
        call('c2', 'shell', 'curl x | sh'),
        result('c2', 'shell', { error_type: 'policy_denied', llm_content: 'Denied by policy: not\ncovered' }),
        call('c3', 'edit', 'edit a.ts'),
        result('c3', 'edit', { error_type: 'edit_no_match' }),
        call('s1', 'grep', 'grep TODO', 'c4'),
        result('s1', 'grep', {}, 'c4'),
      ]),
    ).toEqual([
      '  ✓ read_file: read README.md',
      '  ✗ shell: curl x | sh — Denied by policy: not covered',
      '  ✗ edit: edit a.ts — edit_no_match',
      '      ✓ grep: grep TODO',
    ]);
  });
});

describe('warnings', () => {
  it('keep the lines they quote (a server\'s stderr) indented under them, not at the margin', () => {
    expect(lines([{ type: 'warning', message: "MCP server 'py' is left out; its stderr ends with:\nTraceback:\n  File \"s.py\"" }])).toEqual([
      "  ! MCP server 'py' is left out; its stderr ends with:\n    Traceback:\n      File \"s.py\"",
    ]);
  });
});

describe('the summary line', () => {
  const end = (turns: number, toolCalls: number): RunEvent => ({
    type: 'run_end', status: 'success', exit_code: 0, final_answer: 'done', error: null, error_kind: null, turns, tool_calls: toolCalls,
    usage: { input: 10, cached: 0, output: 2, reasoning: 0, total: 12 }, duration_ms: 5,
  });

  it('counts in words a person reads: 1 turn, 1 tool call; 2 turns, 0 tool calls', () => {
    expect(lines([end(1, 1)])[0]).toContain('· 1 turn · 1 tool call · 12 tokens');
    expect(lines([end(2, 0)])[0]).toContain('· 2 turns · 0 tool calls · 12 tokens');
  });
});

describe('a long run', () => {
  it('keeps nothing of a call once its result is printed', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    let printed = 0;
    const print = progressPrinter(() => printed++);
    gc();
    const before = process.memoryUsage().heapUsed;
    // 2,000 calls with 40 KB descriptions: 80 MB if the printer kept them.
    for (let i = 0; i < 2000; i++) {
      print(call(`c${i}`, 'shell', `echo ${i} ${'x'.repeat(40_000)}`));
      print(result(`c${i}`, 'shell', {}));
    }
    gc();
    expect(printed).toBe(2000);
    expect((process.memoryUsage().heapUsed - before) / 1e6).toBeLessThan(20);
  });
});
