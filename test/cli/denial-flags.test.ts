// --fail-on-denial beside --max-denials N (or fail_on_denial beside limits.max_denials N) ended the
// run at the first denial without a word: the tolerance the user had just given meant nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const SCRIPT = 'turns:\n  - calls:\n      - name: shell\n        args: { command: "rm -rf gone" }\n  - calls:\n      - name: shell\n        args: { command: "rm -rf gone2" }\n  - text: done\n';

function workspace(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 's.yaml'), SCRIPT);
  return dir;
}

describe('fail_on_denial beside a tolerance of denials', () => {
  it('--fail-on-denial --max-denials 3 is refused before any model call, naming both', async () => {
    const dir = workspace();
    const r = await cli(['-p', 'go', '--provider', 'scripted', '--script', 's.yaml', '--approval', 'deny', '--sandbox', 'off', '--fail-on-denial', '--max-denials', '3', '--out', 'out'], { cwd: dir });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stderr).toContain('--max-denials 3 and --fail-on-denial contradict');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'))).toMatchObject({ status: 'error', exit_code: 42, turns: 0 });
  });

  it('--fail-on-denial --max-denials 0 says the same thing twice, and runs', async () => {
    const dir = workspace();
    const r = await cli(['-p', 'go', '--provider', 'scripted', '--script', 's.yaml', '--approval', 'deny', '--sandbox', 'off', '--fail-on-denial', '--max-denials', '0'], { cwd: dir });
    expect(r.code, r.stderr).toBe(57);
  });

  it('--max-denials 3 on a recipe with fail_on_denial: true is refused, naming where fail_on_denial comes from', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nname: r\nprompt: go\nconfirmation: {mode: deny}\nsandbox: {mode: "off"}\nfail_on_denial: true\n');
    const r = await cli(['r.yaml', '--provider', 'scripted', '--script', 's.yaml', '--max-denials', '3'], { cwd: dir });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stderr).toContain('--max-denials 3 and fail_on_denial (set by the recipe');
  });

  it('a recipe with fail_on_denial: true and limits.max_denials: 3 fails validate at the line', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nname: r\nprompt: go\nconfirmation: {mode: deny}\nfail_on_denial: true\nlimits: {max_denials: 3}\n');
    const r = await cli(['validate', 'r.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(52);
    expect(r.stderr).toContain('r.yaml:5:17: fail_on_denial: true and limits.max_denials: 3 contradict');
    // A flag that replaces the recipe's tolerance is judged as a flag, not twice.
    const ok = await cli(['r.yaml', '--provider', 'scripted', '--script', 's.yaml', '--max-denials', '0', '--sandbox', 'off'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(57);
  });
});
