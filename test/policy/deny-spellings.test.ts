// Deny rules against spellings the attack corpus did not have: each row is a command that means
// at least what its rule says (refused), or less (still runs). Real workspace, real git.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { Workspace } from '../../src/util/workspace.js';
import { makeFixture, parseRule, shell, type Fixture } from './fixture.js';

type Row = [rule: string, command: string];

/** A push refspec names its branches whatever its shape: a rule naming the branch meets each. */
const refused: Row[] = [
  ...['git push origin main:main', 'git push origin HEAD:main', 'git push origin +main', 'git push origin refs/heads/main', 'git push origin +HEAD:refs/heads/main', 'git -C . push origin HEAD:main'].map(
    (command): Row => ['git push origin main *', command],
  ),
  ['git push --delete *', 'git push origin +:main'],
  ['git push --delete *', 'git push origin :refs/heads/main'],
  // A line xargs reads stands where its replace string does: as the program, any program.
  ['curl *', 'ls | xargs -I {} {} -s x'],
  ['curl *', 'ls | xargs -I {} env {} -s x'],
  // A multi-call binary runs the program it is told to be.
  ['rm *', 'coreutils --coreutils-prog=rm -rf d'],
  ['rm *', '/usr/bin/coreutils --coreutils-prog-shebang=rm d'],
  ['rm *', "coreutils --coreutils-prog=env sh -c 'rm -rf d'"],
  ['rm *', 'busybox rm -rf d'],
];

/** Lines whose commands run later, outside the call, where no rule can see them. */
const uncheckable: Row[] = ["crontab <<< '* * * * * rm -rf build'", 'crontab jobs.txt', 'echo x | crontab -', 'crontab -e', 'crontab -ul jobs.txt', 'sudo crontab -u root jobs.txt'].map(
  (command): Row => ['rm -rf *', command],
);

const stillRuns: Row[] = [
  ['git push origin main *', 'git push origin topic'],
  ['git push origin main *', 'git push origin HEAD:topic'],
  ['git push origin main *', 'git push upstream main'],
  ['git push --delete *', 'git push origin main'],
  ['rm -rf *', 'crontab -l'],
  ['rm -rf *', 'crontab -u root -l'],
  ['rm -rf *', 'crontab -r'],
  // ... but in the words of a program that never runs them (echo's and printf's too) it is text.
  ['curl *', 'xargs -a list.txt -I{} echo {}'],
  ['curl *', 'ls src | xargs -I {} echo "file: {}"'],
  ['curl *', "ls | xargs -I % printf '%s\\n' %"],
];

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const decideUnder = (rule: string, command: string) => decide(shell(command)(fixture), fixture.context('auto-approve', [], [`shell: ${rule}`]));

describe('deny rules match meaning, not spelling', () => {
  it.each(refused)("'%s' refuses %s", async (rule, command) => {
    const decision = await decideUnder(rule, command);
    expect(decision).toMatchObject({ decision: 'deny', rule: `shell: ${rule}` });
  });

  it.each(uncheckable)("'%s' refuses %s, which cannot be checked", async (rule, command) => {
    const decision = await decideUnder(rule, command);
    expect(decision).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/cannot be checked/) });
  });

  it.each(stillRuns)("'%s' lets %s run", async (rule, command) => {
    expect((await decideUnder(rule, command)).decision).toBe('allow');
  });
});

describe("git aliases from the repository's configuration", () => {
  let repo: string;
  beforeAll(() => {
    repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-aliases-')));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
    git('init', '-q', '.');
    git('config', 'alias.p', 'push -f');
    git('config', 'alias.pp', 'p origin');
    git('config', 'alias.zap', '!rm -rf build');
    git('config', 'alias.st', 'status --short');
    git('config', 'alias.loop', 'loop2');
    git('config', 'alias.loop2', 'loop');
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  const decideIn = (command: string) =>
    decide(shell(command)({ root: repo } as Fixture), {
      workspace: Workspace.open(repo),
      policy: { mode: 'auto-approve', allow: [], deny: ['shell: git push --force *', 'shell: rm -rf *'].map(parseRule) },
      protectedPaths: [],
    });

  it.each([
    ['git p origin main', 'git push --force *', 'git push -f origin main'],
    ['nice git -C . p', 'git push --force *', 'git push -f'],
    ['git pp', 'git push --force *', 'git push -f origin'],
    ['git zap', 'rm -rf *', 'rm -rf build'],
    ['git --git-dir=.git zap', 'rm -rf *', 'rm -rf build'],
  ])('%s is refused by %s: it runs %s', async (command, rule, runs) => {
    const decision = await decideIn(command);
    expect(decision).toMatchObject({ decision: 'deny', rule: `shell: ${rule}` });
    expect(decision.reason).toContain(`it runs '${runs}'`);
  });

  it.each(['git loop', 'git -C /nonexistent zap'])('%s cannot be looked up, so it is refused', async (command) => {
    expect(await decideIn(command)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/cannot be checked/) });
  });

  it.each(['git st', 'git status', 'git nosuch', 'echo git zap'])('%s still runs', async (command) => {
    expect((await decideIn(command)).decision).toBe('allow');
  });
});
