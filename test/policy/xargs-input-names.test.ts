// The names xargs and parallel read as the line runs (src/policy/input-names.ts): the path checks
// see no word of them, so under allowlist they pass only when the policy knows them before the
// line runs (literal text, checked like any argument) or a lister printed them; any other input
// (a file's text, what sed or a script prints) is refused. Real workspace, real symlinks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { oddNameProblem } from '../../src/policy/odd-names.js';
import { makeFixture, shell, type Fixture } from './fixture.js';
import type { PolicySpec } from './policies.js';

const PIPES: PolicySpec = {
  mode: 'allowlist',
  allow: ['shell: echo *', 'shell: printf *', 'shell: xargs *', 'shell: parallel *', 'shell: cat *', 'shell: wc *', 'shell: rm *', 'shell: find *', 'shell: git *', 'shell: grep *', 'shell: sort *', 'shell: head *', 'shell: sed *', 'shell: ls *', 'shell: bash *', 'shell: cpio *'],
  deny: [],
};

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const judge = (command: string) => decide(shell(command)(fixture), fixture.context(PIPES.mode, PIPES.allow, PIPES.deny));

describe('names xargs reads from literal text are checked as paths', () => {
  it.each([
    ['echo /etc/passwd | xargs cat', /'xargs cat' opens the names it reads, and its input gives it '\/etc\/passwd', which leads outside the workspace/],
    ["printf '%s\\n' /etc/shadow | xargs rm", /gives it '\/etc\/shadow', which leads outside/],
    ["printf '/etc/%s\\n' passwd | xargs cat", /gives it '\/etc\/passwd'/],
    // xargs takes quotes and backslashes out of what it reads.
    ["echo '\\/etc/passwd' | xargs cat", /gives it '\/etc\/passwd'/],
    ['echo "\'/etc/passwd\'" | xargs -n1 cat', /gives it '\/etc\/passwd'/],
    // A link the repository ships, a protected path, a relative way out.
    ['echo secret-link | xargs cat', /gives it 'secret-link', which leads outside/],
    ['echo .git/config | xargs cat', /reaches '\.git\/config', which is protected/],
    ['echo ../.. | xargs -I X cat X/etc/passwd', /leads outside/],
    ['xargs cat <<< /etc/passwd', /gives it '\/etc\/passwd'/],
    ['echo /etc/passwd | sort | xargs cat', /gives it '\/etc\/passwd'/],
    ['echo /etc/passwd | xargs timeout 5 cat', /gives it '\/etc\/passwd'/],
    ['echo /etc/passwd | parallel cat', /'parallel cat' opens the names it reads/],
    // A script's commands read the stdin of its shell.
    ["echo /etc/passwd | bash -c 'xargs cat'", /gives it '\/etc\/passwd'/],
    // Programs that open the names stdin gives them: cpio's copy-out archive lands in the workspace, hash-object -w stores a blob.
    ['echo /etc/passwd | cpio -o > out.cpio', /'cpio -o' opens the names it reads, and its input gives it '\/etc\/passwd'/],
    ['echo /etc/passwd | git hash-object -w --stdin-paths', /'git hash-object --stdin-paths' opens the names it reads/],
  ])('%s: denied', async (command, reason) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toMatch(reason);
  });
});

