// find -exec with the found name as the program: `find /bin -name 'r?' -exec {} -rf d ';'` runs
// /bin/rm -rf d, and a repository may hold any file find can find. A deny rule is tried on such a
// command as if `{}` named its program; what find runs with `{}` as an operand is checked as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';
import type { PolicySpec } from './policies.js';

const RM_RF: PolicySpec = { mode: 'auto-approve', allow: [], deny: ['shell: rm -rf *'] };
const FORCE_PUSH: PolicySpec = { mode: 'auto-approve', allow: [], deny: ['shell: git push --force *'] };

const refused: Array<[string, PolicySpec]> = [
  ["find /bin -name 'r?' -exec {} -rf build ';'", RM_RF],
  ["find /bin -name 'r?' -exec {} -rf build +", RM_RF],
  ["find /bin -inum 5 -execdir {} -rf build ';'", RM_RF],
  ["find /bin -name 'r?' -ok {} -fr build ';'", RM_RF],
  ["find /bin -name 'r?' -okdir {} -r -f build ';'", RM_RF],
  ["find . -name 'r?' -exec ./{} -rf build ';'", RM_RF],
  ["find /bin -name 'r?' -exec env {} -rf build ';'", RM_RF],
  ["find /bin -name 'r?' -exec timeout 5 {} --recursive --force build ';'", RM_RF],
  ["nice find /bin -type f -exec {} -rf build ';'", RM_RF],
  ["find . -name 'src' -exec true ';' -exec {} -rf build ';'", RM_RF],
  ["find /usr/bin -name 'gi?' -exec {} push --force origin main ';'", FORCE_PUSH],
  // fd runs what follows -x (to `;` or the end) for each name, with `{}` and its path parts.
  ["fd -g 'r?' /bin -x {} -rf build", RM_RF],
  ["fdfind -g 'r?' /bin --exec '{/}' -rf build ';'", RM_RF],
  ["fd -g 'r?' /bin -X env {} -rf build", RM_RF],
];

/** What does not run the denied meaning, whatever find finds. */
const allowed: Array<[string, PolicySpec]> = [
  ["find . -name '*.ts' -exec wc -l {} +", RM_RF],
  ["find . -name '*.ts' -exec grep -l foo {} ';'", RM_RF],
  ["find /bin -name 'r?' -exec {} build ';'", RM_RF],
  ["find . -name '*.log' -exec cp {} {}.bak ';'", RM_RF],
  ["find /usr/bin -name 'gi?' -exec {} push origin main ';'", FORCE_PUSH],
  ["fd -e ts -x wc -l {}", RM_RF],
];

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

async function decision(command: string, policy: PolicySpec) {
  return decide(shell(command)(fixture), fixture.context(policy.mode, policy.allow, policy.deny));
}

describe('find -exec whose program is a name find finds', () => {
  it.each(refused)('%j is refused', async (command, policy) => {
    const result = await decision(command, policy);
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/is refused by the deny rule .* where '[^']*\{[^']*\}' stands for a file name it finds, which may name any program/);
  });

  it.each(allowed)('%j runs', async (command, policy) => {
    expect(await decision(command, policy)).toMatchObject({ decision: 'allow' });
  });
});

// GNU find hands -exec names that start with a starting point, which cannot start with '-' (it
// would be a test): `./-rf` is no option, so `-exec rm {} +` does not mean `rm -rf`. Where a name
// may read as an option, the command is taken to get any options.
describe("find's names as the command's operands", () => {
  const plain = [
    "find . -name '*.orig' -exec rm {} ';'",
    "find . -type f -name '*.orig' -exec rm -f {} +",
    "find build -name '*.o' -exec rm -r {} +",
    'nice find . -name x -ok rm {} ;',
  ];
  it.each(plain)('%j runs', async (command) => {
    expect(await decision(command, RM_RF)).toMatchObject({ decision: 'allow' });
  });

  const optionsFromNames = [
    "find . -name x -exec rm -rf {} +",
    // `{}` inside a word: with the starting point `f`, `-r{}` is `-rf`.
    'find f -maxdepth 0 -exec rm -r{} ;',
    // BSD's -f names a starting point that may start with '-'; after `--` BSD takes one as a path.
    'find -f -rf -exec rm {} +',
    'find -- -rf -exec rm {} +',
    // BSD's -execdir hands the bare name; -files0-from reads starting points from a file.
    'find . -execdir rm {} +',
    'find . -okdir rm {} ;',
    'find -files0-from list -exec rm {} +',
  ];
  it.each(optionsFromNames)('%j is refused', async (command) => {
    expect((await decision(command, RM_RF)).reason).toMatch(/deny rule 'shell: rm -rf \*'/);
  });
});

// fd hands -x/-X the names it finds with a `./` prefix, but not with --strip-cwd-prefix, before
// fd 8.3, or as `{/}` (the base name): a file named `-rf` is then an option.
describe("fd's names as the command's operands", () => {
  it.each(['fd --strip-cwd-prefix -x rm {}', 'fd -e o -x rm {/}', 'fd -HIx rm {}', 'fd --exec rm {}', 'fd -X rm'])('%j is refused', async (command) => {
    expect((await decision(command, RM_RF)).reason).toMatch(/deny rule 'shell: rm -rf \*'/);
  });

  // A search for a name is no command, after fd or find.
  it.each(['fd rm', 'find . -name rm', 'fd -e ts -x wc -l {}'])('%j runs', async (command) => {
    expect(await decision(command, RM_RF)).toMatchObject({ decision: 'allow' });
  });
});
