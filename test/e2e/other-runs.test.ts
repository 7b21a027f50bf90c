// Every run's records under .unattended are the runner's: a run cannot overwrite an earlier run's
// report (the sandbox holds the whole .unattended read-only; the policy refuses it too, sandbox or
// not), and `policy check` decides as the run does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe("another run's files", () => {
  it('are refused to a run and to policy check alike', async () => {
    const ws = tempDir('other-runs-');
    const old = path.join(ws, '.unattended/runs/old/report.md');
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(old, '# the earlier run\n');
    const call = { name: 'write_file', args: { file_path: old, content: '# forged\n' } };
    const batch = { name: 'write_file', args: { file_path: path.join(ws, '.unattended/batches/nightly/state.json'), content: '{}' } };
    fs.writeFileSync(path.join(ws, 'turns.json'), JSON.stringify({ turns: [{ calls: [call, batch] }, { text: 'Done.' }] }));
    fs.writeFileSync(path.join(ws, 'recipe.yaml'), [
      'version: 1',
      'prompt: Write the report.',
      'provider: scripted',
      'script: turns.json',
      'workspace: .',
      'tools: [write_file]',
      'confirmation: {mode: auto-approve}',
      'sandbox: {mode: off}',
      '',
    ].join('\n'));

    // The default output directory, .unattended/runs/<id> under the current directory.
    const run = await cli(['run', 'recipe.yaml', '--max-denials', '5'], { cwd: ws });
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    const runs = fs.readdirSync(path.join(ws, '.unattended/runs')).filter((name) => name !== 'old');
    expect(runs).toHaveLength(1);
    const { report } = readRun(path.join(ws, '.unattended/runs', runs[0]!));
    expect(report.denials).toHaveLength(2);
    for (const denial of report.denials) expect(denial.reason).toMatch(/protected/);
    expect(fs.readFileSync(old, 'utf8')).toBe('# the earlier run\n');
    expect(fs.existsSync(path.join(ws, '.unattended/batches'))).toBe(false);

    for (const { name, args } of [call, batch]) {
      const check = await cli(['policy', 'check', 'recipe.yaml', '--tool', name, '--args', JSON.stringify(args)], { cwd: ws });
      expect(JSON.parse(check.stdout)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/protected/) });
    }
  }, 120_000);
});
