// The option table is data the deny rules trust: a spelling in two groups of one program would
// give a word two meanings, and an implied meaning no group names could never be met by a spelling.
import { describe, expect, it } from 'vitest';
import { PROGRAM_OPTIONS, type ProgramOptions } from '../../src/policy/option-table.js';
import { readMeaning } from '../../src/policy/shell-meaning.js';

function tables(): Array<[string, ProgramOptions]> {
  return Object.entries(PROGRAM_OPTIONS).flatMap(([name, table]) => [
    [name, table] as [string, ProgramOptions],
    ...Object.entries(table.subcommands ?? {}).map(([sub, t]): [string, ProgramOptions] => [`${name} ${sub}`, t]),
  ]);
}

describe('option table', () => {
  it.each(tables())('%s: every spelling has one meaning, every implied meaning exists', (_name, table) => {
    const seen = new Map<string, string>();
    const canonicals = new Set(table.groups.map((g) => g.spellings[0]!.replace(/=\??$/, '')));
    for (const group of table.groups) {
      for (const raw of group.spellings) {
        const spelling = raw.replace(/=\??$/, '');
        expect(seen.has(spelling), `${spelling} is in two groups`).toBe(false);
        seen.set(spelling, group.spellings[0]!);
        expect(spelling).toMatch(table.wordOptions ? /^-[a-z][a-z0-9-]*$/ : /^(-[A-Za-z0-9]|--[a-z][a-z0-9-]*)$/);
      }
      for (const implied of group.implies ?? []) expect(canonicals.has(implied), `${implied} is no group's meaning`).toBe(true);
    }
  });

  it('reads values, clusters and subcommands as the programs do', () => {
    expect(readMeaning(['git', '-C', 'push', 'status'], 'command')).toMatchObject({ subcommand: 'status' });
    expect(readMeaning(['git', '-c', 'a=b', 'push', '-uf', 'origin'], 'command')).toMatchObject({ subcommand: 'push', operands: ['origin'] });
    expect([...readMeaning(['git', 'commit', '-am', 'rm -rf', '--no-verify'], 'command')!.options]).toEqual(['-a', '-m', '-n']);
    expect([...readMeaning(['sed', '-i.bak', '-e', 's/a/b/', 'f'], 'command')!.options]).toEqual(['-i', '-e']);
    expect(readMeaning(['rm', '-r', '--', '-f'], 'command')).toMatchObject({ options: new Set(['-r']), operands: ['-f'] });
    // An ambiguous prefix is every option it may be, for a command; a rule must spell options out.
    expect([...readMeaning(['git', 'push', '--fo'], 'command')!.options].sort()).toEqual(['--follow-tags', '-f']);
    expect(readMeaning(['git', 'push', '--fo'], 'rule')).toMatchObject({ options: new Set(), operands: ['--fo'] });
  });
});
