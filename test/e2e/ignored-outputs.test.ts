// A repository that ignores .unattended (as many do, this project too) with the run's directory in
// it, the default: what a shell command changed is still found, and nothing is warned. Git refuses
// `add` of a pathspec naming an ignored path, even one that only excludes it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

/** A repository with one commit: a.txt and this .gitignore. */
async function committedRepo(gitignore: string): Promise<string> {
  const ws = tempDir();
  fs.writeFileSync(path.join(ws, '.gitignore'), gitignore);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  const git = (...args: string[]) => execa('git', args, { cwd: ws, env: { HOME: ws, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH } });
  await git('init', '-q');
  await git('add', '-A');
  await git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return ws;
}

/** The one run directory a run left under the workspace's .unattended. */
function onlyRun(ws: string) {
  const [runDir] = fs.readdirSync(path.join(ws, '.unattended/runs'));
  return readRun(path.join(ws, '.unattended/runs', runDir!));
}

describe('a repository that ignores .unattended', () => {
  it('has its shell changes found with the run directory in it', async () => {
    const ws = await committedRepo('.unattended/\n');
    const script = path.join(tempDir(), 'turns.yaml');
    fs.writeFileSync(script, 'turns:\n  - calls: [{ name: shell, args: { command: "echo made > made.txt" } }]\n  - text: done\n');
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off', '--require-changes'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    const { report } = onlyRun(ws);
    expect(report.warnings).toEqual([]);
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['made.txt']);
  });
});

describe('a run that changes the ignore rules', () => {
  it('does not list a file git ignored at the start as one it added', async () => {
    const ws = await committedRepo('*.log\n.unattended/\n');
    fs.writeFileSync(path.join(ws, 'secret.log'), 'token=abc\n');
    const script = path.join(tempDir(), 'turns.yaml');
    fs.writeFileSync(script, "turns:\n  - calls: [{ name: shell, args: { command: \"printf '.unattended/\\\\n' > .gitignore\" } }]\n  - text: done\n");
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(ws, '.gitignore'), 'utf8')).toBe('.unattended/\n');
    const { report } = onlyRun(ws);
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['.gitignore']);
  });
});
