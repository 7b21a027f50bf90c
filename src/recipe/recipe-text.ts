// A recipe file's text, read once and refused early when it cannot be a recipe: too large for any
// model to read (a 100 MB file took 15 s and 3.4 GB to parse before), or not UTF-8 (decoding
// would replace every bad byte with U+FFFD in silence, and "René" reach the model as "Ren�").
// The cap is checked as the bytes come, so a pipe with no size until read is bounded too.
import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from './errors.js';
import { firstInvalidUtf8, lineColOfByte } from '../util/utf8.js';

/** As piped stdin (cli/stdin.ts): far more than any model reads as a prompt. */
export const MAX_RECIPE_BYTES = 16 * 1024 * 1024;

const CHUNK = 1024 * 1024;

export function readRecipeText(file: string): { text: string } | { problem: Problem } {
  const at = (message: string, line = 1, col = 1): { problem: Problem } => ({ problem: { file, line, col, message } });
  const tooLarge = at(`the recipe is larger than ${MAX_RECIPE_BYTES / 1024 / 1024} MB, far more than a model reads: put long material in a file the model reads (in the workspace), and keep the recipe to the task`);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    return at(`cannot read recipe: ${readError(e)}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    // Reading it would say only "EISDIR: illegal operation on a directory, read".
    if (stat.isDirectory()) return at(`cannot read recipe: ${file} is a directory: name a recipe file in it (${path.join(file, 'NAME.yaml')})`);
    if (stat.isFile() && stat.size > MAX_RECIPE_BYTES) return tooLarge;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = fs.readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_RECIPE_BYTES) return tooLarge;
      chunks.push(chunk.subarray(0, n));
    }
    const bytes = Buffer.concat(chunks, total);
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      const { line, col } = lineColOfByte(bytes, bad);
      return at(`the recipe is not UTF-8 text: byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} here is not valid UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8`, line, col);
    }
    const text = bytes.toString('utf8');
    // YAML reads a bare CR as a line break, the yaml package does not: a file saved with old Mac OS
    // line endings was one line to it, refused three times as "nested mappings are not allowed in
    // compact mappings" on line 1. Only when the first line ending is a bare CR: a stray one later
    // in an LF file is left to the parser, as before.
    const ending = /\r\n|\r|\n/.exec(text);
    if (ending?.[0] === '\r') {
      const name = path.basename(file);
      return at(`the recipe has bare CR line endings (old Mac OS), which are not read as line breaks: save it with LF line endings (your editor's line-ending setting, or \`tr '\\r' '\\n' < ${name} > fixed-${name}\`)`, 1, [...text.slice(0, ending.index)].length + 1);
    }
    return { text };
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
