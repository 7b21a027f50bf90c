// Under allowlist, find -exec is judged by what it runs: `find src -name '*.ts' -exec wc -l {} +`
// is allowed where `find *` and `wc *` are, as the same commands joined by a pipe through xargs
// would be. The command must match a rule and pass the guards and path checks, with `{}` standing
// for the starting points (every name find passes lies below one), and a link below them that
// leads out refuses it: find does not follow it, but `cat {}` opens what it leads to.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

const RULES = ['shell: find *', 'shell: wc *', 'shell: grep *', 'shell: cat *', 'shell: cp *'];

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
  fs.mkdirSync(path.join(fixture.root, 'leak'));
  fs.writeFileSync(path.join(fixture.root, 'leak', 'a.txt'), 'x\n');
  fs.symlinkSync(path.join(fixture.outside, 'secret.txt'), path.join(fixture.root, 'leak', 'notes'));
});
afterAll(() => fixture.cleanup());

const decision = (command: string) => decide(shell(command)(fixture), fixture.context('allowlist', RULES));

describe('find -exec under allowlist', () => {
  it.each([
    ["find src -name '*.ts' -exec wc -l {} +", /each command matches an allow rule \(shell: find \*, shell: wc \*\)/],
    ["find src -name '*.ts' -exec grep -l foo {} ';'", /shell: grep \*/],
    ["find -L src -type f -exec grep -n x {} + -exec wc -l {} +", /shell: find \*, shell: grep \*, shell: wc \*/],
    ["find src docs -name '*.md' -exec cp {} {}.bak ';'", /shell: cp \*/],
    ['find src -exec cat {} +', /shell: cat \*/],
  ])('%s runs: each command it runs is allowed', async (command, reason) => {
    expect(await decision(command)).toMatchObject({ decision: 'allow', reason: expect.stringMatching(reason) });
  });

  it.each([
    ["find src -exec rm {} ';'", /'rm \{\}', which find -exec runs for the files it finds, matches none/],
    ["find src -exec wc -l ../outside/secret.txt ';'", /'\.\.\/outside\/secret\.txt' of 'wc' leads outside the workspace.*which find -exec runs/],
    ["find src -exec wc -l {}/../../../x ';'", /leads outside the workspace/],
    ["find src -exec wc -l --files0-from=- {} +", /wc --files0-from guard although 'shell: wc \*' matches 'wc -l --files0-from=- \{\}', which find -exec runs/],
    // A link at the top of the tree: find hands 'secret-link' over, and cat reads what it leads to.
    ['find . -exec cat {} +', /'[^']+' below '\.' leads outside the workspace, and 'cat' opens it when find hands it over/],
    ['find leak -exec cat {} +', /'leak\/notes' below 'leak' leads outside the workspace, and 'cat' opens it when find hands it over; start find where no such link lies/],
    ['find .. -exec wc -l {} +', /the argument '\.\.' of 'find' leads outside the workspace/],
    // Elsewhere, asking, or a found name as the program: not judged as a command of the line.
    ["find src -execdir wc -l {} ';'", /find -execdir guard/],
    ["find src -ok wc -l {} ';'", /find -ok guard/],
    ["find src -name 'r?' -exec {} ';'", /find -exec guard/],
    ['find src -exec wc -l {}', /find -exec guard/],
    ["find src -exec grep -l x {} + -delete", /find -delete guard/],
  ])('%s is refused', async (command, reason) => {
    expect(await decision(command)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(reason) });
  });
});
