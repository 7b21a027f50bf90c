// A (?i) pattern with its letters spelled out in both cases, for the JavaScript engine that
// matches grep's lines. V8's linear-time engine, which takes over a match that backtracks
// catastrophically (regexp-fallback.ts), refuses the `i` flag: '(?i)^(a+)+$' on a line of a's and
// a '!' held grep in JavaScript until its 30 s limit, where ripgrep answered at once. The same
// pattern written '^([aA]+)+$', without the flag, matches the same lines and the linear engine
// takes it. Exact to the `i` flag without `u`: a character matches another when both upper-case
// to the same single character (a character beyond ASCII never to an ASCII one), in a class too
// ([^a] takes neither a nor A), so each literal letter and each class becomes the set of what it
// matches. Back-references compare their text by that rule and look-arounds the linear engine
// takes in no case: such a pattern keeps its flag (null).

/**
 * Canonical form of each UTF-16 unit under the `i` flag without `u` (ECMA-262 Canonicalize): built
 * on first use by a pattern beyond ASCII (65,536 toUpperCase calls, 10-50 ms); ASCII needs none.
 */
let canonical: Uint16Array | undefined;

function canonicalTable(): Uint16Array {
  if (canonical) return canonical;
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    const upper = String.fromCharCode(c).toUpperCase();
    const cu = upper.length === 1 ? upper.charCodeAt(0) : c;
    table[c] = c >= 128 && cu < 128 ? c : cu;
  }
  return (canonical = table);
}

/**
 * The pattern the lines are matched with: a (?i) one with regular-expression syntax (a plain word
 * cannot backtrack, and is searched faster as it is) spelled out without the flag.
 */
export function linearCapable<T extends { source: string; flags: string }>(pattern: T, syntax: RegExp): T {
  if (!pattern.flags.includes('i') || !syntax.test(pattern.source)) return pattern;
  const spelled = spelledCaseless(pattern.source);
  if (spelled === null) return pattern;
  try {
    new RegExp(spelled);
  } catch {
    return pattern;
  }
  return { ...pattern, source: spelled, flags: pattern.flags.replace('i', '') };
}

