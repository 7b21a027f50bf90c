// Non-ASCII symbols and punctuation are plain word characters to bash, as letters are: an allow
// rule approves a command whose unquoted words hold them (`echo ✓ done`, `git commit -m 🎉`), and
// the analysis reads each such word exactly as bash passes it. Look-alikes of operators stay refused.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../../src/policy/shell-analyze.js';
import { checkRule, decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';
import { MAIN } from './policies.js';

const WORDS = ['❤️', '©2024', '→x', '«a»', '—b', '€5', '½', '✓', '„quoted“', 'a❤b', '👍🏽', '¡hola'];

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const decideMain = (command: string) => decide(shell(command)(fixture), fixture.context(MAIN.mode, MAIN.allow, MAIN.deny));

describe('unquoted non-ASCII symbols and punctuation', () => {
  it.each(WORDS)('%s: bash passes the word the analysis reads', async (word) => {
    const analysis = await analyzeShellCommand(`ls ${word} x`);
    expect(analysis.ok && analysis.commands.map((c) => c.argv)).toEqual([['ls', word, 'x']]);
    const passed = execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${word} x`], { encoding: 'utf8' });
    expect(passed.split('\0').slice(0, -1)).toEqual([word, 'x']);
  });

  it.each(['echo ✓ done', 'git commit -m 🎉', 'grep → src/a.ts', 'echo ©2024 «a» —b €5'])('%s is allowed by its rule', async (command) => {
    expect((await decideMain(command)).decision).toBe('allow');
  });

  it.each([
    ['echo ✓*', /is a glob \('\*'\)/],
    ['echo ✓$(id)', /command substitution/],
    ['echo ∣ sh', /look-alike of a shell operator/],
    ['echo ；id', /full-width/],
  ])('%s is still refused', async (command, reason) => {
    expect(await decideMain(command)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(reason) });
  });

  it('a rule may name such a word', () => {
    expect(checkRule({ tool: 'shell', pattern: 'echo ✓ *', source: 'shell: echo ✓ *' })).toBeNull();
  });
});
