// Whether ripgrep's reading of a tree's ignore files is the walk's. ripgrep's ignore crate reads a
// .gitignore with globset, not git's wildmatch, and reads .rgignore files too (no flag turns those
// off but --no-ignore, which turns .gitignore off with them). The tools' rule is git's: .gitignore
// files alone, read as git reads them (walk.ts, gitignore-text.ts). So beside each search a
// ripgrep `--files` pass lists the tree's .gitignore and .rgignore files (~0.1 s of CPU on 200,000
// files, run alongside the search), and the search trusts ripgrep only when there is no .rgignore
// and every .gitignore line is of the plain kind both read alike (a differential fuzz of
// `rg --files` against `git ls-files` found no difference there; test/tools/grep-differential.test.ts
// holds the two engines to one answer). Otherwise the JavaScript walk searches: slower, the same
// answer. Lines outside the plain kind, where the two were seen to part: braces (`*.{js,ts}`:
// globset expands them, git does not), backslash escapes, negated, POSIX and other unusual classes
// (`[!.]`, `[[:alpha:]]`, `[]a]`, `[z-a]`: globset refuses or reads them otherwise), `**` inside a
// name (`a**/x`), a tab at either end (git keeps a trailing one, globset trims it), a CR, a
// byte-order mark, and a file that is not UTF-8.
import fs from 'node:fs';
import path from 'node:path';

/** The most .gitignore bytes read to judge one file; larger ones (the walk reads up to 1 MB) are not judged. */
const MAX_JUDGED_BYTES = 256 * 1024;

/**
 * A class of plain members: letters, digits, `.`, `_`, `-`, ranges in order. Not negated: to globset
 * `[!.]` also matches a `/` (`/b*[!.]*` ignored b/x), and `[^.]` is no negation.
 */
const CLASS = /^\[(?:[A-Za-z0-9._](?:-[A-Za-z0-9._])?)+\]/;
/** One character a glob takes literally in both readings. */
const LITERAL = /^[^\s*?[\]{}\\/!#]|^[ !#]/;

/** Whether ripgrep reads this .gitignore line as git does (see the file comment). */
export function plainGitignoreLine(line: string): boolean {
  if (line === '' || line.startsWith('#')) return true;
  // Spaces at either end both read alike (git trims trailing ones); a tab or another space they do not.
  if (/^[^\S ]|[^\S ]$/.test(line)) return false;
  let body = line.startsWith('!') ? line.slice(1) : line;
  if (body.startsWith('/')) body = body.slice(1);
  if (body.endsWith('/')) body = body.slice(0, -1);
  if (body === '') return false;
  return body.split('/').every(plainSegment);
}

function plainSegment(segment: string): boolean {
  if (segment === '**') return true;
  if (segment === '') return false;
  for (let i = 0; i < segment.length; ) {
    const rest = segment.slice(i);
    if (rest.startsWith('**')) return false;
    if (rest[0] === '*' || rest[0] === '?') {
      i++;
      continue;
    }
    const cls = CLASS.exec(rest);
    if (cls) {
      if (!rangesInOrder(cls[0])) return false;
      i += cls[0].length;
      continue;
    }
    if (!LITERAL.test(rest)) return false;
    i++;
  }
  return true;
}

function rangesInOrder(cls: string): boolean {
  for (const [, from, to] of cls.matchAll(/([A-Za-z0-9._])-([A-Za-z0-9._])/g)) if (from! > to!) return false;
  return true;
}

/** Whether ripgrep reads this .gitignore file as git does: UTF-8 text of plain lines, no BOM, no CR. */
export function plainGitignore(bytes: Buffer): boolean {
  if (bytes.length > MAX_JUDGED_BYTES || bytes.includes(0x0d)) return false;
  const text = bytes.toString('utf8');
  if (text.includes('\ufffd') || text.startsWith('\ufeff')) return false;
  return text.split('\n').every(plainGitignoreLine);
}

/**
 * Whether ripgrep may search a tree whose ignore files are `listed` (workspace-relative, from a
 * `--files` pass that names only them): no .rgignore, and every .gitignore plain. One that cannot
 * be read is judged as the walk judges it, not read: no rules either way.
 */
export function ignoreFilesReadAlike(root: string, listed: readonly string[]): boolean {
  for (const relative of listed) {
    if (path.basename(relative) !== '.gitignore') return false;
    let bytes: Buffer;
    try {
      // Regular files only: ripgrep lists no link, and opens none of these through one here.
      const fd = fs.openSync(path.join(root, relative), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile() || stat.size > MAX_JUDGED_BYTES) return false;
        bytes = fs.readFileSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      continue;
    }
    if (!plainGitignore(bytes)) return false;
  }
  return true;
}

/**
 * The ignore files whose rules decided an entry in ripgrep's `--debug` log (`ignoring ./a.log:
 * Ignore(IgnoreMatch(Gitignore(Glob { from: Some("./.gitignore"), ...` and `whitelisting ...`),
 * workspace-relative; null when a name cannot be read back (the log writes it as Rust escapes it).
 * Each must be a .gitignore the `--files` pass listed and judged: ripgrep also reads one that is a
 * link (git reads none), which no listing of regular files names.
 */
export function ruleSourcesInLog(log: string): Set<string> | null {
  const sources = new Set<string>();
  for (const [, escaped] of log.matchAll(/\bfrom: Some\("((?:[^"\\]|\\.)*)"\)/g)) {
    const source = rustUnescape(escaped!);
    if (source === null) return null;
    sources.add(source.startsWith('./') ? source.slice(2) : source);
  }
  return sources;
}

/** A Rust `{:?}` string's text; null for a byte escape (a name that is not UTF-8). */
function rustUnescape(escaped: string): string | null {
  let failed = false;
  const text = escaped.replace(/\\(u\{([0-9a-fA-F]+)\}|x[0-9a-fA-F]{2}|.)/g, (_, what: string, code?: string) => {
    if (code !== undefined) return String.fromCodePoint(parseInt(code, 16));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };
    if (what in simple) return simple[what]!;
    failed = true;
    return '';
  });
  return failed ? null : text;
}