describe('names the policy cannot know before the line runs are refused', () => {
  it.each([
    ['cat docs/guide.md | xargs rm', /they are the output of 'cat docs\/guide.md', which the policy cannot check/],
    ['xargs cat < docs/guide.md', /they are the text of 'docs\/guide.md'/],
    ['xargs -a docs/guide.md cat', /they are the lines of 'docs\/guide.md'/],
    ["git ls-files | sed 's|^|/etc/|' | xargs cat", /the output of 'sed/],
    ["find . -printf '/etc/passwd\\n' | xargs cat", /the output of 'find/],
    ['ls -l | xargs cat', /the output of 'ls -l'/],
    ['cpio -o < docs/guide.md > out.cpio', /they are the text of 'docs\/guide.md'/],
    ["bash -c 'echo /etc/passwd' | xargs cat", /the output of a script/],
    ['echo src/a.ts | parallel cat {.}.js', /made into new names by its replacement strings/],
  ])('%s: denied', async (command, reason) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toMatch(reason);
    expect(decision.reason).toMatch(/name the files in the command itself/);
  });
});

describe('names from a lister or from checked text pass', () => {
  it.each([
    'echo src/a.ts | xargs cat',
    "printf '%s\\n' src/a.ts docs/guide.md | xargs wc -l",
    'echo src | xargs -I X cat X/a.ts',
    "find . -name '*.ts' | xargs wc -l",
    "find src -name '*.ts' -print0 | sort -z | head -n 5 | xargs -0 wc -l",
    'git ls-files | xargs wc -l',
    'git diff --name-only | xargs cat',
    'grep -rl export src | xargs cat',
    "find . -name '*.ts' | xargs grep -l export | xargs wc -l",
    'ls src | xargs echo',
    'echo /etc/passwd | xargs echo',
    'echo /etc/passwd | xargs',
    "find . -name '*.ts' | parallel wc -l",
    'xargs cat <<< src/a.ts',
    'git ls-files | cpio -o > out.cpio',
    'echo src/a.ts | git hash-object --stdin-paths',
  ])('%s: allowed', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });
});

describe("a lister's names that xargs would not read back as themselves", () => {
  // A directory named 'a ' with etc/passwd below it: `find .` prints './a /etc/passwd', and xargs
  // splits that at the blank, handing cat the real /etc/passwd.
  let odd: Fixture;
  beforeAll(() => {
    odd = makeFixture();
    fs.mkdirSync(path.join(odd.root, 'a /etc'), { recursive: true });
    fs.writeFileSync(path.join(odd.root, 'a /etc/passwd'), 'planted\n');
  });
  afterAll(() => odd.cleanup());
  const judgeOdd = (command: string) => decide(shell(command)(odd), odd.context(PIPES.mode, PIPES.allow, PIPES.deny));

  it.each(['find . -type f | xargs cat', 'ls | xargs cat', 'git ls-files | xargs wc -l', 'grep -rl planted . | xargs cat'])('%s: denied', async (command) => {
    const decision = await judgeOdd(command);
    expect(decision.decision, decision.reason).toBe('deny');
  });

  it('says which name and what to do instead', async () => {
    const decision = await judgeOdd('find . -type f | xargs cat');
    expect(decision.reason).toMatch(/'a ' holds a blank, a quote or a backslash, where the names are split: print them NUL-separated \(find -print0.*xargs -0/);
  });

  it.each([
    // NUL-separated both ways, a line each (no line break in any name), or a tree without the odd name.
    'find . -type f -print0 | xargs -0 cat',
    'find . -type f -print0 | sort -z | xargs -0 wc -l',
    'find . -type f | xargs -I X wc -l X',
    'find src -type f | xargs cat',
    'ls src | xargs cat',
  ])('%s: allowed', async (command) => {
    const decision = await judgeOdd(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });
});

describe('the walk for odd names (oddNameProblem)', () => {
  let tree: string;
  beforeAll(() => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'odd-names-'));
    for (let i = 0; i < 30; i++) fs.mkdirSync(path.join(tree, `d${i}`, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(tree, 'd29', 'sub', 'new\nline.txt'), '');
  });
  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));
  const shown = (p: string) => path.relative(tree, p);

  it('refuses a tree bigger than its budget rather than half-check it', () => {
    expect(oddNameProblem([tree], 'blanks', Infinity, shown, 10)).toMatch(/too big to check/);
  });

  it('finds a line break wherever names are read a line each, and only looks as deep as asked', () => {
    expect(oddNameProblem([tree], 'lines', Infinity, shown)).toMatch(/d29\/sub\/new\nline.txt' holds a line break/);
    expect(oddNameProblem([tree], 'lines', 1, shown)).toBeNull();
    expect(oddNameProblem([tree], 'nul', Infinity, shown, 0)).toBeNull();
  });
});
