// grep's pattern is a JavaScript regular expression (flags '' or 'i', no 'u'), and its answer is
// always what that regular expression finds: the lines are matched in JavaScript. ripgrep only
// narrows down which files to read, so the pattern handed to it must find at least every file the
// JavaScript one would (a superset; extra files cost a read, never a wrong answer). This file
// translates a JavaScript pattern into such a Rust-regex superset:
// - constructs that mean the same in both are copied; every ASCII punctuation literal is written
//   as \x{..} so Rust's own syntax (classes nested or intersected with &&, --, ~~, [:alpha:], #)
//   never reads a JavaScript literal differently;
// - where the dialects differ the broader reading is taken: \d and \w are Unicode in Rust (a
//   superset of JavaScript's ASCII ones), \b and \B become nothing, look-arounds become nothing,
//   backreferences become "any text"; `.`, negated classes, U+FFFD and classes whose ranges hold
//   U+FFFD or the surrogates also match one to three bytes that are not UTF-8, as JavaScript counts
//   (it sees one U+FFFD for such a run, and two characters in each character beyond U+FFFF);
//   negated shorthands (\D, \W, \S) get JavaScript's exact sets;
// - under (?i) each non-ASCII letter also lists the letters JavaScript's own case mapping pairs it
//   with (ripgrep's Unicode tables may be older: U+019B and U+A7DC were no pair to ripgrep 13);
// - what cannot be translated soundly returns null and grep searches in JavaScript alone: `\n`
//   (a line never holds one, and ripgrep refuses it), [] and [^], characters outside the BMP.
// test/tools/grep-differential.test.ts checks that on seeded random patterns and lines, and
// test/tools/grep-engines.test.ts on the corners named here.

/**
 * What one JavaScript character can be beyond a whole UTF-8 character: a run of one to three bytes
 * that is not UTF-8 (decoded as one U+FFFD), or half of a four-byte character beyond U+FFFF (two
 * UTF-16 units, each matched on its own by `.`, [^a] or \W).
 */
const UNDECODABLE = '(?-u:[\\x80-\\xFF]{1,3})';
/** Any character on a line, as JavaScript counts them. */
const ANY = `(?:[^\\n]|${UNDECODABLE})`;
/** JavaScript's \s, exactly. */
const JS_SPACE = '\\t\\n\\x{b}\\x{c}\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const NOT_DIGIT = '[^0-9]';
const NOT_WORD = '[^0-9A-Za-z_]';
const NOT_SPACE = `[^${JS_SPACE}]`;

class Untranslatable extends Error {}

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/**
 * A literal character outside a class: letters, digits, space and non-ASCII as they are. U+FFFD
 * also stands for a byte that is not UTF-8, which JavaScript decodes as U+FFFD. Under (?i) a
 * non-ASCII letter is the class of it and its JavaScript case partners.
 */
function literal(ch: string, caseless: boolean): string {
  const code = ch.charCodeAt(0);
  if (code === REPLACEMENT) return `(?:${hex(REPLACEMENT)}|${UNDECODABLE})`;
  const partners = caseless ? casePartners(code) : [];
  if (partners.length > 0) return `[${[code, ...partners].map(hex).join('')}]`;
  return /^[A-Za-z0-9 ]$/.test(ch) || code > 0x7f ? ch : hex(code);
}

const REPLACEMENT = 0xfffd;
const SURROGATES = [0xd800, 0xdfff] as const;

let partnerTable: Map<number, number[]> | undefined;

/**
 * The other letters JavaScript's `i` flag (without `u`) takes for `code`: those that upper-case
 * to the same single character (never an ASCII letter for a non-ASCII one). Read from this
 * process's own tables, the ones the lines are matched with; built once, on the first (?i)
 * pattern that needs it (~65,000 toUpperCase calls, a few ms).
 */
function casePartners(code: number): readonly number[] {
  if (code < 0x80) return [];
  if (!partnerTable) {
    const byUpper = new Map<number, number[]>();
    for (let c = 0x80; c <= 0xffff; c++) {
      if (c >= SURROGATES[0] && c <= SURROGATES[1]) continue;
      const upper = String.fromCharCode(c).toUpperCase();
      const key = upper.length === 1 && upper.charCodeAt(0) >= 0x80 ? upper.charCodeAt(0) : c;
      const group = byUpper.get(key);
      if (group) group.push(c);
      else byUpper.set(key, [c]);
    }
    partnerTable = new Map();
    for (const group of byUpper.values()) {
      if (group.length > 1) for (const c of group) partnerTable.set(c, group.filter((other) => other !== c));
    }
  }
  return partnerTable.get(code) ?? [];
}

