// string-width as yargs and cliui use it (help layout), without its start-up cost: the real module
// builds an Intl.Segmenter and Unicode-property regexes the moment it is imported, ~60 ms of every
// CLI start whether or not help is shown. Text of one column per character (printable ASCII, Latin
// letters, the typographic punctuation and arrows our help uses: … ’ — →) is measured here; anything
// else (wide, zero-width, combining, emoji) goes to the real module, which is loaded on first need
// (esbuild turns this require into a lazy initialiser inside the bundle).
import stripAnsi from 'strip-ansi';

// Narrow by string-width's rules: East Asian Width narrow, or ambiguous (… — →), which it counts
// as narrow unless ambiguousIsNarrow is false. No soft hyphen (U+00AD), no zero-width or format
// characters (U+200B-U+200F, U+2028-U+202F, U+2060-U+206F).
const ONE_COLUMN_EACH = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205f\u2190-\u21ff]*$/;
let real;

export default function stringWidth(text, options = {}) {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const visible = options.countAnsiEscapeCodes ? text : stripAnsi(text);
  if (options.ambiguousIsNarrow !== false && ONE_COLUMN_EACH.test(visible)) return visible.length;
  real ??= require('string-width').default;
  return real(text, options);
}
