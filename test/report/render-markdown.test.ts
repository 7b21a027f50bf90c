import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { MAX_DIFF_BYTES } from '../../src/report/markdown-budget.js';
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
    tool_calls: { total: 2, by_tool: { shell: { success: 1, error: 0, denied: 1, errors_by_type: {}, truncated: 0 } }, errors_by_type: {}, truncated: 0, unfinished: 0 },
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
    const big = `@@ -1 +1 @@\n${'+x'.repeat(MAX_DIFF_BYTES / 4)}\n`;
    const files = Array.from({ length: 4 }, (_, i) => ({ path: `f${i}.txt`, status: 'modified' as const, diff: big }));
    const md = renderMarkdown(report({ files_changed: files }));
    expect(md.length).toBeLessThan(MAX_DIFF_BYTES + 10_000);
    expect(md).toContain('<code>f3.txt</code>');
    expect(md).toMatch(/Diff of \d+ characters left out here; it is in report\.json/);
  });
});

describe('report.md as a GitHub job summary (refused whole over 1 MiB)', () => {
  const MiB = 1024 * 1024;
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  const git = { branch: 'unattended/x', commit: 'abc123', files: ['a.txt'], pushed: true, pull_request: { url: 'https://github.example/o/r/pull/7', number: 7, repository: 'o/r', base: 'main', action: 'created' } } as unknown as Report['git'];

  it('counts a diff in bytes: one file of Chinese text 3 bytes a character', () => {
    const diff = `@@ -1 +1 @@\n${'+中文翻译\n'.repeat(75_000)}`;
    const md = renderMarkdown(report({ files_changed: [{ path: 'docs/zh.md', status: 'modified', diff }] }));
    expect(bytes(diff)).toBeGreaterThan(MiB);
    expect(bytes(md)).toBeLessThan(MiB);
    expect(md).toMatch(/Diff of \d+ characters left out here; it is in report\.json/);
  });

  it('lists at most a thousand files of a codemod over 20,000, and keeps the sections after them', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => ({ path: `packages/pkg-${i}/src/index.ts`, status: 'modified' as const, diff: `@@ -1 +1 @@\n-old${i}\n+new${i}\n` }));
    const md = renderMarkdown(report({ files_changed: files, git, warnings: ['the last warning'] }));
    expect(bytes(md)).toBeLessThan(MiB);
    expect(md).toContain('<code>packages/pkg-999/src/index.ts</code>');
    expect(md).not.toContain('<code>packages/pkg-1000/src/index.ts</code>');
    expect(md).toContain('and 19000 more files changed, listed with their diffs in report.json');
    expect(md).toContain('- pull request: [o/r#7](https://github.example/o/r/pull/7)');
    expect(md).toContain('- the last warning');
  });

  it('cuts a final answer, a plan and a structured output of megabytes, saying so, and keeps the sections after them', () => {
    const long = 'A line of the answer, written at length.\n'.repeat(60_000);
    const md = renderMarkdown(report({ final_answer: long, plan: long, structured_output: { text: long }, git, warnings: ['the last warning'] }));
    expect(bytes(md)).toBeLessThan(MiB);
    expect(md.match(/cut here at 100 KB of \d+ KB; the whole of it is in report\.json/g)).toHaveLength(3);
    expect(md).toContain('- pull request: [o/r#7]');
    expect(md).toContain('- the last warning');
  });

  it('a cut inside a diff closes its code block and its fold, so the note saying so shows as text', () => {
    // Long sections before a diff of 345 KB: the cut lands in the diff.
    const diff = `@@ -1 +1 @@\n${'+a line of the new file\n'.repeat(15_000)}`;
    const long = 'A line of the answer, written at length.\n'.repeat(3_000);
    const checks = Array.from({ length: 40 }, (_, i) => ({ attempt: i + 1, kind: 'command' as const, check: 'npm test', passed: false, exit_code: 1, reason: 'exit 1', duration_ms: 10, output_tail: 'FAIL a test\n'.repeat(900) }));
    const md = renderMarkdown(report({ error: long, final_answer: long, plan: long, structured_output: { text: long }, checks, files_changed: [{ path: 'a.txt', status: 'modified', diff }] }));
    expect(bytes(md)).toBeLessThan(MiB);
    const lines = md.split('\n');
    const note = lines.findIndex((l) => l.startsWith('_report.md is cut here'));
    expect(note).toBeGreaterThan(0);
    const before = lines.slice(0, note);
    expect(before.filter((l) => /^`{3,}/.test(l)).length % 2).toBe(0);
    expect(before.filter((l) => l.startsWith('<details>')).length).toBe(before.filter((l) => l === '</details>').length);
  });

  it('cuts whatever else is too long at a line, saying so', () => {
    const warnings = Array.from({ length: 5_000 }, (_, i) => `warning ${i}: ${'x'.repeat(300)}`);
    const md = renderMarkdown(report({ warnings }));
    expect(bytes(md)).toBeLessThan(MiB);
    expect(md).toMatch(/^# ⚠️ demo: denied \(exit 0\)/);
    expect(md).toMatch(/\n- warning \d+: x+\n\n_report\.md is cut here: the whole of it would be \d+ KB, more than a GitHub job summary takes \(1 MiB\); report\.json has everything\._\n$/);
  });
});

describe('report.md read in a terminal', () => {
  it("keeps the model's text inert: escape sequences, control characters and bidi overrides go, line feeds stay", () => {
    const md = renderMarkdown(report({ final_answer: 'done \x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\n\u202eend\r\x08' }));
    expect(md).not.toMatch(/[\x1b\x07\x08\r\u202e]/);
    expect(md).toContain('done click\nend');
  });
});
