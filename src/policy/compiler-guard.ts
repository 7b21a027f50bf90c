// C compiler drivers (gcc, clang and their C++ names): options that run a program or load code of
// the caller's choice, which a rule allowing the compiler whole (`gcc *`) must not approve, since
// the file tools (or the compiler itself: `gcc -shared -o x.so x.c`) can put that code in the
// workspace. `-B DIR` (`--prefix`) runs DIR's cc1, as, collect2 and ld; `-fplugin=x.so` (also from
// `-iplugindir`) dlopens a library into cc1, whose constructor runs; a specs file's link_command
// is the program run to link; clang's `--ld-path`, `-fuse-ld=PATH`, `--gcc-toolchain` and
// `-ccc-install-dir` pick the programs it runs, `-fpass-plugin` and cc1's `-load` load libraries.
// The same options handed on to the preprocessor, cc1 or the linker (`-Wp,-fplugin=x.so`,
// `-Xclang -load`, `-Wl,-plugin,x.so`) load as well. Each such file is a program under another
// name, which deny rules cannot see either (as a script file): these findings are the allowlist's.
import type { GuardContext, GuardFinding } from './shell-guards.js';

/**
 * A compiler driver by another of its names: a version (`gcc-12`, `clang-16`), a target triple
 * (`x86_64-linux-gnu-gcc`, `aarch64-linux-gnu-g++-12`), or both; the base names are GUARDS' own.
 */
export function isCompilerDriver(name: string): boolean {
  return /^(?:[A-Za-z0-9_.]+-)*(?:gcc|g\+\+|cc|c\+\+|cpp|clang|clang\+\+)(?:-\d+(?:\.\d+)*)?$/.test(name);
}

/** Options the driver itself reads that name a program or library it runs. */
function driverLoads(word: string): string | null {
  if (/^-B/.test(word) || word === '--prefix' || word.startsWith('--prefix=')) return 'looks for the programs it runs (cc1, as, collect2, ld) in a directory of its choice first';
  if (/^--?specs(=|$)/.test(word)) return "reads a specs file, whose link_command names any program to run";
  if (word === '--ld-path' || word.startsWith('--ld-path=') || /^--?fuse-ld=.*\//.test(word)) return 'runs a linker of its choice';
  if (/^--gcc-(toolchain|install-dir)(=|$)/.test(word) || word.startsWith('-ccc-')) return 'looks for the programs it runs in a directory of its choice';
  return passedLoads(word);
}

/** Options of cc1, the preprocessor or the linker that load a library of the caller's choice. */
function passedLoads(word: string): string | null {
  if (/^-f(pass-)?plugin(=|$)/.test(word) || word.startsWith('-iplugindir')) return 'loads a plugin library, whose code runs in the compiler';
  if (/^--?(load|load-pass-plugin|plugin)(=|$)/.test(word)) return 'loads a plugin library, whose code runs in the compiler or the linker';
  return null;
}

/** Options whose next word (or `=value`) is handed on whole: to cc1, the linker, the assembler or the preprocessor. */
const HANDS_ON = /^(-Xclang|-Xlinker|-Xassembler|-Xpreprocessor|-mllvm|-Xarch_[\w-]+|-Xopenmp-target(=[\w-]+)?|-Xcuda-[\w-]+)$/;

export function compilerGuard(argv: string[], context: GuardContext): GuardFinding[] {
  const index = argv.findIndex((word) => word === '-wrapper' || word.startsWith('-wrapper'));
  if (index >= 0) return [{ index, guard: `${argv[0]} -wrapper`, message: `${argv[0]} -wrapper runs its subprocesses under a program of its choice` }];
  return [...loadedCode(argv), ...passedOnGuard(argv, context)];
}

function loadedCode(argv: string[]): GuardFinding[] {
  const findings: GuardFinding[] = [];
  const found = (index: number, option: string, shown: string, why: string) =>
    findings.push({ index, guard: `${argv[0]} ${option}`, message: `${argv[0]} ${shown} ${why}, which a file the workspace holds may be`, kind: 'code' });
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const driver = driverLoads(word);
    if (driver !== null) {
      found(i, word.replace(/=.*$/s, '').replace(/^-B.*$/s, '-B'), word, driver);
      continue;
    }
    // `-Xclang -load`, `-Xclang=-load` (clang's spelling of the same), `-Xlinker -plugin`.
    const handsOn = /^(-X[\w-]+)=(.*)$/s.exec(word);
    const value = HANDS_ON.test(word) ? argv[i + 1] : handsOn ? handsOn[2] : undefined;
    const passed = value === undefined ? null : passedLoads(value);
    if (passed !== null) found(i, `${handsOn?.[1] ?? word} ${value!.replace(/=.*$/s, '')}`, handsOn ? word : `${word} ${value}`, passed);
    // `-Wl,-plugin,x.so`, `-Wp,-fplugin=x.so`: each piece is a word of the program it goes to.
    const pieces = /^-W[lap],(.*)$/s.exec(word)?.[1]?.split(',') ?? [];
    const piece = pieces.map((each) => passedLoads(each)).find((why) => why !== null);
    if (piece) found(i, word.slice(0, 3), word, piece);
  }
  return findings;
}

/**
 * `-Wl,a,b` (`-Wa,`, `-Wp,`) hands a, b to the linker, assembler or preprocessor as words of their
 * own, which no other check splits: `-Wl,-o,/tmp/x` writes there, `-Wp,-MD,/tmp/x` too, and
 * `-Wl,@f` reads more options from f. Each piece is checked as a word of the line would be.
 */
function passedOnGuard(argv: string[], context: GuardContext): GuardFinding[] {
  const findings: GuardFinding[] = [];
  argv.forEach((word, i) => {
    const passed = /^-W[lap],(.*)$/s.exec(word);
    if (!passed) return;
    for (const piece of passed[1]!.split(',')) {
      if (piece.startsWith('@')) {
        findings.push({ index: i, guard: `${argv[0]} ${word.slice(0, 3)}`, message: `${word.slice(0, 3)} hands on '${piece}', which reads more options from '${piece.slice(1)}' that no check sees`, kind: 'names' });
        continue;
      }
      // The piece, the value of `--opt=value`, and what follows a short option's letter (`-L/x`).
      const values = [piece, ...(piece.includes('=') ? [piece.slice(piece.indexOf('=') + 1)] : []), ...(/^-[^-]./s.test(piece) ? [piece.slice(2)] : [])];
      for (const value of values) {
        if (!/^[/~]/.test(value) && !value.includes('/')) continue;
        const problem = context.outsideWorkspace(value) ?? context.protectedPath?.(argv[0]!, value) ?? null;
        if (problem) {
          findings.push({ index: i, guard: `${argv[0]} ${word.slice(0, 3)}`, message: `${word.slice(0, 3)} hands on the path '${value}' (${problem})`, kind: 'names' });
          break;
        }
      }
    }
  });
  return findings;
}
