// report.files_changed lists every change the run made, whichever tool made it: file tools report
// their own diffs; what a shell command changed is found with git. A file that was already dirty
// before the run, and the run's own outputs, are not the run's changes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

describe('files changed', () => {
  it('includes a shell command’s edits, with a diff, in a git workspace', async () => {
    const ws = await fixtureWorkspace('rename', { git: true });
    fs.writeFileSync(path.join(ws, 'README.md'), '# calc (dirty before the run)\n');
    const script = path.join(ws, '..', 'turns.yaml');
    fs.writeFileSync(
      script,
      [
        'turns:',
        '  - calls:',
        '      - name: edit',
        '        args: { file_path: "{{workspace}}/src/math.js", old_string: "a + b", new_string: "b + a" }',
        '  - calls:',
        '      - name: shell',
        `        args: { command: "sed -i 's/addNumbers(2, 3)/addNumbers(3, 2)/' src/main.js && printf 'x\\\\n' > notes.txt" }`,
        '  - text: Done.',
        '',
      ].join('\n'),
    );
    const out = path.join(ws, '.unattended', 'runs', 'r1');
    const r = await cli(['run', '--prompt', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--workspace', ws, '--out', out]);
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    expect(report.files_changed.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      ['notes.txt', 'added'],
      ['src/main.js', 'modified'],
      ['src/math.js', 'modified'],
    ]);
    const main = report.files_changed.find((f: { path: string }) => f.path === 'src/main.js');
    expect(main.diff).toContain('-console.log(addNumbers(2, 3));\n+console.log(addNumbers(3, 2));');
  });

  it('costs nothing when no tool that changes files unseen ran', async () => {
    const ws = await fixtureWorkspace('rename', { git: true });
    const script = path.join(ws, '..', 'turns.yaml');
    fs.writeFileSync(script, 'turns:\n  - calls:\n      - name: glob\n        args: { pattern: "**/*.js" }\n  - text: Looked.\n');
    const out = path.join(ws, '..', 'out');
    const r = await cliInProcess(['run', '--prompt', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--workspace', ws, '--out', out]);
    expect(r.code).toBe(0);
    expect(readRun(out).report.files_changed).toEqual([]);
  });
});
