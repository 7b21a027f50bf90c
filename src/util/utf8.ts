// Where bytes stop being UTF-8 text: a file read as text with Node's 'utf8' turns every invalid
// byte into U+FFFD in silence (a Latin-1 "René" reaches the model as "Ren�"). Callers refuse such
// a file and say where the first bad byte is.
import { isUtf8 } from 'node:buffer';

/** The byte offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

/** The length of the valid sequence starting at `i`, or 0 when there is none (RFC 3629 table 3-7). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const [count, low, high] =
    b >= 0xc2 && b <= 0xdf ? [1, 0x80, 0xbf]
    : b === 0xe0 ? [2, 0xa0, 0xbf]
    : b === 0xed ? [2, 0x80, 0x9f]
    : b >= 0xe1 && b <= 0xef ? [2, 0x80, 0xbf]
    : b === 0xf0 ? [3, 0x90, 0xbf]
    : b >= 0xf1 && b <= 0xf3 ? [3, 0x80, 0xbf]
    : b === 0xf4 ? [3, 0x80, 0x8f]
    : [0, 0, 0];
  if (count === 0) return 0;
  const second = bytes[i + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let k = 2; k <= count; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return count + 1;
}

/** 1-based line and column (in characters) of byte `offset`, counting only the valid text before it. */
export function lineColOfByte(bytes: Uint8Array, offset: number): { line: number; col: number } {
  const before = Buffer.from(bytes.buffer, bytes.byteOffset, offset);
  const lineStart = before.lastIndexOf(0x0a) + 1;
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (before[i] === 0x0a) line++;
  const col = [...before.subarray(lineStart).toString('utf8')].length + 1;
  return { line, col };
}

/**
 * UTF-8 bytes as text without the byte-order mark an editor may have put first (Notepad, Visual
 * Studio): kept, it reaches the model as an invisible first character of the prompt.
 */
export function utf8TextWithoutBom(bytes: Buffer): string {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}

/** 'UTF-16LE' or 'UTF-16BE' when the bytes start with that byte-order mark (Windows' "Unicode" text), else null. */
export function utf16Bom(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  return null;
}
