// An accented letter has two Unicode spellings: composed (é, NFC, what most editors write) and
// decomposed (e + U+0301, NFD, what macOS writes). read_file shows both alike, and edit finds
// either (edit.ts), so a grep for `café` that answered "No matches" in a file writing it
// decomposed read as "not there". A pattern that spells such a letter is therefore also matched
// against each line brought into the pattern's own form: its lines read as the pattern is written.
// The line shown is the file's own. A pattern of ASCII alone (most) costs nothing.
//
// ripgrep only picks the files (grep-regex.ts): for such a pattern it is also asked for every line
// holding a character that the form could change, a superset of the lines that match only once
// brought into the form (a line without such a character is in that form already).

export type NormalForm = 'NFC' | 'NFD';

/**
 * The forms each line is also matched in, for a pattern (without its (?i)): none when the pattern
 * reads the same in both; its own form otherwise (a pattern written composed matches a line
 * written decomposed once that is composed, and the reverse); both for a pattern that mixes them.
 */
export function lineForms(source: string): NormalForm[] {
  if (!/[^\x00-\x7f]/.test(source)) return [];
  const nfc = source.normalize('NFC');
  const nfd = source.normalize('NFD');
  if (nfc === nfd) return [];
  if (source === nfc) return ['NFC'];
  if (source === nfd) return ['NFD'];
  return ['NFC', 'NFD'];
}

const classes = new Map<NormalForm, string>();
/** The Hangul vowel and final jamo, which compose with the syllable before them (they are no marks). */
const JAMO = [[0x1161, 0x1175], [0x11a8, 0x11c2]] as const;

/**
 * A Rust class of every character whose presence lets `form` change a line: one that form changes
 * on its own (a decomposable letter for NFD; a singleton or excluded composition for NFC), every
 * combining mark (it may compose with the letter before, or be reordered) and the Hangul vowel and
 * final jamo (they compose with the syllable before). Read from this process's own Unicode tables,
 * the ones the lines are normalized with, once per form (some 30-80 ms).
 */
function changeableClass(form: NormalForm): string {
  const known = classes.get(form);
  if (known) return known;
  const ranges: Array<[number, number]> = [];
  const add = (code: number) => {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  };
  const mark = /\p{M}/u;
  // Nothing beyond plane 2 normalizes but the variation selectors (marks) of plane 14.
  for (const [from, to] of [[0x80, 0x2ffff], [0xe0000, 0xe0fff]] as const) {
    for (let block = from; block <= to; block += 256) {
      const chars: string[] = [];
      for (let code = block; code < block + 256; code++) if (code < 0xd800 || code > 0xdfff) chars.push(String.fromCodePoint(code));
      // U+0001 between them: a character that neither composes nor reorders, so the block reads as
      // each character alone; a block that neither changes nor holds a mark (most) is skipped whole.
      const text = chars.join('\u0001');
      const changes = text.normalize(form) !== text;
      if (!changes && !mark.test(text) && !JAMO.some(([a, b]) => a < block + 256 && b >= block)) continue;
      for (const ch of chars) {
        const code = ch.codePointAt(0)!;
        if ((changes && ch.normalize(form) !== ch) || mark.test(ch) || JAMO.some(([a, b]) => code >= a && code <= b)) add(code);
      }
    }
  }
  const hex = (code: number) => `\\x{${code.toString(16)}}`;
  const cls = `[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`;
  classes.set(form, cls);
  return cls;
}

/** The Rust pattern also finding every line that may match only once brought into `forms`. */
export function withChangeableLines(rust: string, forms: readonly NormalForm[]): string {
  return forms.length === 0 ? rust : [`(?:${rust})`, ...forms.map(changeableClass)].join('|');
}
