// What reaches a person's terminal. Text a model or a tool wrote (a final answer, a call's
// description, an MCP tool's name) is made inert first: an escape sequence in it could clear the
// screen, retitle the window, plant a hyperlink, or move the cursor to overwrite the line that says
// a call was denied. Colour is ours alone, and only where the person asked for it or can see it.
import { styleText } from 'node:util';

// Escape sequences as terminals parse them (ECMA-48), 7-bit and 8-bit forms: CSI (parameters, then
// one final byte); OSC, DCS, SOS, PM, APC (a string up to BEL or ST; cut at a line end, so an
// unterminated one cannot eat the rest of the text); any other ESC sequence. Each alternative
// starts at an ESC or a C1 byte and its classes are disjoint, so a scan is linear in the text.
const ESCAPE_SEQUENCES = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
// What is left of C0 (but tab and line feed), DEL and C1: carriage returns and backspaces rewrite
// what is already on the line, a bell rings. And the bidirectional embeddings, overrides and
// isolates (U+202A-U+202E, U+2066-U+2069): they reorder what follows them on the line, so
// "denied" can be shown as something else ("Trojan Source", CVE-2021-42574).
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** The text with every escape sequence, control character and bidi override removed; line feeds and tabs stay. */
export function terminalSafe(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '');
}

/**
 * The text without its escape sequences (colours, cursor moves, hyperlinks' markup: what a
 * terminal acts on rather than shows), and how many there were. Control characters stay.
 */
export function withoutEscapeSequences(text: string): { text: string; removed: number } {
  if (!text.includes('\x1b') && !/[\x90-\x9f]/.test(text)) return { text, removed: 0 };
  let removed = 0;
  const kept = text.replace(ESCAPE_SEQUENCES, () => {
    removed++;
    return '';
  });
  return { text: kept, removed };
}

export interface ColorStream {
  isTTY?: boolean;
  hasColors?: (env?: object) => boolean;
}

/**
 * Whether to colour what goes to `stream`: FORCE_COLOR decides when set (`0` or `false`: no), then
 * NO_COLOR (set and not empty: no), then a terminal that can show colour (TERM=dumb cannot); a pipe
 * or a file never gets colour unless forced.
 */
export function colorEnabled(stream: ColorStream, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR) return false;
  if (!stream.isTTY || env.TERM === 'dumb') return false;
  // node's check takes any NO_COLOR, an empty one too, for "no colour": it was decided above.
  return stream.hasColors ? stream.hasColors({ ...env, NO_COLOR: undefined }) : true;
}

export type Style = 'ok' | 'fail' | 'warn' | 'dim' | 'strong';

export type Paint = (style: Style, text: string) => string;

const FORMATS = { ok: 'green', fail: 'red', warn: 'yellow', dim: 'dim', strong: 'bold' } as const;

/** No colour: the text as it is. */
export const plain: Paint = (_style, text) => text;

/** Colour through node:util's styleText; the decision was made by colorEnabled, so styleText is told not to check again. */
export const colored: Paint = (style, text) => styleText(FORMATS[style], text, { validateStream: false });

export function painter(enabled: boolean): Paint {
  return enabled ? colored : plain;
}
