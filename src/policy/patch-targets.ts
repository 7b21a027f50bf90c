// What a patch writes, read before it is applied. An allowed `patch -p1 < x.diff` or `git apply
// x.diff` writes the files its headers name, which no word of the line shows: `.github/workflows/
// x.yml`, say. The patch file (its operand, -i, or the file on its stdin) is read and each name
// its headers give (`--- a/x`, `+++ b/x`, `diff --git`, `rename to`, `Index:`, a context diff's
// `***`) is stripped as the program strips it; shell-paths.ts checks each as a path it writes.
import fs from 'node:fs';
import path from 'node:path';
import { gitSubcommandAt } from './git-scripts.js';
import { longOption } from './shell-options.js';
import { readRegularText } from '../util/read-regular-file.js';

/** patch's short options that take a value. */
const PATCH_VALUED = 'pidoBDFgrVYz';

/** Bytes of a patch read, at most: a bigger one is refused rather than half read. */
const PATCH_BUDGET = 16 * 1024 * 1024;

export type PatchWrites = { names: string[]; into: string[]; file: string } | { problem: string };

/** The names `argv` (patch, or git apply when it writes the work tree) writes; null for any other command or mode. */
export function patchWrites(argv: readonly string[], directory: string, stdinFile: string | null): PatchWrites | null {
  const program = path.posix.basename(argv[0] ?? '');
  const sub = program === 'git' ? gitSubcommandAt(argv) : -1;
  const read = program === 'patch' ? readPatch(argv) : program === 'git' && (argv[sub] === 'apply' || argv[sub] === 'am') ? readGitApply(argv.slice(sub)) : null;
  if (read === null) return null;
  if (read.file === '') return { problem: `'${argv.join(' ')}' applies several patches; apply them one per call, so that each one's files are checked` };
  const file = read.file ?? stdinFile;
  if (file === null) return { problem: `'${argv.join(' ')}' reads its patch from a pipe, whose file names cannot be checked; name the patch file (-i FILE, or the file on its stdin)` };
  // patch -d changes directory before anything else, so its -i or operand is read from there; a file on stdin bash opens here.
  const into = read.into.map((dir) => path.resolve(directory, dir));
  const base = program === 'patch' && read.file !== null && into.length ? into.at(-1)! : directory;
  let text: string | null;
  try {
    const resolved = path.resolve(base, file);
    const stat = fs.statSync(resolved);
    if (stat.size > PATCH_BUDGET) return { problem: `the patch '${file}' is over ${PATCH_BUDGET / 1024 / 1024} MB, too big to read before it is applied` };
    // A FIFO would hold the runner forever at a plain read (read-regular-file.ts).
    if (!stat.isFile()) return { problem: `the patch '${file}' is no regular file (a FIFO or a device), so the files it writes cannot be checked; write the patch to a file` };
    text = readRegularText(resolved, PATCH_BUDGET);
  } catch {
    text = null;
  }
  if (text === null) {
    return { problem: `the patch '${file}' cannot be read before it is applied (it does not exist yet), so the files it writes cannot be checked; apply it in a call of its own` };
  }
  const names = headerNames(text).flatMap((name) => strip(name, read.strip).map((stripped) => read.prefix + stripped));
  return { names: [...new Set(names)], into: into.length ? into : [directory], file };
}

/** patch: -i/--input or the second operand, -p/--strip (none: the base name), -d/--directory. */
function readPatch(argv: readonly string[]): { file: string | null; strip: number | null; into: string[]; prefix: string } | null {
  let file: string | null = null;
  let strip: number | null = null;
  const into: string[] = [];
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      operands.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = longOption(eq < 0 ? word : word.slice(0, eq), ['--input', '--strip', '--directory', '--output', '--dry-run']);
      if (name === '--dry-run') return null;
      const value = eq < 0 && name !== null && name !== '--dry-run' ? argv[++i] : word.slice(eq + 1);
      if (name === '--input') file = value ?? null;
      if (name === '--strip') strip = Number(value);
      if (name === '--directory' && value !== undefined) into.push(value);
      // -o/--output: everything goes to that one file, an argument the path check reads.
      if (name === '--output') return null;
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      const letters = word.slice(1);
      const at = [...letters].findIndex((letter) => PATCH_VALUED.includes(letter));
      if (at < 0) continue;
      const letter = letters[at]!;
      const value = at === letters.length - 1 ? argv[++i] : letters.slice(at + 1);
      if (letter === 'i') file = value ?? null;
      if (letter === 'p') strip = Number(value);
      if (letter === 'd' && value !== undefined) into.push(value);
      if (letter === 'o') return null;
      continue;
    }
    operands.push(word);
  }
  return { file: file ?? operands[1] ?? null, strip, into, prefix: '' };
}

/** git apply: its patch files, -p (default 1), --directory; null when it writes no file of the work tree. */
function readGitApply(words: readonly string[]): { file: string | null; strip: number | null; into: string[]; prefix: string } | null {
  const options = words.slice(1).filter((word) => word.startsWith('-'));
  const readsOnly = ['--stat', '--numstat', '--summary', '--check'].some((mode) => options.includes(mode)) && !options.includes('--apply');
  // `git am --continue`/`--skip`/`--abort` go on with patches read before: what they write is not in a file here.
  if (words[0] === 'am' && options.some((o) => ['--continue', '--skip', '--abort', '--quit', '--resolved', '-r'].includes(o))) return { file: '', strip: 1, into: [], prefix: '' };
  if (readsOnly || options.includes('--cached')) return null;
  let strip = 1;
  let prefix = '';
  for (const word of options) {
    const p = /^-p(\d+)$/.exec(word);
    if (p) strip = Number(p[1]);
    if (word.startsWith('--directory=')) prefix = word.slice('--directory='.length).replace(/\/*$/, '/');
  }
  const files = words.slice(1).filter((word) => !word.startsWith('-'));
  // More than one patch file: all but the first are not read, so the command is refused below.
  return { file: files.length > 1 ? '' : (files[0] ?? null), strip, into: [], prefix };
}

/** The file names a patch's headers give, /dev/null aside. */
function headerNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const header = /^(?:\+\+\+|---|\*\*\*) (.+?)(?:\t.*)?$/.exec(line) ?? /^(?:rename|copy) to (.+)$/.exec(line) ?? /^Index: (.+)$/.exec(line);
    if (header) names.push(unquote(header[1]!.trim()));
    const git = /^diff --git (\S+) (\S+)$/.exec(line);
    if (git) names.push(git[1]!, git[2]!);
  }
  return names.filter((name) => name !== '/dev/null' && !/^\*+$/.test(name) && !/^-+$/.test(name));
}

/** A name git quotes (`"a/x\ty"`), as the file it names. */
function unquote(name: string): string {
  return name.startsWith('"') && name.endsWith('"') ? JSON.parse(name.replace(/\\([0-7]{3})/g, (_m, octal: string) => `\\u00${parseInt(octal, 8).toString(16).padStart(2, '0')}`)) : name;
}

/** As -pN strips: the smallest prefix holding N slashes; null (no -p): the base name, and the whole name to be safe. */
function strip(name: string, count: number | null): string[] {
  const parts = name.split(/\/+/);
  if (count === null) return [parts.at(-1)!, parts.join('/')];
  if (count >= parts.length) return [];
  return [parts.slice(count).join('/')];
}
