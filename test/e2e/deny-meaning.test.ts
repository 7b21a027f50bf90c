// Deny rules by meaning, end to end: under auto-approve with `--deny 'shell:rm -rf *'` and
// `--deny 'shell:git push --force *'`, a scripted model tries many spellings in one run through the
// built CLI. Every one is denied with the rule, the directory is still there, and a command that
// means less (`rm -r` of one file) runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const SPELLINGS = [
  'rm -rfv build',
  'rm -vrf build',
  'rm -Rf build',
  'rm -r --forc build',
  'rm --recursive --force build',
  'rm -r -f -- build',
  "bash -c 'rm -fr build'",
  'env nice -n 5 timeout 5 rm -R --fo build',
  'echo build | xargs rm -rf',
  "sh <<'EOF'\nrm -rf build\nEOF",
  'git push -f origin main',
  'git push origin +main',
  "git -c alias.p='push --force-with-lease' p",
];

describe('deny rules by meaning, end to end', () => {
  it('refuses every spelling of a denied meaning and runs what means less', async () => {
    const root = tempDir('deny-meaning-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, 'build/deep'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'build/deep/out.js'), 'x\n');
    fs.writeFileSync(path.join(ws, 'stale.tmp'), 'x\n');
    const calls = [...SPELLINGS, 'rm -r stale.tmp'].map((command) => ({ name: 'shell', args: { command } }));
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    const run = await cli([
      'run', '--prompt', 'Clean up.', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out,
      '--approval', 'auto-approve', '--deny', 'shell:rm -rf *', '--deny', 'shell:git push --force *',
      // Every spelling is one denial; the run must answer them all rather than stop at the default limit.
      '--max-denials', String(SPELLINGS.length + 1),
    ]);
    const { report, events } = readRun(out);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(report.denials.map((d: { args: { command: string } }) => d.args.command).sort()).toEqual([...SPELLINGS].sort());
    for (const denial of report.denials) expect(denial.reason).toMatch(/deny rule 'shell: (rm -rf|git push --force) \*'/);
    expect(fs.existsSync(path.join(ws, 'build/deep/out.js'))).toBe(true);
    expect(fs.existsSync(path.join(ws, 'stale.tmp'))).toBe(false);
    expect(events.at(-1)!.type).toBe('run_end');
  }, 120_000);
});
