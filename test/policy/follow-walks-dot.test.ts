// grep -R, rg -L, find -L, ls -LR and du -L walk '.' when no tree is named, and follow the links
// they meet there. Whether a tree is named was read from words a value or the pattern may be:
// `grep -R secret -A 3` took '3', `rg --follow secret` and `find -L -type f` took the pattern or a
// predicate's value, for the tree, so the workspace's link out was never looked at and the line
// was allowed. Real programs, run in the fixture, show where each line reaches; the policy must
// refuse it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

const ALLOW = ['shell: grep *', 'shell: rg *', 'shell: find *', 'shell: ls *', 'shell: du *'];
const has = (program: string) => ['/usr/bin', '/bin'].some((dir) => fs.existsSync(path.join(dir, program)));

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
  fs.writeFileSync(path.join(fixture.outside, 'secret.txt'), 'TOPSECRET\n');
});
afterAll(() => fixture.cleanup());

/** Each line, and what in its real output shows it read or listed the file outside (through link-out or secret-link). */
const LINES: Array<[line: string, reached: RegExp]> = [
  ['grep -R TOPSECRET -A 3', /link-out\/secret\.txt:TOPSECRET/],
  ['grep -R TOPSECRET --context 3', /link-out\/secret\.txt:TOPSECRET/],
  ['grep --context 3 -R TOPSECRET', /link-out\/secret\.txt:TOPSECRET/],
  ['grep --dereference-recursive TOPSECRET', /link-out\/secret\.txt:TOPSECRET/],
  ['grep -R -- TOPSECRET', /link-out\/secret\.txt:TOPSECRET/],
  ['rg --follow TOPSECRET', /link-out\/secret\.txt:TOPSECRET/],
  ['rg --follow -- TOPSECRET', /link-out\/secret\.txt:TOPSECRET/],
  ['rg -L TOPSECRET -m 3', /link-out\/secret\.txt:TOPSECRET/],
  ['find -L -type f', /link-out\/secret\.txt/],
  ['find -L -newer src/a.ts -o -type f', /link-out\/secret\.txt/],
  ['find -follow -type f', /link-out\/secret\.txt/],
  ['ls -LR --sort size', /link-out:\n(.*\n)*secret\.txt/],
  ['du -L -d 3', /\t\.\/link-out\n/],
];

describe('a link-following walk of the current directory, with a word that is no tree', () => {
  it.each(LINES)('%s: the real program reaches outside; the policy refuses the line', async (line, reached) => {
    const program = line.split(' ')[0]!;
    if (has(program)) {
      let out = '';
      try {
        out = execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', line], { cwd: fixture.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (error) {
        out = String((error as { stdout?: string }).stdout ?? ''); // a dangling link in the tree makes some exit 1 after printing
      }
      expect(out).toMatch(reached);
    }
    const decision = await decide(shell(line)(fixture), fixture.context('allowlist', ALLOW));
    expect(decision).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/follows symbolic links, and '(link-out|secret-link|git-link|hooks-link|dangling|notes\.txt)' below '\.' leads outside/) });
  });

  it('a tree named beside such words is still the only one walked', async () => {
    // src holds no link: naming it (after an option value, after --context 3) is allowed.
    for (const line of ['grep -R TOPSECRET -A 3 src', 'grep --context 3 -R TOPSECRET src', 'rg -L TOPSECRET -m 3 src', 'find -L src -type f', 'ls -LR --sort size src', 'du -L -d 3 src', 'grep -Rn TOPSECRET src', 'grep -R --line-number --ignore-case TOPSECRET src', 'rg --follow --no-heading TOPSECRET src']) {
      const decision = await decide(shell(line)(fixture), fixture.context('allowlist', ALLOW));
      expect({ line, decision: decision.decision }).toEqual({ line, decision: 'allow' });
    }
  });
});
