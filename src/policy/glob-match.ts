// A glob pattern matched against the files as bash matches it in a fresh `bash -c` (bash 5.2's
// defaults: no dotglob, nullglob, failglob, globstar, extglob or nocaseglob; globskipdots and
// globasciiranges on), for the policy to see the words a line will pass (shell-globs.ts). Where
// the answer could depend on something it does not know (the locale of a non-ASCII name, a name
// that is not UTF-8, a bracket it does not read), it says so instead of guessing.
import fs from 'node:fs';
import { isDirectory } from '../util/paths.js';

/** Matches past this many make the line refused: nobody reviews a command of thousands of names. */
export const MAX_GLOB_MATCHES = 1000;
/** Directory entries read for one line past this many make it refused. */
export const MAX_GLOB_ENTRIES = 100_000;

export type GlobExpansion = { ok: true; words: string[] } | { ok: false; reason: string };

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', word: 'A-Za-z0-9_', cntrl: '\\x00-\\x1f\\x7f',
  print: ' -~', graph: '!-~',
};

interface Component {
  /** The component's literal text, when it holds no glob. */
  literal: string | null;
  regex: RegExp | null;
  /** `?` or a bracket: one character, which in a non-ASCII name depends on the locale. */
  countsCharacters: boolean;
}

class Unreadable extends Error {}

/**
 * The words `pattern` (ShellWord.glob: `\` before each literal special character) expands to in
 * `cwd`: the matching names sorted, or the word as written (`asWritten`) when none matches.
 */
export function expandGlob(pattern: string, asWritten: string, cwd: string, budget: { entries: number }): GlobExpansion {
  let components: Component[];
  try {
    components = splitPattern(pattern).map(compileComponent);
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, reason: error.message };
    throw error;
  }
  const trailingSlash = components.length > 1 && components.at(-1)!.literal === '';
  if (trailingSlash) components.pop();
  // Each candidate: the text bash prints (the pattern's own slashes kept: `src//*.ts` gives
  // `src//a.ts`) and the path on disk. An absolute pattern's first component is empty.
  let found: Array<{ shown: string; onDisk: string }> = [{ shown: '', onDisk: cwd }];
  let seenGlob = false;
  for (const [index, component] of components.entries()) {
    const last = index === components.length - 1;
    const next: typeof found = [];
    const join = (shown: string, name: string) => (index === 0 ? name : `${shown}/${name}`);
    for (const from of found) {
      if (component.literal !== null) {
        const onDisk = index === 0 && component.literal === '' ? '/' : below(from.onDisk, component.literal);
        // A literal after a glob must exist (bash tests it); before one, reading the directory tells.
        if (seenGlob && (last ? !(exists(onDisk)) : !(isDirectory(onDisk)))) continue;
        next.push({ shown: join(from.shown, component.literal), onDisk });
        continue;
      }
      const names = readNames(from.onDisk, budget);
      if (names === null) continue;
      if (names === 'too many') return { ok: false, reason: `it reads more than ${MAX_GLOB_ENTRIES} directory entries to expand '${asWritten}'; name the files` };
      for (const name of names) {
        if (name.startsWith('.') && !component.regex!.source.startsWith('^\\.')) continue;
        if (!component.regex!.test(name)) continue;
        const onDisk = below(from.onDisk, name);
        if (!last && !(isDirectory(onDisk))) continue;
        next.push({ shown: join(from.shown, name), onDisk });
      }
      const unsure = names.find((name) => !/^[\x20-\x7e]*$/.test(name) && component.regex!.test(name));
      if (unsure !== undefined && (component.countsCharacters || unsure.includes('\uFFFD'))) {
        return { ok: false, reason: `'${asWritten}' matches a file name that is not plain ASCII ('${unsure}'), which bash may read otherwise in its locale; name the files` };
      }
    }
    if (component.literal === null) seenGlob = true;
    found = next;
    if (found.length > MAX_GLOB_MATCHES) return { ok: false, reason: `'${asWritten}' names more than ${MAX_GLOB_MATCHES} files; name fewer` };
  }
  if (trailingSlash) {
    const directories: typeof found = [];
    for (const entry of found) if (isDirectory(entry.onDisk)) directories.push({ ...entry, shown: `${entry.shown}/` });
    found = directories;
  }
  if (found.length === 0) return { ok: true, words: [asWritten] };
  return { ok: true, words: found.map((entry) => entry.shown).sort(byteOrder) };
}

