// A C compiler runs programs and loads libraries its options name: `gcc -B DIR` runs DIR's cc1,
// `-fplugin=x.so` dlopens x.so into cc1 (its constructor runs before any licence check), a specs
// file's link_command is the program that links. Under `- shell: gcc *` each ran code the model
// had written into the workspace (gcc itself builds the library: `gcc -shared -o x.so x.c`).
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

const RULES = ['shell: gcc *', 'shell: g++ *', 'shell: clang *', 'shell: cc *'];
const judge = (command: string, allow = RULES) => decide(shell(command)(fixture), fixture.context('allowlist', allow, []));

const hasGcc = (() => {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasGcc)('real gcc runs the code each option names', () => {
  /** A scratch directory holding a.c, where `gcc ARGS` is run; whether it left `ran` behind. */
  const runsCode = (prepare: (dir: string) => void, args: string[]) => {
    const dir = fs.mkdtempSync(path.join(fixture.tmp, 'gcc-'));
    fs.writeFileSync(path.join(dir, 'a.c'), 'int main(void) { return 0; }\n');
    prepare(dir);
    try {
      execFileSync('gcc', args, { cwd: dir, stdio: 'ignore', timeout: 60_000 });
    } catch {
      // The planted program fails the compilation after it has run.
    }
    return fs.existsSync(path.join(dir, 'ran'));
  };

  it('gcc -B./evil/ runs evil/cc1', () => {
    const plant = (dir: string) => {
      fs.mkdirSync(path.join(dir, 'evil'));
      fs.writeFileSync(path.join(dir, 'evil/cc1'), '#!/bin/sh\ntouch ran\nexit 1\n', { mode: 0o755 });
    };
    expect(runsCode(plant, ['-B./evil/', '-c', 'a.c'])).toBe(true);
  });

  it('gcc -fplugin=./x.so runs x.so, which gcc built', () => {
    const plant = (dir: string) => {
      fs.writeFileSync(path.join(dir, 'p.c'), '#include <stdlib.h>\n__attribute__((constructor)) static void run(void) { system("touch ran"); }\n');
      execFileSync('gcc', ['-shared', '-fPIC', '-o', 'x.so', 'p.c'], { cwd: dir, stdio: 'ignore' });
    };
    expect(runsCode(plant, ['-fplugin=./x.so', '-c', 'a.c'])).toBe(true);
  });

  it('gcc -specs=x.specs runs its link_command', () => {
    const plant = (dir: string) => fs.writeFileSync(path.join(dir, 'x.specs'), '*link_command:\ntouch ran\n\n');
    expect(runsCode(plant, ['-specs=x.specs', 'a.c'])).toBe(true);
  });
});

describe("under 'gcc *' (and clang's), an option that runs or loads code of the workspace is refused", () => {
  it.each([
    ['gcc -B./evil/ -c a.c', 'gcc -B'],
    ['gcc -B evil/ -c a.c', 'gcc -B'],
    ['gcc --prefix=./evil/ -c a.c', 'gcc --prefix'],
    ['gcc -fplugin=./x.so -c a.c', 'gcc -fplugin'],
    ['g++ -iplugindir=. -fplugin=x -c a.cc', 'g++ -iplugindir'],
    ['gcc -specs=x.specs a.c', 'gcc -specs'],
    ['gcc --specs x.specs a.c', 'gcc --specs'],
    ['gcc -Wp,-fplugin=./x.so -c a.c', 'gcc -Wp'],
    ['gcc -Xpreprocessor -fplugin=./x.so -E a.c', 'gcc -Xpreprocessor -fplugin'],
    ['gcc -Wl,-plugin,./x.so a.c', 'gcc -Wl'],
    ['cc -Xlinker --plugin=./x.so a.c', 'cc -Xlinker --plugin'],
    ['clang -Xclang -load -Xclang ./x.so -c a.c', 'clang -Xclang -load'],
    ['clang -fpass-plugin=./x.so -c a.c', 'clang -fpass-plugin'],
    ['clang --ld-path=./ld a.c', 'clang --ld-path'],
    ['clang -fuse-ld=./ld a.c', 'clang -fuse-ld'],
    ['clang --gcc-toolchain=./t a.c', 'clang --gcc-toolchain'],
  ])('%s', async (command, guard) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although`);
  });

  it.each([
    'gcc -O2 -Wall -fPIC -shared -o x.so a.c',
    'gcc -Wl,-Bstatic,-lfoo,-Bdynamic -o a.out a.c',
    'gcc -fuse-ld=lld -o a.out a.c',
    'gcc -fplugin-arg-x-y=1 -c a.c',
    'clang -Xclang -ast-dump -fsyntax-only a.c',
    'gcc -Xlinker --as-needed -o a.out a.c -lm',
  ])('%s: allowed', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it('a rule that spells the option out allows it', async () => {
    const decision = await judge('clang -Xclang -load -Xclang ./x.so -c a.c', ['shell: clang -Xclang -load *']);
    expect(decision.decision, decision.reason).toBe('allow');
  });
});

// Debian and cross toolchains name the same driver with a version or a target triple: a rule
// `gcc-12 *` approved `gcc-12 -wrapper sh,-c,…` and `@opts`, which the guards knew only as gcc's.
describe('a compiler by a versioned or cross name is guarded as itself', () => {
  it.each([
    ['gcc-12 -wrapper sh,-c,id a.c', 'shell: gcc-12 *', 'gcc-12 -wrapper'],
    ['x86_64-linux-gnu-gcc -B./evil/ -c a.c', 'shell: x86_64-linux-gnu-gcc *', 'x86_64-linux-gnu-gcc -B'],
    ['clang-16 -fplugin=./x.so -c a.c', 'shell: clang-16 *', 'clang-16 -fplugin'],
    ['aarch64-linux-gnu-g++-12 @opts a.cc', 'shell: aarch64-linux-gnu-g++-12 *', 'aarch64-linux-gnu-g++-12 @file'],
  ])('%s', async (command, rule, guard) => {
    const decision = await judge(command, [rule]);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although '${rule}' matches`);
  });

  it('gcc-12 -O2 -o a.out a.c: allowed', async () => {
    const decision = await judge('gcc-12 -O2 -o a.out a.c', ['shell: gcc-12 *']);
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it("under a deny rule, gcc-12 -wrapper cannot be checked, as gcc's cannot", async () => {
    const decision = await decide(shell("gcc-12 -wrapper 'sh,-c,rm -rf d' -c a.c")(fixture), fixture.context('auto-approve', [], ['shell: rm *']));
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain('-wrapper runs its subprocesses');
  });
});
