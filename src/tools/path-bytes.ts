// File names are bytes; the listing and search tools show them as text. A name that is UTF-8 is
// shown as it is. A byte that is not part of UTF-8 (a Latin-1 `café.txt` written as caf\xE9.txt)
// is shown as `\xHH`, and a backslash that would read as the start of such an escape as `\x5C`, so
// every shown path names one file, and is turned back into its bytes to open it (fsPath). Node
// reads such a name as U+FFFD, which named no file (opening it failed, or opened another file
// whose name holds a real U+FFFD) and made two names one. A control character other than a tab
// (a line feed, an escape) is shown as `\xHH` too: a name with a line break read as two entries of a
// list, and could add made-up lines to one (`a.txt\nsrc/auth.ts:3: // no check needed` in grep's).
// Both grep engines show names this way: ripgrep's output with a name that is not UTF-8 is left to
// the JavaScript walk.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

// A tab stays: it breaks no line, and a name with one is common enough to be shown as it is.
const TO_ESCAPE = /\\(?=x[0-9A-Fa-f]{2})|[\x00-\x08\x0a-\x1f\x7f]/g;
const HAS_TO_ESCAPE = /\\x|[\x00-\x08\x0a-\x1f\x7f]/;
const ESCAPED = /\\x([89A-Fa-f][0-9A-Fa-f]|5[Cc]|0[0-8A-Fa-f]|1[0-9A-Fa-f]|7[Ff])/;

/** A name (or path) read as UTF-8 text, as shown: a backslash before `xHH` and control characters change. */
export function shownText(name: string): string {
  return HAS_TO_ESCAPE.test(name) ? name.replace(TO_ESCAPE, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`) : name;
}

/** Whether shownText changes a name read as UTF-8 text. */
export function hasToEscape(name: string): boolean {
  return HAS_TO_ESCAPE.test(name);
}

/** A name read as bytes, as shown (see the file comment). */
export function shownName(raw: Buffer): string {
  if (isUtf8(raw)) return shownText(raw.toString('utf8'));
  let out = '';
  let start = 0;
  for (let i = 0; i < raw.length; ) {
    const length = utf8Length(raw, i);
    if (length > 0) {
      i += length;
      continue;
    }
    out += shownText(raw.toString('utf8', start, i)) + `\\x${raw[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
    start = ++i;
  }
  return out + shownText(raw.toString('utf8', start));
}

/**
 * A name git gave as bytes, as the report names it: a UTF-8 name as its text (the file tools report
 * theirs so), another with `\xHH` for each byte that is not UTF-8, as the listing tools show it.
 * Read as UTF-8 text, such a byte became U+FFFD: the report named a file that does not exist,
 * two names became one, and a hand-off commit held the file under that other name.
 */
export function reportedName(raw: Buffer): string {
  return isUtf8(raw) ? raw.toString('utf8') : shownName(raw);
}

/** The bytes of a name reportedName gave (a UTF-8 name is its own text). */
export function reportedBytes(name: string): Buffer {
  const raw = fsPath(name);
  return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8Length(raw: Buffer, i: number): number {
  const lead = raw[i]!;
  if (lead < 0x80) return 1;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0 || i + length > raw.length) return 0;
  return isUtf8(raw.subarray(i, i + length)) ? length : 0;
}

/** Whether a shown path holds an escape: it cannot be opened as the text it is. */
export function hasEscapes(shown: string): boolean {
  return ESCAPED.test(shown);
}

/**
 * The bytes a shown path stands for: the text itself when it holds no escape. Only the escapes
 * shownName writes are read (a byte from 0x80 up, a control character, and the backslash): `\x2F`
 * stays text, so no name in a repository can turn into a path with more components than it shows.
 */
export function fsPath(shown: string): string | Buffer {
  if (!hasEscapes(shown)) return shown;
  const parts = shown.split(new RegExp(ESCAPED.source, 'g'));
  return Buffer.concat(parts.map((part, i) => (i % 2 === 1 ? Buffer.from([parseInt(part, 16)]) : Buffer.from(part, 'utf8'))));
}

/** `dir` joined with `name`, keeping bytes where either is bytes. */
export function joinPath(dir: string | Buffer, name: string | Buffer): string | Buffer {
  if (typeof dir === 'string' && typeof name === 'string') return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
  const head = Buffer.from(dir);
  return Buffer.concat([head, head[head.length - 1] === path.sep.charCodeAt(0) ? Buffer.alloc(0) : Buffer.from(path.sep), Buffer.from(name)]);
}

/** A shown path as git compares it with patterns: its bytes, one Latin-1 character each. */
export function gitBytes(shown: string): string {
  const raw = fsPath(shown);
  if (typeof raw !== 'string') return raw.toString('latin1');
  return /[^\x00-\x7f]/.test(raw) ? Buffer.from(raw, 'utf8').toString('latin1') : raw;
}

/**
 * The file a path names whose last component is a shown name with escapes, when the path as text
 * names none: the same directory, the name as bytes. Only a regular file, never a link (the
 * workspace's checks followed the text's links, not this name's). A directory shown with escapes
 * on the way is not read this way: the listing tools (grep, glob, read_many_files) reach it.
 */
export function byteNamedFile(canonical: string): Buffer | null {
  return byteNamed(canonical, (stat) => stat.isFile());
}

/**
 * A directory a path names the same way (see byteNamedFile): the tools that take a directory do
 * not list it by that name, but must not answer that it does not exist, since a listing showed it.
 */
export function byteNamedDirectory(canonical: string): Buffer | null {
  return byteNamed(canonical, (stat) => stat.isDirectory());
}

function byteNamed(canonical: string, wanted: (stat: fs.Stats) => boolean): Buffer | null {
  const base = path.basename(canonical);
  if (!hasEscapes(base)) return null;
  const raw = fsPath(base);
  if (typeof raw === 'string') return null;
  const entry = Buffer.concat([Buffer.from(path.dirname(canonical) + path.sep), raw]);
  try {
    return wanted(fs.lstatSync(entry)) ? entry : null;
  } catch {
    return null;
  }
}

/**
 * The answer of a tool that takes a directory, given one whose name is shown with escapes. `offered`:
 * the calling agent's tools (unset: all), so it names glob and the shell only to an agent that has them.
 */
export function byteNamedDirectoryProblem(shown: string, tool: 'grep' | 'glob' | 'ls', offered?: readonly string[]): string {
  const has = (name: string) => offered === undefined || offered.includes(name);
  const parent = shown.includes('/') ? shown.slice(0, shown.lastIndexOf('/')) : '.';
  const ways = [
    tool !== 'ls' ? `give path '${parent}', whose ${tool === 'grep' ? 'search' : 'walk'} reaches it` : has('glob') ? `glob with path '${parent}' lists what it holds` : '',
    has('shell') ? "use the shell ($'…' takes the same \\xHH escapes)" : '',
  ].filter(Boolean);
  return `'${shown}' is a directory whose name is not UTF-8 (shown with \\xHH for such bytes); ${tool} cannot open it by that name${ways.length ? `: ${ways.join(', or ')}` : ''}`;
}
