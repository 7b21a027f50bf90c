// Unquoted globs are expanded against the files before the deny rules see the line (under allowlist
// a glob is refused, as issue 3 has it). The expansion must
// be bash's own: real bash prints what each pattern stands for in a tree of awkward names, and the
// policy's reading must give the same words (or refuse where it cannot be sure). Then what the
// rules make of the names: a planted `-rf` meets the deny rule, and a glob that an earlier command
// of the line could change is refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../../src/policy/shell-analyze.js';
import { expandLineGlobs } from '../../src/policy/shell-globs.js';
import { MAX_GLOB_MATCHES } from '../../src/policy/glob-match.js';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

let tree: string;
beforeAll(() => {
  tree = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'globs-')));
  const files = [
    'src/a.ts', 'src/b.ts', 'src/c.js', 'src/.hidden.ts', 'src/sub/d.ts', 'README.md', 'notes.md', '-rf', '--force',
    'a b.txt', '[x].txt', 'q?.txt', 'star*.txt', '.env', 'dir.d/e.ts', 'UPPER.TS', 'é.md', 'lib/x.ts',
  ];
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), 'x\n');
  }
  fs.symlinkSync('src', path.join(tree, 'link-dir'));
  fs.symlinkSync('nowhere', path.join(tree, 'dangling'));
  fs.symlinkSync('README.md', path.join(tree, 'readme-link'));
});
afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

