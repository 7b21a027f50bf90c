// `git maintenance register` writes the user's global config, and `start` also installs crontab
// or systemd jobs that run git after the run: outside the workspace, under `git *` too. `git
// maintenance run` works on the repository alone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const judge = (command: string) => decide(shell(command)(fixture), fixture.context('allowlist', ['shell: git *'], []));

it('real git: maintenance register writes the global config of HOME, outside the repository', () => {
  const home = fs.mkdtempSync(path.join(fixture.tmp, 'home-'));
  const repo = fs.mkdtempSync(path.join(fixture.tmp, 'repo-'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  execFileSync('git', ['maintenance', 'register'], { cwd: repo, env, stdio: 'ignore' });
  expect(fs.readFileSync(path.join(home, '.gitconfig'), 'utf8')).toContain(`repo = ${repo}`);
});

describe("under 'git *'", () => {
  it.each(['git maintenance register', 'git maintenance start', 'git maintenance start --scheduler=crontab', 'git -C src maintenance unregister', 'git maintenance stop'])('%s is refused', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toMatch(/git maintenance \w+ guard although 'shell: git \*' matches: .*global git config/);
  });

  it.each(['git maintenance run', 'git maintenance run --task=gc'])('%s is allowed', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
