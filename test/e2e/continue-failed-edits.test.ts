// A follow-up (`--continue`) whose every edit failed did not do its work, whatever it claims: the
// earlier run's changes, which it carries (files_changed, checks, hand-off), are not its own, and
// used to make it a success. A follow-up that tries no edit (the work was done before an outage)
// is not judged by the rule, and one that edits a file the earlier run changed did its work.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(() => removeTempDirs());

describe('--continue and the "every edit failed" rule', () => {
  it("judges the follow-up by its own edits, not by the earlier run's changes it carries", async () => {
    const ws = tempDir('unattended-continue-edits-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
    const edit = (file: string, from: string, to: string) => ({ calls: [{ name: 'edit', args: { file_path: file, old_string: from, new_string: to } }] });
    const gemini = await startFakeGemini([
      edit('a.txt', 'a', 'A'),
      { text: 'Changed a.' },
      // The follow-up: its one edit fails.
      edit('b.txt', 'absent', 'B'),
      { text: 'Changed b too.' },
      // Another follow-up: it edits the file the earlier run changed, and that is work done.
      edit('a.txt', 'A', 'AA'),
      { text: 'Changed a again.' },
    ]);
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
      const first = path.join(ws, '.unattended/first');
      expect((await cli(['-p', 'Change a', '--approval', 'auto-approve', '--out', first], { cwd: ws, env })).code).toBe(0);
      const next = path.join(ws, '.unattended/next');
      const r = await cli(['-c', first, '-p', 'Now b', '--out', next], { cwd: ws, env });
      expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
      const { report } = readRun(next);
      expect(report).toMatchObject({ status: 'failed', final_answer: null });
      expect(report.error).toBe('every edit the model tried failed (1 call: edit_no_match ×1) and no file changed in this run (what the earlier runs changed is not its work)');
      // The chain's change is still listed as the chain's work.
      expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['a.txt']);
      const third = await cli(['-c', first, '-p', 'Again a', '--out', path.join(ws, '.unattended/third')], { cwd: ws, env });
      expect([third.code, third.stdout.trim()], third.stderr).toEqual([0, 'Changed a again.']);
    } finally {
      await gemini.close();
    }
  });
});
