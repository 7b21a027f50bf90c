// A .gitignore as git reads it, for the ignore library (which follows git's wildmatch closely) in
// the walk. Where the library alone reads one differently from git:
// - git compares bytes, not characters: `?` and `[!a]` are one byte, so neither matches `é` (two
//   bytes) whole, and `*` runs over bytes. A pattern or path with a byte over 0x7F is handed to the
//   library as Latin-1 text of its bytes, one character a byte (ASCII is left as it is; paths: see
//   gitBytes in path-bytes.ts).
// - a byte-order mark before the first line is dropped (the library drops it from text, and this
//   text is bytes).
// - git matches a pattern that holds a slash by cutting off its literal start first and giving
//   the rest to wildmatch (dir.c, match_pathname). A `**` right after that start is then at the
//   beginning of what wildmatch sees, where it is a globstar: `/a**/x` ignores `ax`, `ab/x` and
//   `a/b/c/x`, where `**` elsewhere inside a name is a `*`. Such a line is rewritten into the two
//   lines that say what git reads (found by test/tools/gitignore-vs-git.test.ts).
// - a line that needs more bytes than a path can hold (PATH_MAX, 4096) can match nothing, and is
//   left out: a committed 300 KB line made the library's regular expression "too large", and
//   every ls, glob and grep failed with it.

/** The .gitignore file's bytes as text for the ignore library (see the file comment). */
export function gitignoreText(bytes: Buffer): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  let text = body.toString('latin1');
  if (text.length > PATH_MAX) text = text.split('\n').filter((line) => line.length <= PATH_MAX || bytesNeeded(line) <= PATH_MAX).join('\n');
  if (!text.includes('**')) return text;
  // git drops one CR before each LF (the library too, after this): looked past, and kept.
  return text
    .split('\n')
    .flatMap((line) => (line.endsWith('\r') ? globstarAfterLiteral(line.slice(0, -1)).map((one) => `${one}\r`) : globstarAfterLiteral(line)))
    .join('\n');
}

const PATH_MAX = 4096;

/** The fewest bytes of path a pattern line can match (`*` none, `[...]`, `?` and an escape one each). */
function bytesNeeded(line: string): number {
  let needed = 0;
  for (let i = line.startsWith('!') ? 1 : 0; i < line.length; i++) {
    if (line[i] === '*') continue;
    if (line[i] === '\\') i++;
    else if (line[i] === '[') {
      const close = line.indexOf(']', i + 2);
      if (close > 0) i = close;
    }
    needed++;
  }
  return needed;
}

/** git's wildmatch specials: the literal start of a pattern ends at the first of them (dir.c simple_length). */
const SPECIAL = /[*?[\\]/;

/** The line, or the two lines that say what git reads where a `**` follows a pattern's literal start. */
function globstarAfterLiteral(line: string): string[] {
  if (line.startsWith('#')) return [line];
  const bang = line.startsWith('!') ? '!' : '';
  let core = trimTrailingSpaces(line.slice(bang.length));
  const dirOnly = core.endsWith('/') ? '/' : '';
  core = core.slice(0, core.length - dirOnly.length);
  // Only a pattern with a slash is matched by path (without one, by name: no literal start is cut).
  if (!core.includes('/')) return [line];
  const special = core.search(SPECIAL);
  const literal = core.slice(0, Math.max(0, special));
  if (special <= 0 || !core.startsWith('**', special) || literal === '/' || literal.endsWith('/')) return [line];
  let after = special;
  while (core[after] === '*') after++;
  const rest = core.slice(after);
  const anchor = literal.startsWith('/') ? '' : '/';
  // `P**`: P and then anything, slashes included.
  if (rest === '') return [`${bang}${literal}*${dirOnly}`, `${bang}${literal}*/**${dirOnly}`];
  const slash = rest.startsWith('/') ? 1 : rest.startsWith('\\/') ? 2 : 0;
  if (slash === 0) return [line]; // `P**x`: the stars are one `*`, as the library reads them
  // `P**/R`: P then R (the `**/` matching nothing; R may start with `**` again), or P, anything,
  // a slash and R.
  const tail = rest.slice(slash);
  return [...globstarAfterLiteral(`${bang}${anchor}${literal}${tail}${dirOnly}`), `${bang}${literal}*/**/${tail}${dirOnly}`];
}

/** git's trim_trailing_spaces: the spaces at the end, unless the first of them is escaped. */
function trimTrailingSpaces(line: string): string {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === ' ') {
      if (lastSpace < 0) lastSpace = i;
      continue;
    }
    if (line[i] === '\\') i++;
    lastSpace = -1;
  }
  return lastSpace < 0 ? line : line.slice(0, lastSpace);
}
