// Where a JSON text stops being JSON, as a line and column: Node's JSON.parse names a character
// offset ("at position 57"), or none at all ("Unexpected token ']', …" for a trailing comma in a
// list, "Unexpected end of JSON input"), and an offset is not a place an editor can jump to.
// Only run once JSON.parse has failed, so it walks the grammar rather than building values.

/** The character offset where `text` stops being one JSON value (text.length when it ends too soon), or -1. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (at: number): never => {
    throw at;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) fail(i - 1);
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail(i);
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail(i);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(i + 1);
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(i);
    i += m![0].length;
    if (i < text.length && /[0-9.eE+-]/.test(text[i]!)) fail(i);
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === undefined) fail(i);
    if (c === '{') return members('}', true);
    if (c === '[') return members(']', false);
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c! >= '0' && c! <= '9')) return number();
    fail(i);
  };
  const members = (close: string, object: boolean) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      if (object) {
        space();
        if (text[i] !== '"') fail(i);
        string();
        space();
        if (text[i] !== ':') fail(i);
        i++;
      }
      value();
      space();
      if (text[i] === close) return void i++;
      if (text[i] !== ',') fail(i);
      i++;
    }
  };
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (at) {
    return Math.min(at as number, text.length);
  }
}

/** 1-based line and column (in characters) of a character offset; CRLF and bare CR end a line too. */
export function lineColOfOffset(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const breaks = before.match(/\r\n|\r|\n/g) ?? [];
  const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  return { line: breaks.length + 1, col: [...before.slice(lastBreak + 1)].length + 1 };
}