/** The Rust pattern for ripgrep, or null when grep must search in JavaScript alone. */
export function toRustRegex(source: string, caseless: boolean): string | null {
  if (/[\ud800-\udfff]/.test(source)) return null;
  try {
    return (caseless ? '(?i)' : '') + new Translator(source, caseless).pattern();
  } catch (error) {
    if (error instanceof Untranslatable) return null;
    throw error;
  }
}

class Translator {
  private i = 0;
  private readonly namedGroups: boolean;

  constructor(
    private readonly src: string,
    private readonly caseless: boolean,
  ) {
    this.namedGroups = /\(\?<[^=!]/.test(src);
  }

  pattern(): string {
    let out = '';
    while (this.i < this.src.length) out += this.token();
    return out;
  }

  private token(): string {
    const ch = this.src[this.i++]!;
    switch (ch) {
      case '\\':
        return this.escape();
      case '.':
        return ANY;
      case '[':
        return this.characterClass();
      case '(':
        return this.group();
      case '$':
        return '(?:\\x{d}?$)'; // a line ends before its \r\n as before its \n (grep-pattern.ts)
      case ')':
      case '|':
      case '^':
      case '*':
      case '+':
      case '?':
        return ch;
      case '{': {
        // A quantifier when it reads as one (JavaScript rejected it otherwise), else a literal brace.
        const quantifier = /^\{\d+(,\d*)?\}/.exec(this.src.slice(this.i - 1));
        if (!quantifier) return hex(0x7b);
        this.i += quantifier[0].length - 1;
        return quantifier[0];
      }
      default:
        return literal(ch, this.caseless);
    }
  }

  private escape(): string {
    const c = this.src[this.i++];
    if (c === undefined) throw new Untranslatable();
    switch (c) {
      case 'd':
        return '\\d';
      case 'w':
        return '\\w';
      case 's':
        return '[\\s\\x{feff}]';
      case 'D':
        return `(?:(?-i:${NOT_DIGIT})|${UNDECODABLE})`;
      case 'W':
        return `(?:(?-i:${NOT_WORD})|${UNDECODABLE})`;
      case 'S':
        return `(?:(?-i:${NOT_SPACE})|${UNDECODABLE})`;
      case 'b':
      case 'B':
        return ''; // JavaScript's word boundary is ASCII, Rust's Unicode: no boundary is the superset
      case 'k':
      {
        const end = this.src.indexOf('>', this.i);
        if (!this.namedGroups || this.src[this.i] !== '<' || end < 0) return 'k';
        this.i = end + 1;
        return `${ANY}*`;
      }
      default: {
        if (/[1-9]/.test(c)) {
          // A backreference (or, without groups, a legacy octal escape): any text covers both.
          while (/[0-9]/.test(this.src[this.i] ?? '')) this.i++;
          return `${ANY}*`;
        }
        const code = this.characterEscape(c);
        if (code === 0x0a) throw new Untranslatable();
        return literal(code === null ? c : String.fromCharCode(code), this.caseless);
      }
    }
  }

  /** The code of a character escape after its backslash (\t, \x41, \u0041, \cJ, \0, \101), or null for an identity escape. */
  private characterEscape(c: string): number | null {
    const simple: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };
    if (c in simple) return simple[c]!;
    if (c === 'x' && /^[0-9a-fA-F]{2}/.test(this.src.slice(this.i))) {
      this.i += 2;
      return parseInt(this.src.slice(this.i - 2, this.i), 16);
    }
    if (c === 'u' && /^[0-9a-fA-F]{4}/.test(this.src.slice(this.i))) {
      this.i += 4;
      const code = parseInt(this.src.slice(this.i - 4, this.i), 16);
      if (code >= 0xd800 && code <= 0xdfff) throw new Untranslatable();
      return code;
    }
    if (c === 'c' && /^[A-Za-z]/.test(this.src.slice(this.i))) return this.src.charCodeAt(this.i++) % 32;
    if (c === 'c') {
      this.i--; // annex B: a backslash that stays a backslash, then c
      return 0x5c;
    }
    if (/[0-7]/.test(c)) {
      // \0 alone is NUL; otherwise a legacy octal escape of up to three digits (at most \377).
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.src[this.i] ?? '') && parseInt(digits + this.src[this.i], 8) <= 0o377) digits += this.src[this.i++];
      return parseInt(digits, 8);
    }
    return null;
  }

  private group(): string {
    const rest = this.src.slice(this.i);
    if (rest.startsWith('?:')) {
      this.i += 2;
      return '(?:';
    }
    if (/^\?<?[=!]/.test(rest)) {
      // A look-ahead or look-behind constrains a match, never widens it: dropping it is the superset.
      this.skipGroup();
      return '(?:)';
    }
    if (rest.startsWith('?<')) this.i = this.src.indexOf('>', this.i) + 1; // a named group: its name is not needed
    return '(?:'; // no capture is ever read back
  }

  /** Moves past the group whose `(` was just read, nested groups, classes and escapes included. */
  private skipGroup(): void {
    let depth = 1;
    let inClass = false;
    while (this.i < this.src.length && depth > 0) {
      const ch = this.src[this.i++];
      if (ch === '\\') this.i++;
      else if (inClass) inClass = ch !== ']';
      else if (ch === '[') inClass = true;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
  }

  private characterClass(): string {
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    if (this.src[this.i] === ']') throw new Untranslatable(); // [] matches nothing, [^] anything
    let items = '';
    let count = 0;
    let widened = negated;
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      const first = this.classAtom();
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        const last = this.classAtom();
        if (typeof first === 'number' && typeof last === 'number') {
          items += `${hex(first)}-${hex(last)}${this.partners(first, last)}`;
          count++;
          // U+FFFD stands for bytes that are not UTF-8, a surrogate for half a character beyond U+FFFF.
          widened ||= (first <= REPLACEMENT && REPLACEMENT <= last) || (first <= SURROGATES[1] && SURROGATES[0] <= last);
          continue;
        }
        // Annex B: a range next to a class escape is the three items, the hyphen literal.
        for (const item of [first, 0x2d, last]) ({ items, count, widened } = addItem(item, items, count, widened, negated, this.partners(item)));
        continue;
      }
      ({ items, count, widened } = addItem(first, items, count, widened, negated, this.partners(first)));
    }
    this.i++; // the closing bracket
    if (count === 0) throw new Untranslatable(); // only newlines: it can never match on a line
    const cls = `[${negated ? '^' : ''}${items}]`;
    return widened ? `(?:${cls}|${UNDECODABLE})` : cls;
  }

  /** Under (?i), the JavaScript case partners of a class member or range that lie outside it, as class text. */
  private partners(first: number | { set: string }, last = first): string {
    if (!this.caseless || typeof first !== 'number' || typeof last !== 'number') return '';
    let out = '';
    for (let c = Math.max(first, 0x80); c <= last; c++) {
      for (const partner of casePartners(c)) if (partner < first || partner > last) out += hex(partner);
    }
    return out;
  }

  /** One class member: a character code, or a shorthand class as Rust class text. */
  private classAtom(): number | { set: string; negated: boolean } {
    const ch = this.src[this.i++]!;
    if (ch !== '\\') return ch.charCodeAt(0);
    const c = this.src[this.i++];
    if (c === undefined) throw new Untranslatable();
    switch (c) {
      case 'd':
        return { set: '\\d', negated: false };
      case 'w':
        return { set: '\\w', negated: false };
      case 's':
        return { set: '\\s\\x{feff}', negated: false };
      case 'D':
        return { set: NOT_DIGIT, negated: true };
      case 'W':
        return { set: NOT_WORD, negated: true };
      case 'S':
        return { set: NOT_SPACE, negated: true };
      case 'b':
        return 8;
      case '-':
        return 0x2d;
      default: {
        if (c === 'c' && /^[0-9_]/.test(this.src.slice(this.i))) return this.src.charCodeAt(this.i++) % 32; // annex B, in classes only
        const code = this.characterEscape(c);
        return code ?? c.charCodeAt(0);
      }
    }
  }
}

function addItem(
  item: number | { set: string; negated: boolean },
  items: string,
  count: number,
  widened: boolean,
  negatedClass: boolean,
  partners: string,
): { items: string; count: number; widened: boolean } {
  if (typeof item === 'number') {
    // A newline can never be on a line: dropped from a class that lists it, kept where it is excluded.
    if (item === 0x0a && !negatedClass) return { items, count, widened };
    // U+FFFD listed stands for an undecodable byte too (see literal).
    return { items: items + hex(item) + partners, count: count + 1, widened: widened || item === REPLACEMENT };
  }
  return { items: items + item.set, count: count + 1, widened: widened || item.negated };
}
