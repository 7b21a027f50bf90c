// GitHub refuses a job summary over 1 MiB (1,048,576 bytes) whole: the step shows no summary at
// all, not even the run's status. report.md, which the run appends to $GITHUB_STEP_SUMMARY, is kept
// under it in bytes; report.json keeps every diff whole.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('the job summary of a run', () => {
  it('stays under 1 MiB when a command translates a document into Chinese (3 bytes a character)', async () => {
    const ws = await fixtureWorkspace('rename', { git: true });
    const script = path.join(ws, '..', 'turns.yaml');
    // 6,400 lines of 60 Chinese characters: a diff of 396,800 characters, 1.16 MB of UTF-8.
    const make = `node -e "require('fs').writeFileSync('docs-zh.md', '这是翻译成中文的文档内容'.repeat(5).concat('\\\\n').repeat(6400))"`;
    fs.writeFileSync(script, ['turns:', '  - calls:', '      - name: shell', `        args: { command: ${JSON.stringify(make)} }`, '  - text: Translated.', ''].join('\n'));
    const summary = path.join(ws, '..', 'step-summary.md');
    fs.writeFileSync(summary, '');
    const out = path.join(ws, '..', 'out');
    const r = await cli(['run', '--prompt', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--workspace', ws, '--out', out], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    const diff = report.files_changed.find((f: { path: string }) => f.path === 'docs-zh.md').diff as string;
    expect(Buffer.byteLength(diff)).toBeGreaterThan(1024 * 1024);
    const text = fs.readFileSync(summary, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
    expect(text).toMatch(/^# ✅ ad-hoc: success \(exit 0\)/);
    expect(text).toMatch(/<code>docs-zh\.md<\/code> \(added\)<\/summary>\n\n_Diff of \d+ characters left out here; it is in report\.json\._/);
  });
});
