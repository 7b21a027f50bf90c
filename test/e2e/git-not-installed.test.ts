// git missing from PATH (a slim container image): a run in a git work tree cannot record what its
// commands changed, nor hand off. What it says must name that cause, not send the user looking at
// the repository ("not inside a git repository") or at a slow snapshot ("failed or took over a
// minute"). The built CLI, on a PATH that holds node and bash but no git.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function pathWithoutGit(): string {
  const bin = tempDir('no-git-bin-');
  for (const program of ['bash', 'sh']) fs.symlinkSync(fs.realpathSync(`/bin/${program}`), path.join(bin, program));
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}

describe('git not installed', () => {
  it('a git hand-off is warned about before the run and fails naming git, exit 58; files_changed says it cannot see shell changes', async () => {
    const ws = await fixtureWorkspace('rename', { git: true });
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'turns.yaml'),
      ['turns:', '  - calls:', '      - name: shell', '        args: { command: "echo changed > made.txt" }', '  - text: done'].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'r.yaml'),
      ['version: 1', 'prompt: go', 'provider: scripted', 'script: turns.yaml', `workspace: ${ws}`, 'confirmation: {mode: auto-approve}', 'sandbox: {mode: off}', 'git: {branch: fix/x}'].join('\n'),
    );
    const out = path.join(dir, 'out');
    const r = await cli(['run', path.join(dir, 'r.yaml'), '--out', out], { cwd: dir, env: { PATH: pathWithoutGit() } });
    expect(r.code, r.stderr).toBe(58);
    expect(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8')).toBe('changed\n');
    const { report } = readRun(out);
    expect(report.warnings).toContain('git: git is not installed (none on PATH outside the repository), so the hand-off fails (exit 58) after the run; install git, or drop the section');
    expect(report.warnings.join('\n')).toContain('git is not installed (none on PATH outside the repository), so what shell, MCP and discovered tools changed is unknown');
    expect(report.warnings.join('\n')).not.toMatch(/not inside a git repository|took over a minute/);
    expect(report.error).toBe('git hand-off: git is not installed (none on PATH outside the repository): nothing is committed');
  });
});
