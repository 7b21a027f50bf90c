// ANSI-C quoted strings, `$'…'`, read as bash reads them (ansicstr in lib/sh/strtrans.c): the
// escapes `\t`, `\n`, `\x41`, `\101`, `\u0041`, … become the characters they name, and the result
// is a quoted word (`cut -d $'\t' -f2`). Where the result depends on the bash version or the locale
// (`\c`, `\x{…}`, a `\u` beyond ASCII, a byte beyond ASCII), or bash would cut the word short (a
// NUL), the word is refused: the policy then never guesses what bash passes.

/** The one-letter escapes and the characters they stand for. */
const SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

const OCTAL = /^[0-7]{1,3}/;
const HEX = /^[0-9A-Fa-f]{1,2}/;

/** The value of `text` (`$'…'` as written), or why it is refused. */
export function ansiCValue(text: string): { value: string } | { problem: string } {
  if (!text.startsWith("$'") || !text.endsWith("'") || text.length < 3) return { problem: 'is malformed' };
  const body = text.slice(2, -1);
  // tree-sitter-bash ends `$'a\\' $'b'` at the second quote of `$'`, bash at the first: bash's
  // end (the first quote no backslash escapes) must be the parser's.
  for (let i = 0; i < body.length; i += body[i] === '\\' ? 2 : 1) {
    if (body[i] === "'" || (body[i] === '\\' && i + 1 === body.length)) return { problem: 'ends elsewhere for bash than for the parser' };
  }
  let value = '';
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\' || i + 1 === body.length) {
      value += body[i];
      i++;
      continue;
    }
    const letter = body[i + 1]!;
    const rest = body.slice(i + 1);
    let char: string;
    let used: number;
    if (Object.hasOwn(SIMPLE, letter)) [char, used] = [SIMPLE[letter]!, 1];
    else if (OCTAL.test(rest)) {
      const digits = OCTAL.exec(rest)![0];
      [char, used] = [String.fromCharCode(Number.parseInt(digits, 8) & 0xff), digits.length];
    } else if (letter === 'x' && body[i + 2] === '{') return { problem: "holds '\\x{', which bash versions read differently" };
    else if (letter === 'x' && HEX.test(body.slice(i + 2))) {
      const digits = HEX.exec(body.slice(i + 2))![0];
      [char, used] = [String.fromCharCode(Number.parseInt(digits, 16)), 1 + digits.length];
    } else if (letter === 'u' || letter === 'U') {
      const digits = new RegExp(`^[0-9A-Fa-f]{1,${letter === 'u' ? 4 : 8}}`).exec(body.slice(i + 2))?.[0];
      if (digits === undefined) [char, used] = [`\\${letter}`, 1];
      else {
        const code = Number.parseInt(digits, 16);
        if (code > 0x7f) return { problem: `holds '\\${letter}${digits}', which bash writes in the locale's encoding` };
        [char, used] = [String.fromCharCode(code), 1 + digits.length];
      }
    } else if (letter === 'c') return { problem: "holds '\\c', which bash versions read differently" };
    else if (letter === '\n') return { problem: 'holds a backslash before a newline' };
    // Any other escape stays as written, backslash and all.
    else [char, used] = [`\\${letter}`, 1];
    if (char === '\0') return { problem: 'holds a NUL, where bash cuts the word short' };
    if (char.length === 1 && char.charCodeAt(0) > 0x7f) return { problem: `makes the byte 0x${char.charCodeAt(0).toString(16)}, which is no character of its own` };
    value += char;
    i += 1 + used;
  }
  return { value };
}

/** The value as bash puts it back in the word before brace expansion: single-quoted. */
export function singleQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
