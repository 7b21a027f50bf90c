// `run --continue` hands off the chain's work: a file the earlier run changed counts from its content
// when the chain began, taken back from the recorded diff. A file that is not UTF-8 (a Latin-1
// source) shows U+FFFD in that diff for each byte that is not, so the content taken back was not the
// file's, matched nothing HEAD has, and the earlier run's change to it was left out of the commit
// with a warning that it had been 'committed since, or changed before that run began' (neither).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cleanupRepos, makeRepo } from '../git/repos.js';

afterAll(() => {
  removeTempDirs();
  cleanupRepos();
});

const LATIN1 = Buffer.from('caf\xe9 au lait\nna\xefve\none\ntwo\n', 'latin1');

/** A first run whose shell command runs `command` and which then fails (an empty answer), and its --continue. */
async function failedRunThenContinue(command: string) {
  const root = tempDir('unattended-latin1-');
  const ws = await makeRepo(path.join(root, 'ws'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(ws, 'menu.txt'), LATIN1);
  execFileSync('sh', ['-c', 'git add menu.txt && git -c user.email=t@example.com -c user.name=t commit -qm menu'], { cwd: ws, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  fs.writeFileSync(path.join(root, 'r.yaml'), 'version: 1\nname: latin\nprompt: do it\nprovider: scripted\nscript: turns.yaml\ntools: [shell]\nconfirmation: { mode: auto-approve }\ngit: { branch: unattended/latin, commit_message: latin }\n');
  fs.writeFileSync(path.join(root, 'turns.yaml'), `turns:\n  - calls:\n      - name: shell\n        args: { command: ${JSON.stringify(command)} }\n  - text: ""\n`);
  const env = { HOME: root, GIT_CONFIG_NOSYSTEM: '1' };
  const first = await cli(['run', path.join(root, 'r.yaml'), '--workspace', ws, '--out', path.join(root, 'run-1')], { env, cwd: root });
  expect(first.code, first.stderr).toBe(1);
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - text: "Done."\n');
  const second = await cli(['run', path.join(root, 'r.yaml'), '--workspace', ws, '--continue', path.join(root, 'run-1'), '-p', 'go on', '--out', path.join(root, 'run-2')], { env, cwd: root });
  const committed = (file: string) => execFileSync('git', ['show', `unattended/latin:${file}`], { cwd: ws, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  return { second, report: readRun(path.join(root, 'run-2')).report, committed };
}

describe('run --continue of a run that changed a file that is not UTF-8', () => {
  it("commits the earlier run's change to it, byte for byte, without a warning", async () => {
    const { second, report, committed } = await failedRunThenContinue("printf 'three\\n' >> menu.txt; echo more >> README.md");
    expect(second.code, second.stderr).toBe(0);
    expect(report.git).toMatchObject({ files: ['README.md', 'menu.txt'], left_out: [] });
    expect(report.warnings.join('\n')).not.toMatch(/menu\.txt/);
    expect(committed('menu.txt').equals(Buffer.concat([LATIN1, Buffer.from('three\n')]))).toBe(true);
  });

  it('leaves it out, saying why, when the line the earlier run removed held such bytes', async () => {
    const { second, report } = await failedRunThenContinue("sed -i '2d' menu.txt; echo more >> README.md");
    expect(second.code, second.stderr).toBe(0);
    expect(report.git.files).toEqual(['README.md']);
    expect(report.warnings.join('\n')).toMatch(/menu\.txt \(it is not UTF-8 text, and its recorded diff cannot say which bytes it held before\)/);
    expect(report.warnings.join('\n')).not.toMatch(/committed since/);
  });
});