const HEX2 = /^[0-9A-Fa-f]{2}/;
const HEX4 = /^[0-9A-Fa-f]{4}/;
const DIGIT = (c: number) => c >= 0x30 && c <= 0x39;
const WORD = (c: number) => DIGIT(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
/** JavaScript's \s. */
const SPACE = (c: number) =>
  (c >= 9 && c <= 13) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
const SHORTHANDS: Record<string, (c: number) => boolean> = {
  d: DIGIT,
  D: (c) => !DIGIT(c),
  w: WORD,
  W: (c) => !WORD(c),
  s: SPACE,
  S: (c) => !SPACE(c),
};

/** The canonical form of an ASCII character: a-z as A-Z. No character beyond ASCII has an ASCII one. */
const asciiCanon = (c: number) => (c >= 0x61 && c <= 0x7a ? c - 32 : c);

const u = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

/**
 * `source` (a valid JavaScript pattern, read with the `i` flag and without `u`, past
 * compileSearchPattern's checks) written to match the same lines without the flag, or null when
 * it has a back-reference or a look-around.
 */
export function spelledCaseless(source: string): string | null {
  let out = '';
  for (let i = 0; i < source.length; ) {
    const ch = source[i]!;
    if (ch === '\\') {
      const escape = atomEscape(source, i);
      if (escape === null) return null;
      out += escape.code === null ? source.slice(i, escape.end) : literal(escape.code, source.slice(i, escape.end));
      i = escape.end;
    } else if (ch === '[') {
      const parsed = characterClass(source, i);
      out += parsed.members === null ? source.slice(i, parsed.end) : classOf(parsed.members, parsed.negated);
      i = parsed.end;
    } else if (ch === '(') {
      if (/^\(\?<?[=!]/.test(source.slice(i))) return null;
      const named = /^\(\?<[^>]*>/.exec(source.slice(i));
      const head = named ? named[0] : source.startsWith('(?:', i) ? '(?:' : '(';
      out += head;
      i += head.length;
    } else if (ch === '{') {
      // A quantifier is copied whole; a brace that is none is text (Annex B), and so is what follows it.
      const quantifier = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
      const head = quantifier ? quantifier[0] : '{';
      out += head;
      i += head.length;
    } else {
      out += literal(ch.charCodeAt(0), ch);
      i++;
    }
  }
  return out;
}

/** The escape at source[i] outside a class: its end, and the character it stands for (null for an assertion or class). */
function atomEscape(source: string, i: number): { end: number; code: number | null } | null {
  const c = source[i + 1]!;
  const rest = source.slice(i + 2);
  if ('dDwWsSbB'.includes(c)) return { end: i + 2, code: null };
  if (/[1-9k]/.test(c)) return null; // a back-reference (compileSearchPattern refused the other readings)
  return simpleEscape(source, i, c, rest, false);
}

/** An escape that stands for one character: \xHH, \uHHHH, \cX, \0, \t…, or an identity escape. */
function simpleEscape(source: string, i: number, c: string, rest: string, inClass: boolean): { end: number; code: number } {
  if (c === 'x' && HEX2.test(rest)) return { end: i + 4, code: parseInt(rest.slice(0, 2), 16) };
  if (c === 'u' && HEX4.test(rest)) return { end: i + 6, code: parseInt(rest.slice(0, 4), 16) };
  if (c === 'c' && (inClass ? /^[A-Za-z0-9_]/ : /^[A-Za-z]/).test(rest)) return { end: i + 3, code: rest.charCodeAt(0) % 32 };
  const controls: Record<string, number> = { '0': 0, t: 9, n: 10, v: 11, f: 12, r: 13, b: 8 };
  if (c in controls) return { end: i + 2, code: controls[c]! };
  return { end: i + 2, code: source.charCodeAt(i + 1) };
}

/** A literal character: as written when no other character matches it under `i`, else the class of those that do. */
function literal(code: number, written: string): string {
  // An ASCII letter and its other case, and nothing else (not K for the Kelvin sign, nor s for ſ).
  const lower = code | 0x20;
  if (code < 128) return lower >= 0x61 && lower <= 0x7a ? `[${u(lower)}${u(lower & ~0x20)}]` : written;
  const canon = canonicalTable();
  const group = sharing(canon).get(canon[code]!);
  return group === undefined ? written : `[${group.map(u).join('')}]`;
}

/** The characters of each canonical form that more than one has. */
let groups: Map<number, number[]> | undefined;

function sharing(canon: Uint16Array): Map<number, number[]> {
  if (groups) return groups;
  const all = new Map<number, number[]>();
  for (let c = 0; c < 0x10000; c++) {
    const group = all.get(canon[c]!);
    if (group) group.push(c);
    else all.set(canon[c]!, [c]);
  }
  groups = new Map([...all].filter(([, members]) => members.length > 1));
  return groups;
}

/** The members of the class at source[i] ('['), or null for members when it is empty ([] or [^]). */
function characterClass(source: string, i: number): { end: number; negated: boolean; members: Uint8Array | null } {
  let at = i + 1;
  const negated = source[at] === '^';
  if (negated) at++;
  const members = new Uint8Array(0x10000);
  let empty = true;
  const item = (): { code: number } | { set: (c: number) => boolean } => {
    const ch = source[at]!;
    if (ch !== '\\') {
      at++;
      return { code: ch.charCodeAt(0) };
    }
    const c = source[at + 1]!;
    if ('dDwWsS'.includes(c)) {
      at += 2;
      return { set: SHORTHANDS[c]! };
    }
    const escape = simpleEscape(source, at, c, source.slice(at + 2), true);
    at = escape.end;
    return { code: escape.code };
  };
  while (at < source.length && source[at] !== ']') {
    empty = false;
    const first = item();
    if ('set' in first) {
      for (let c = 0; c < 0x10000; c++) if (first.set(c)) members[c] = 1;
      continue;
    }
    if (source[at] === '-' && source[at + 1] !== ']' && at + 1 < source.length) {
      at++;
      const last = item();
      if ('code' in last) {
        members.fill(1, first.code, last.code + 1);
        continue;
      }
      // Annex B: [a-\d] is a, '-' and the digits.
      members[first.code] = 1;
      members[0x2d] = 1;
      for (let c = 0; c < 0x10000; c++) if (last.set(c)) members[c] = 1;
      continue;
    }
    members[first.code] = 1;
  }
  return { end: at + 1, negated, members: empty ? null : members };
}

/** The class that matches, without `i`, what `members` (negated or not) matches with it. */
function classOf(members: Uint8Array, negated: boolean): string {
  // Members all ASCII: so is every character that matches one of them under `i`.
  const limit = members.indexOf(1, 128) === -1 ? 128 : 0x10000;
  const table = limit === 128 ? null : canonicalTable();
  const canon = (c: number) => (table ? table[c]! : asciiCanon(c));
  const targets = new Uint8Array(limit);
  for (let c = 0; c < limit; c++) if (members[c]) targets[canon(c)] = 1;
  let ranges = '';
  for (let c = 0; c < limit; c++) {
    if (!targets[canon(c)]) continue;
    let end = c;
    while (end + 1 < limit && targets[canon(end + 1)]) end++;
    ranges += end === c ? u(c) : end === c + 1 ? u(c) + u(end) : `${u(c)}-${u(end)}`;
    c = end;
  }
  return `[${negated ? '^' : ''}${ranges}]`;
}
