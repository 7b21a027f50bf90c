// Every recipe in recipes/ validates and runs end to end on its recorded turns (`script:
// turns/<name>.yaml`), through the CLI (validate as built, the runs through its entry in process),
// on a copy of its fixture workspace, and
// `unattended report` rebuilds its report.json and report.md from the transcript alone, byte for
// byte. A recipe added without a case here fails the first test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir, workspace } from './temp-recipe.js';
import { cli, readRun, ROOT, type RunFiles } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { rebuildReport } from '../../src/report/read-transcript.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';

afterAll(cleanupTempDirs);

interface RecipeCase {
  /** test/fixtures/workspaces/<name>; null: the recipe brings its own (workspace_mode: copy). */
  workspace: string | null;
  git?: boolean;
  params?: string[];
  stdin?: string;
  status: string;
  answer: RegExp;
  check?: (run: RunFiles, ws: string | null) => void;
}

const CASES: Record<string, RecipeCase> = {
  'demo.yaml': { workspace: null, status: 'denied', answer: /Fixed the spelling mistake/ },
  'fix-lint.yaml': {
    workspace: 'lint',
    status: 'success',
    answer: /passes now/,
    check: (_, ws) => expect(read(ws, 'src/count.js')).toContain('let total = 0;'),
  },
  'rename-symbol.yaml': {
    workspace: 'rename',
    git: true,
    params: ['old=addNumbers', 'new=sumOf'],
    status: 'success',
    answer: /Renamed addNumbers to sumOf/,
    check: ({ report }) => expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['README.md', 'src/main.js', 'src/math.js']),
  },
  'summarize-changes.yaml': { workspace: 'summarize', stdin: '+ remember(key, value, ttlMs = 60_000)', status: 'success', answer: /time to live/ },
  'triage-issue.yaml': {
    workspace: 'triage',
    stdin: 'parseDuration("1h") returns NaN\n\nRunning `node src/cli.js 1h` never prints done.',
    status: 'success',
    answer: /"labels"/,
    check: ({ report, reportMd }) => {
      expect(report.structured_output).toEqual({
        labels: ['bug', 'area/parser'],
        priority: 'p1',
        summary: expect.stringContaining('NaN'),
      });
      expect(reportMd).toContain('## Structured output');
      expect(report.tool_calls.total).toBe(2);
    },
  },
  'nightly-refactor.yaml': {
    workspace: 'refactor',
    git: true,
    params: ['deprecated=legacyFormat', "replacement=formatDate(DATE, { style: 'short' })"],
    status: 'success',
    answer: /Replaced both calls of legacyFormat/,
    check: ({ report, reportMd, events }, ws) => {
      expect(read(ws, 'src/invoice.js')).toContain("formatDate(invoice.date, { style: 'short' })");
      expect(read(ws, 'src/dates.js')).toContain('export function legacyFormat');
      expect(report.todos).toEqual([
        { id: '1', content: 'src/invoice.js: replace legacyFormat', status: 'completed' },
        { id: '2', content: 'src/report.js: replace legacyFormat', status: 'completed' },
      ]);
      expect(reportMd).toContain('- [x] src/report.js: replace legacyFormat');
      const diffStat = events.find((e) => e.type === 'tool_result' && e.name === 'shell');
      expect(diffStat?.llm_content).toMatch(/2 files changed/);
    },
  },
  'ask.yaml': {
    workspace: 'rename',
    stdin: 'Where is addNumbers defined, and who calls it?',
    status: 'success',
    answer: /defined in src\/math\.js/,
    check: ({ events }) => expect(events[0]!.prompt).toBe('Where is addNumbers defined, and who calls it?'),
  },
  'docs-only.yaml': {
    workspace: 'docs-edit',
    status: 'denied',
    answer: /denied by the policy/,
    check: ({ report }, ws) => {
      expect(read(ws, 'docs/usage.md')).toContain('--verbose');
      expect(read(ws, 'src/cli.js')).not.toContain('flags:');
      expect(report.denials).toHaveLength(1);
      expect(report.denials[0]).toMatchObject({ tool: 'edit', reason: expect.stringMatching(/src\/cli\.js.*not covered by any allow rule.*docs\/\*\*/) });
      expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['docs/usage.md']);
    },
  },
  'style-check.yaml': {
    workspace: 'style',
    status: 'success',
    answer: /utilize/,
    check: ({ events }, ws) => {
      expect(read(ws, 'README.md')).toContain('Use the `upload` command');
      const guide = events.find((e) => e.type === 'tool_result' && e.name === 'guide__read_text_file');
      expect(JSON.stringify(guide?.llm_content)).toContain('never \\"utilize\\"');
      expect([...events[0]!.tools].sort()).toEqual(['edit', 'guide__list_directory', 'guide__read_text_file', 'read_file']);
    },
  },
  'plan-first.yaml': {
    workspace: 'plan',
    status: 'success',
    answer: /throws a RangeError/,
    check: ({ report, reportMd }, ws) => {
      expect(report.plan).toMatch(/^1\. In src\/divide\.js, throw a RangeError/);
      expect(reportMd).toContain('## Plan');
      expect(read(ws, 'src/divide.js')).toContain('throw new RangeError');
    },
  },
};

const recipeFiles = fs.readdirSync(path.join(ROOT, 'recipes')).filter((f) => f.endsWith('.yaml'));

describe('recipes/', () => {
  it('every recipe has a case here, validates, and replays turns/<name>.yaml', async () => {
    expect(recipeFiles.sort()).toEqual(Object.keys(CASES).sort());
    for (const file of recipeFiles) {
      const text = fs.readFileSync(path.join(ROOT, 'recipes', file), 'utf8');
      expect(text, file).toContain(`script: turns/${file}`);
    }
    const r = await cli(['validate', ...recipeFiles.map((f) => `recipes/${f}`)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it.each(Object.entries(CASES))('%s runs on its recorded turns; its report is rebuilt from the transcript', async (file, c) => {
    const ws = c.workspace ? await workspace(c.workspace, { git: c.git }) : null;
    const out = path.join(tempDir(), 'run');
    const args = ['run', `recipes/${file}`, '--provider', 'scripted', '--out', out];
    if (ws) args.push('--workspace', ws);
    for (const p of c.params ?? []) args.push('--param', p);
    // The CLI's entry in process, piped input given as a string: the same code without a process
    // start each. The built CLI validates every recipe above, test/e2e/demo.test.ts runs the bundled
    // demo as shipped, and test/e2e/required-input.test.ts pipes a real stdin into the built CLI.
    const r = await cliInProcess(args, { stdin: c.stdin ?? null });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(c.answer);
    const run = readRun(out);
    expect(run.report.status).toBe(c.status);
    expect(run.report.warnings).toEqual([]);
    c.check?.(run, ws);
    const rebuilt = path.join(tempDir(), 'report.json');
    const json = await cliInProcess(['report', out, '--format', 'json', '--out', rebuilt]);
    expect(json.code, json.stderr).toBe(0);
    expect(fs.readFileSync(rebuilt, 'utf8')).toBe(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    // The Markdown from the same fold, in process (a second CLI start per recipe would only cost time).
    const { report } = await rebuildReport(path.join(out, 'transcript.jsonl'));
    expect(renderMarkdown(report)).toBe(run.reportMd);
  });
});

function read(ws: string | null, rel: string): string {
  return fs.readFileSync(path.join(ws!, rel), 'utf8');
}