/** What bash passes for `words` in `tree`, one argv word per entry. */
function bashWords(words: string): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${words}`], {
    cwd: tree,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
  });
  return out.split('\0').slice(0, -1);
}

async function policyWords(words: string): Promise<string[] | { refused: string }> {
  const analysis = await expandLineGlobs(await analyzeShellCommand(`printf ${words}`, { globs: true }), tree);
  if (!analysis.ok) return { refused: analysis.reason };
  return analysis.commands[0]!.argv.slice(1);
}

const SAME_AS_BASH = [
  '*', '*.ts', '*.md', 'src/*.ts', 'src/*', 'src/.*', '.*', '*/', '*/*.ts', '*/sub/*.ts', 'link-dir/*', '*.nomatch',
  'no/such/*', '[ab]*', '[!a-z.]*.TS', '[^A-Z]*.ts', '[[:upper:]]*', '*[.]ts', '-*', 's*/*.?s', '*.[tj]s', 'src/*/', './*.md', 'dangl*',
  'readme-*', '"src"/*.ts', "'star*'.txt", "star'*'*", '*\' \'*', "'[x]'*", 'q?.txt', '"q?".txt', '*.TS',
  'src/[a-b].ts', '*.d/*', 'src/?.ts', '[]x]*', '*/*/', '?ib/x.ts', 'lib/*.ts lib/*.js *.md', 'src//*.ts', './/*.md',
  '/tm[p]', '/*/../tm?', 'http://example.com/a?b=1', 'src/*/../*.ts', 'src/\\*.ts', '\\-*', '*\\ *', 'q\\?.txt',
];

describe('a glob stands for the names bash passes', () => {
  it.each(SAME_AS_BASH)('%s', async (words) => {
    const ours = await policyWords(words);
    expect(ours).toEqual(bashWords(words));
  });

  it.each([
    // `?` and a bracket match one character: in a UTF-8 locale é is one, in C it is two bytes.
    ['?.md', /not plain ASCII \('é\.md'\).*name the files/],
    ['[!a-z]*', /not plain ASCII \('é\.md'\)/],
    // A reversed range matches nothing in bash; the policy does not read it.
    ['[z-a]*', /has a range the policy does not read/],
    ['[[:nope:]]*', /class '\[:nope:\]' is not one the policy reads/],
    ['[[]x].txt', /contains '\]'/],
  ])('refuses %s where it cannot be sure, not guessing', async (words, reason) => {
    const ours = await policyWords(words);
    expect(ours).toEqual({ refused: expect.stringMatching(reason) });
  });
});

describe('what the rules make of the names', () => {
  let fixture: Fixture;
  beforeAll(() => {
    fixture = makeFixture();
    fs.writeFileSync(path.join(fixture.root, 'src', 'b.ts'), 'x\n');
  });
  afterAll(() => fixture.cleanup());

  const decision = async (command: string, mode: 'auto-approve' | 'allowlist', rules: string[]) =>
    decide(shell(command)(fixture), mode === 'allowlist' ? fixture.context(mode, rules) : fixture.context(mode, [], rules));

  it('under allowlist a glob is refused, as issue 3 has it; deny rules judge the names', async () => {
    expect(await decision('wc -l src/*.ts', 'allowlist', ['shell: wc *'])).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/is a glob \('\*'\).*name the files/) });
    expect(await decision('wc -l src/*.ts', 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'allow' });
  });

  it('a planted file named -rf makes rm * the denied rm -rf', async () => {
    // Under src/ it is the operand src/-rf; at the top it is the option.
    fs.writeFileSync(path.join(fixture.root, 'src', '-rf'), '');
    try {
      expect(await decision('rm src/*', 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'allow' });
      expect(await decision('rm *', 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'allow' });
      fs.writeFileSync(path.join(fixture.root, '-rf'), '');
      const result = await decision('rm *', 'auto-approve', ['shell: rm -rf *']);
      expect(result).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/deny rule 'shell: rm -rf \*'.*it runs 'rm -rf /) });
    } finally {
      fs.rmSync(path.join(fixture.root, 'src', '-rf'), { force: true });
      fs.rmSync(path.join(fixture.root, '-rf'), { force: true });
    }
  });

  it("files named as a program's options meet the deny check as if written (the wildcard injection)", async () => {
    const planted = ['--checkpoint=1', '--checkpoint-action=exec=sh evil.sh'];
    const dir = path.join(fixture.root, 'backup');
    fs.mkdirSync(dir);
    for (const name of [...planted, 'a.txt']) fs.writeFileSync(path.join(dir, name), '');
    try {
      const call = (mode: 'allowlist' | 'auto-approve', rules: string[]) => decide(shell('tar cf ../b.tar *', dir)(fixture), mode === 'allowlist' ? fixture.context(mode, rules) : fixture.context(mode, [], rules));
      expect(await call('auto-approve', ['shell: curl *'])).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/--checkpoint-action=exec=sh evil\.sh/) });
      // Without the planted names the same line is fine under that deny rule.
      for (const name of planted) fs.rmSync(path.join(dir, name));
      expect(await call('auto-approve', ['shell: curl *'])).toMatchObject({ decision: 'allow' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a glob after a command that may make files first is refused, with how to write it', async () => {
    const result = await decision('touch ./-rf && rm *', 'auto-approve', ['shell: rm -rf *']);
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/the glob '\*' is expanded when 'rm \*' starts, and 'touch \.\/-rf', which runs before or beside it, may make or rename files first.*run the glob in a call of its own/);
    const beside = await decision('rm src/*.ts | tee log', 'auto-approve', ['shell: rm -rf *']);
    expect(beside.decision).toBe('deny');
    // Commands that write nothing may come first.
    expect(await decision('ls src && wc -l src/*.ts', 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'allow' });
  });

  it('a glob inside a script string, or as the program, is still refused', async () => {
    expect(await decision("bash -c 'rm src/*.ts'", 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/is a glob/) });
    expect(await decision('src/*.sh', 'auto-approve', ['shell: rm -rf *'])).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/is a glob/) });
  });

  it('a glob naming more files than anyone would review is refused', async () => {
    const many = path.join(fixture.root, 'many');
    fs.mkdirSync(many);
    for (let i = 0; i <= MAX_GLOB_MATCHES; i++) fs.writeFileSync(path.join(many, `f${i}`), '');
    try {
      const result = await decision('rm many/*', 'auto-approve', ['shell: rm -rf *']);
      expect(result).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/names more than 1000 files; name fewer/) });
    } finally {
      fs.rmSync(many, { recursive: true, force: true });
    }
  });
});
