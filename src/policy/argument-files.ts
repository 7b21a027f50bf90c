// Words that make a program read what the line does not show: a response file (`gcc @opts`,
// whose words may be `-wrapper /bin/sh,-c,…` or `-o /etc/x`; GCC, Clang, GNU binutils, javac and
// java, tsc, and 7-Zip's list files all expand them), and curl's own ways to read a local file:
// `-d @f`, `-F name=@f`, `-H @f`, `--data-urlencode name@f`, `-K f` (a config file of more
// options) and `file://` URLs. A response file or a curl config is refused outright (its words
// would need the whole policy); curl's other files are checked like paths, as `-T f` already is.
import path from 'node:path';
import type { GuardContext, GuardFinding } from './shell-guards.js';
import { longOption } from './shell-options.js';

/** Programs that read more arguments from the file a word `@FILE` names. */
export const EXPANDS_ARGUMENT_FILES: ReadonlySet<string> = new Set([
  'gcc', 'g++', 'cc', 'c++', 'cpp', 'clang', 'clang++', 'clang-cl', 'ld', 'ld.bfd', 'ld.gold', 'ld.lld', 'lld', 'as', 'ar', 'ranlib', 'nm', 'objcopy',
  'objdump', 'readelf', 'size', 'strings', 'strip', 'javac', 'java', 'javadoc', 'jar', 'tsc', '7z', '7za', '7zr', '7zz',
]);

export function argumentFileGuard(argv: readonly string[]): GuardFinding[] {
  const program = path.posix.basename(argv[0] ?? '');
  if (!EXPANDS_ARGUMENT_FILES.has(program)) return [];
  const index = argv.findIndex((word, i) => i > 0 && word.length > 1 && word.startsWith('@'));
  if (index < 0) return [];
  return [{ index, guard: `${program} @file`, message: `${program} reads more arguments from '${argv[index]!.slice(1)}', which no check sees; write them in the line itself`, kind: 'names' }];
}

/** curl's options whose value names a file to send or read with a leading `@` (or `<` in a form). */
const AT_VALUES = ['--data', '--data-ascii', '--data-binary', '--data-urlencode', '--json', '--form', '--form-string', '--header', '--proxy-header', '--variable', '--url-query'];
const AT_SHORT = 'dFH';

export function curlGuard(argv: string[], context: GuardContext): GuardFinding[] {
  const findings: GuardFinding[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const name = word.startsWith('--') ? longOption(word.split('=')[0]!, [...AT_VALUES, '--config', '--url']) : null;
    const short = /^-[A-Za-z]+$/.test(word) ? word.slice(1) : '';
    if (name === '--config' || short.includes('K')) {
      findings.push({ index: i, guard: 'curl --config', message: 'curl --config reads more options from a file, which no check sees', kind: 'names' });
      continue;
    }
    const valued = (name !== null && name !== '--url') || (short !== '' && AT_SHORT.includes(short[short.length - 1]!));
    const value = valued ? (word.includes('=') && word.startsWith('--') ? word.slice(word.indexOf('=') + 1) : argv[++i]) : word;
    if (value === undefined) break;
    const file = valued ? fileInValue(value) : fileUrl(value);
    if (file === null) continue;
    const outside = file === '' ? 'a file:// URL the policy does not read' : (context.outsideWorkspace(file) ?? context.protectedPath?.('curl', file) ?? null);
    if (outside) findings.push({ index: i, guard: 'curl file', message: `curl reads the file '${file || value}' (${outside})`, kind: 'names' });
  }
  return findings;
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
