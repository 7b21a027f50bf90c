// A recipe file's text, refused when it is not UTF-8: decoding would replace every bad byte with
// U+FFFD in silence, and a Latin-1 "René" would reach the model as "Ren�".
import fs from 'node:fs';
import type { Problem } from './errors.js';
import { firstInvalidUtf8, lineColOfByte } from '../util/utf8.js';

const CHUNK = 1024 * 1024;

export function readRecipeText(file: string): { text: string } | { problem: Problem } {
  const at = (message: string, line = 1, col = 1): { problem: Problem } => ({ problem: { file, line, col, message } });
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    return at(`cannot read recipe: ${readError(e)}`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = fs.readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      chunks.push(chunk.subarray(0, n));
    }
    const bytes = Buffer.concat(chunks, total);
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      const { line, col } = lineColOfByte(bytes, bad);
      return at(`the recipe is not UTF-8 text: byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} here is not valid UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8`, line, col);
    }
    return { text: bytes.toString('utf8') };
  } catch (e) {
    return at(`cannot read recipe: ${readError(e)}`);
  } finally {
    fs.closeSync(fd);
  }
}

function readError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  return (e as Error).message;
}
