// The first gate for a shell command: characters that make what a reader (or the parser) sees
// differ from what bash runs are refused before any parsing. Pure string checks, no regex decides
// the shape of the command: that is the parser's job.

/** Longest command the policy will evaluate; longer ones are denied, never truncated. */
export const MAX_COMMAND_LENGTH = 10_000;

/**
 * Why `command` is refused before parsing, or null when it may be parsed.
 * Refused: over MAX_COMMAND_LENGTH, NUL, control characters other than tab and newline (a CR,
 * lone or in CRLF, splits words differently for bash and for the parser), Unicode format
 * characters (zero-width, bidi controls), whitespace other than space/tab/newline (NBSP and
 * friends are word characters to bash but may be separators to a parser), and full-width or
 * small-form look-alikes of ASCII punctuation.
 */
export function screenShellCommand(command: string, maxLength = MAX_COMMAND_LENGTH): string | null {
  if (command.length > maxLength) {
    return `it is longer than ${maxLength} characters`;
  }
  for (const char of command) {
    const problem = describeForbidden(char);
    if (problem) return `it contains ${problem}`;
  }
  return null;
}

function describeForbidden(char: string): string | null {
  const code = char.codePointAt(0)!;
  if (code === 0) return 'a NUL byte';
  if (code === 0x0d) return 'a carriage return (CR)';
  if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return `the control character ${hex(code)}`;
  if (code >= 0x80 && code <= 0x9f) return `the control character ${hex(code)}`;
  if (FORMAT.test(char)) return `the invisible format character ${hex(code)} (zero-width or bidi control)`;
  if (code > 0x7f && WHITESPACE.test(char)) return `the non-ASCII space ${hex(code)}`;
  if (code >= 0xff01 && code <= 0xff5e) return `the full-width character '${char}' (${hex(code)}), a look-alike of '${String.fromCodePoint(code - 0xfee0)}'`;
  if (code >= 0xfe50 && code <= 0xfe6b) return `the small-form character '${char}' (${hex(code)}), a look-alike of ASCII punctuation`;
  if (LOOK_ALIKES.has(code)) return `the character '${char}' (${hex(code)}), a look-alike of a shell operator`;
  if (code >= 0xd800 && code <= 0xdfff) return 'an unpaired surrogate';
  return null;
}

// \p{Cf} covers zero-width space/joiners, BOM, soft hyphen, bidi embeddings, overrides and isolates.
const FORMAT = /\p{Cf}/u;
const WHITESPACE = /[\s\p{Zs}\p{Zl}\p{Zp}]/u;
/**
 * Look-alikes of `|`, `;` and `/` outside the full-width block. Bash treats them as word
 * characters, so they cannot chain commands; they are refused because a person reading the
 * transcript would see an operator that is not there.
 */
const LOOK_ALIKES = new Set([
  0x01c0, // LATIN LETTER DENTAL CLICK, looks like |
  0x2223, // DIVIDES, looks like |
  0x2502, // BOX DRAWINGS LIGHT VERTICAL, looks like |
  0x037e, // GREEK QUESTION MARK, looks like ;
  0x2044, // FRACTION SLASH, looks like /
  0x2215, // DIVISION SLASH, looks like /
]);

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