/** `name` in `directory`, as the kernel will read it: `..` after a link is the link target's parent, so nothing is normalized. */
function below(directory: string, name: string): string {
  return directory.endsWith('/') ? directory + name : `${directory}/${name}`;
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The pattern's components, split at each `/` (a `/` is never escaped or inside a bracket). */
function splitPattern(pattern: string): string[] {
  return pattern.split('/');
}

function compileComponent(text: string): Component {
  if (!/(^|[^\\])(\\\\)*[*?[]/.test(text)) return { literal: unescape(text), regex: null, countsCharacters: false };
  let source = '^';
  let countsCharacters = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      source += escapeRegex(text[++i] ?? '');
    } else if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
      countsCharacters = true;
    } else if (char === '[') {
      const end = bracketEnd(text, i);
      source += bracketRegex(text.slice(i + 1, end));
      countsCharacters = true;
      i = end;
    } else {
      source += escapeRegex(char);
    }
  }
  try {
    return { literal: null, regex: new RegExp(`${source}$`, 's'), countsCharacters };
  } catch {
    throw new Unreadable(`the glob '${unescape(text)}' has a range the policy does not read; name the files`);
  }
}

/** The index of the `]` closing the bracket at `i` (shell-words.ts only makes closed ones). */
function bracketEnd(text: string, i: number): number {
  let j = i + 1;
  if (text[j] === '!' || text[j] === '^') j++;
  if (text[j] === ']') j++;
  for (; j < text.length; j++) {
    if (text.startsWith('[:', j)) j = text.indexOf(':]', j + 2) + 1;
    else if (text[j] === ']') return j;
  }
  throw new Unreadable(`the bracket in the glob '${unescape(text)}' is not closed`);
}

function bracketRegex(body: string): string {
  let negate = false;
  let i = 0;
  if (body[0] === '!' || body[0] === '^') {
    negate = true;
    i = 1;
  }
  let set = '';
  for (; i < body.length; i++) {
    const char = body[i]!;
    if (body.startsWith('[:', i)) {
      const end = body.indexOf(':]', i + 2);
      const name = body.slice(i + 2, end);
      const range = CLASSES[name];
      if (range === undefined) throw new Unreadable(`the glob class '[:${name}:]' is not one the policy reads; name the files`);
      set += range;
      i = end + 1;
      continue;
    }
    if (char === '[' && (body[i + 1] === '=' || body[i + 1] === '.')) throw new Unreadable(`the glob bracket '[${body}]' holds an equivalence class or collating symbol; name the files`);
    if (!/^[\x20-\x7e]$/.test(char)) throw new Unreadable(`the glob bracket '[${body}]' holds a character that is not plain ASCII, which bash reads by its locale; name the files`);
    set += char === '-' && i > 0 && i < body.length - 1 ? '-' : escapeRegex(char);
  }
  if (/\//.test(set)) throw new Unreadable(`the glob bracket '[${body}]' holds '/'; name the files`);
  return `[${negate ? '^' : ''}${set}]`;
}

function escapeRegex(char: string): string {
  return char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function unescape(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The names in `directory` (U+FFFD for bytes that are not UTF-8), null when it cannot be read. */
function readNames(directory: string, budget: { entries: number }): string[] | null | 'too many' {
  let raw: Buffer[];
  try {
    raw = fs.readdirSync(directory, { encoding: 'buffer' });
  } catch {
    return null;
  }
  budget.entries -= raw.length;
  if (budget.entries < 0) return 'too many';
  return raw.map((bytes) => {
    try {
      return utf8.decode(bytes);
    } catch {
      return bytes.toString('utf8');
    }
  });
}

function exists(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}
