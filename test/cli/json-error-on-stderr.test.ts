// `run … --output-format json > report.json` in CI: a run that failed once it had a directory (a
// --script that is not there, a turn limit, a denial) printed its error in the JSON alone, and the
// log showed an exit code and not a word of why; a run refused before it had a directory already
// said its error on stderr as well.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function workspace(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'loop.yaml'), 'turns:\n  - calls:\n      - name: ls\n        args: {}\n  - calls:\n      - name: ls\n        args: {}\n  - text: done\n');
  fs.writeFileSync(path.join(dir, 'ok.yaml'), 'turns:\n  - text: done\n');
  return dir;
}

describe('the error of a run printed as JSON', () => {
  it.each(['json', 'stream-json'])('--output-format %s: a --script not found is said on stderr, as in the report', async (format) => {
    const dir = workspace();
    const r = await cli(['-p', 'go', '--provider', 'scripted', '--script', 'gone.yaml', '--output-format', format], { cwd: dir });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stdout).toContain("--script: file 'gone.yaml' not found");
    expect(r.stderr).toContain("unattended: --script: file 'gone.yaml' not found");
  });

  it('--output-format json: a turn limit is said on stderr once, and stdout is the report alone', async () => {
    const dir = workspace();
    const r = await cli(['-p', 'go', '--provider', 'scripted', '--script', 'loop.yaml', '--max-turns', '1', '--output-format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(53);
    const report = JSON.parse(r.stdout);
    expect(report.status).toBe('limit');
    expect(r.stderr.trim()).toBe(`unattended: ${report.error}`);
  });

  it('--output-format json: a run that succeeds keeps stderr empty', async () => {
    const dir = workspace();
    const r = await cli(['-p', 'go', '--provider', 'scripted', '--script', 'ok.yaml', '--output-format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
