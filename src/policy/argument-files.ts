// Words that make a program read what the line does not show: a response file (`gcc @opts`,
// whose words may be `-wrapper /bin/sh,-c,…` or `-o /etc/x`; GCC, Clang, GNU binutils, javac and
// java, tsc, and 7-Zip's list files all expand them), and curl's own ways to read a local file:
// `-d @f`, `-F name=@f`, `-H @f`, `--data-urlencode name@f`, `-K f` (a config file of more
// options) and `file://` URLs. A response file or a curl config is refused outright (its words
// would need the whole policy); curl's other files are checked like paths, as `-T f` already is.
import path from 'node:path';
import type { GuardContext, GuardFinding } from './shell-guards.js';
import { longOption } from './shell-options.js';
import { isCompilerDriver } from './compiler-guard.js';

/** Programs that read more arguments from the file a word `@FILE` names. */
export const EXPANDS_ARGUMENT_FILES: ReadonlySet<string> = new Set([
  'gcc', 'g++', 'cc', 'c++', 'cpp', 'clang', 'clang++', 'clang-cl', 'ld', 'ld.bfd', 'ld.gold', 'ld.lld', 'lld', 'as', 'ar', 'ranlib', 'nm', 'objcopy',
  'objdump', 'readelf', 'size', 'strings', 'strip', 'javac', 'java', 'javadoc', 'jar', 'tsc', '7z', '7za', '7zr', '7zz',
]);

export function argumentFileGuard(argv: readonly string[]): GuardFinding[] {
  const program = path.posix.basename(argv[0] ?? '');
  if (!EXPANDS_ARGUMENT_FILES.has(program) && !isCompilerDriver(program)) return [];
  const index = argv.findIndex((word, i) => i > 0 && word.length > 1 && word.startsWith('@'));
  if (index < 0) return [];
  return [{ index, guard: `${program} @file`, message: `${program} reads more arguments from '${argv[index]!.slice(1)}', which no check sees; write them in the line itself`, kind: 'names' }];
}

/** curl's options whose value names a file to send or read with a leading `@` (or `<` in a form). */
const AT_VALUES = ['--data', '--data-ascii', '--data-binary', '--data-urlencode', '--json', '--form', '--form-string', '--header', '--proxy-header', '--variable', '--url-query'];
const AT_SHORT = 'dFH';
/** curl's short options that take no value: in a cluster, the first letter not among them takes the rest of the word (`-sd@f`), or the next word. */
const SHORT_FLAGS = '0123456aBfgGiIjJkLlMnNOpqRsSvVZ#:';

export function curlGuard(argv: string[], context: GuardContext): GuardFinding[] {
  const findings: GuardFinding[] = [];
  const check = (i: number, file: string | null, value: string, what = 'reads') => {
    if (file === null) return;
    const outside = file === '' ? 'a file:// URL the policy does not read' : (context.outsideWorkspace(file) ?? context.protectedPath?.('curl', file) ?? null);
    if (outside) findings.push({ index: i, guard: 'curl file', message: `curl ${what} the file '${file || value}' (${outside})`, kind: 'names' });
  };
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const name = word.startsWith('--') ? longOption(word.split('=')[0]!, [...AT_VALUES, '--config', '--url', '--write-out']) : null;
    const short = /^-[^-]/.test(word) ? shortValue(word) : null;
    if (name === '--config' || short?.letter === 'K') {
      findings.push({ index: i, guard: 'curl --config', message: 'curl --config reads more options from a file, which no check sees', kind: 'names' });
      continue;
    }
    const writeOut = name === '--write-out' || short?.letter === 'w';
    const valued = writeOut || (name !== null && name !== '--url') || (short !== null && AT_SHORT.includes(short.letter));
    const attached = name !== null ? (word.includes('=') ? word.slice(word.indexOf('=') + 1) : null) : short !== null && short.rest !== '' ? short.rest : null;
    const value = valued ? (attached ?? argv[++i]) : word;
    if (value === undefined) break;
    if (!writeOut) {
      check(i, valued ? fileInValue(value) : fileUrl(value), value);
      continue;
    }
    // `-w @f` reads the format from a file; `%output{f}` (`>>f`: appends) sends what follows it to one.
    if (value.startsWith('@')) check(i, value.slice(1), value);
    for (const m of value.matchAll(/%output\{(?:>>)?([^}]*)\}/g)) check(i, m[1]!, value, 'writes');
  }
  return findings;
}

/** The option letter of a short cluster that takes a value, and what follows it in the word; null for flags alone. */
function shortValue(word: string): { letter: string; rest: string } | null {
  for (let j = 1; j < word.length; j++) {
    if (!SHORT_FLAGS.includes(word[j]!)) return { letter: word[j]!, rest: word.slice(j + 1) };
  }
  return null;
}

/** `@f`, `name=@f`, `name@f` (--data-urlencode), `name=<f` (a form): the file, else null. */
function fileInValue(value: string): string | null {
  const match = /^(?:[^=@<]*[=])?[@<](.+)$/.exec(value) ?? /^[^=@<]+@(.+)$/.exec(value);
  if (!match) return null;
  // A form field's file may carry `;type=…` after it.
  return match[1]!.split(';')[0]!;
}

/** The local path of a `file:` URL ('' when it cannot be read: globs, a host), else null. */
function fileUrl(word: string): string | null {
  if (!/^file:/i.test(word)) return null;
  const rest = word.slice(5);
  if (/[[\]{}]/.test(rest)) return '';
  const local = rest.startsWith('//') ? (/^\/\/(localhost)?(\/.*)$/i.exec(rest)?.[2] ?? '') : rest;
  try {
    return decodeURIComponent(local);
  } catch {
    return '';
  }
}
