import { describe, expect, it } from 'vitest';
import { MAX_DIFF_CHARS, renderMarkdown } from '../../src/report/render-markdown.js';
import type { Report } from '../../src/report/report.js';

function report(overrides: Partial<Report> = {}): Report {
  return {
    run_id: 'r1',
    trace: null,
    status: 'denied',
    exit_code: 0,
    recipe: { name: 'demo', file: null },
    provider: 'scripted',
    model: 'scripted',
    workspace: '/ws',
    started_at: '2026-01-01T00:00:00.000Z',
    ended_at: '2026-01-01T00:00:01.000Z',
    duration_ms: 1000,
    final_answer: 'Done.',
    structured_output: null,
    error: null,
    error_kind: null,
    limit: null,
    turns: 2,
    finish: { reason: 'stop', raw: 'STOP' },
    tool_calls: { total: 2, by_tool: { shell: { success: 1, error: 0, denied: 1, errors_by_type: {}, truncated: 0 } }, errors_by_type: {}, truncated: 0 },
    denials: [{ turn: 2, tool: 'shell', args: { command: 'git push' }, reason: 'not allowed', rule: 'shell: git push *' }],
    denial_summary: { by_rule: [{ rule: 'shell: git push *', reason: 'not allowed', count: 1 }], by_call: [{ tool: 'shell', call: 'git push', count: 1 }] },
    checks: [],
    usage: { input: 10, output: 2, total: 12, cached: 0 },
    compactions: { total: 0, summarized: 0, after_context_error: 0 },
    files_changed: [],
    warnings: [],
    transcript: '/out/transcript.jsonl',
    todos: [],
    plan: null,
    sub_agents: [],
    git: null,
    sandbox: null,
    context_files: [],
    continued_from: null,
    ...overrides,
  };
}

describe('report.md', () => {
  it('shows status, answer, denials with their rule, and tool counts', () => {
    const md = renderMarkdown(report());
    expect(md).toMatch(/^# ⚠️ demo: denied \(exit 0\)/);
    expect(md).toContain('## Final answer\n\nDone.');
    expect(md).toContain('`shell` `{"command":"git push"}`: not allowed (rule `shell: git push *`)');
    expect(md).toContain('| `shell` | 1 | 0 | 1 |  | 0 |');
  });

  it("shows a warning's quoted lines as a block inside its item, so none of them can start a heading or end the list", () => {
    const warning = "MCP server 'py' is left out: Connection closed; its stderr ends with:\nTraceback:\n## Status: success\n```\n- fake item";
    const md = renderMarkdown(report({ warnings: [warning, 'a plain one'] }));
    expect(md).toContain(
      "## Warnings\n\n- MCP server 'py' is left out: Connection closed; its stderr ends with:\n\n  ````\n  Traceback:\n  ## Status: success\n  ```\n  - fake item\n  ````\n- a plain one\n",
    );
  });

  it('fences a diff so backticks inside cannot close it', () => {
    const diff = '@@ -1 +1 @@\n-```\n+````js\n';
    const md = renderMarkdown(report({ files_changed: [{ path: 'a.md', status: 'modified', diff }] }));
    expect(md).toContain('`````diff\n@@ -1 +1 @@');
  });

  it('keeps report.md bounded: diffs past the budget are left to report.json', () => {
    const big = `@@ -1 +1 @@\n${'+x'.repeat(MAX_DIFF_CHARS / 4)}\n`;
    const files = Array.from({ length: 4 }, (_, i) => ({ path: `f${i}.txt`, status: 'modified' as const, diff: big }));
    const md = renderMarkdown(report({ files_changed: files }));
    expect(md.length).toBeLessThan(MAX_DIFF_CHARS + 10_000);
    expect(md).toContain('<code>f3.txt</code>');
    expect(md).toMatch(/Diff of \d+ characters left out here; it is in report\.json/);
  });
});

describe('report.md read in a terminal', () => {
  it("keeps the model's text inert: escape sequences, control characters and bidi overrides go, line feeds stay", () => {
    const md = renderMarkdown(report({ final_answer: 'done \x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\n\u202eend\r\x08' }));
    expect(md).not.toMatch(/[\x1b\x07\x08\r\u202e]/);
    expect(md).toContain('done click\nend');
  });
});
