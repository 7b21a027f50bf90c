// Piped standard input: read when it is a pipe, a socket (what Node and most orchestrators give a
// child for a pipe) or a file, never a terminal. An unattended run must never wait on a silent
// stdin: without a first byte in time, stdin is taken as empty and the run goes on.
import fs from 'node:fs';
import { InputError } from '../types/errors.js';
import { firstInvalidUtf8, lineColOfByte, utf16Bom, utf8TextWithoutBom } from '../util/utf8.js';

/** Without a first byte within this time, stdin is taken as empty. */
export const STDIN_FIRST_BYTE_MS = 10_000;

/**
 * More than this on stdin is refused: it is many times what any model's context window holds, and
 * past ~512 MB the text could not even be made (ERR_STRING_TOO_LONG, with a stack trace).
 */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/**
 * Piped bytes as the prompt's text. A NUL byte says they are no text (an image, an archive piped in
 * by mistake): sent on, they would reach the model as replacement characters, paid for and read as
 * nonsense. Text in another encoding (a `git diff` of Latin-1 files) would lose each of its accented
 * letters to U+FFFD in silence, and the model would quote the mangled lines back in its edits,
 * which then match nothing. Both are refused, like input that is too big, saying where.
 */
function asText(bytes: Buffer): string {
  const utf16 = utf16Bom(bytes);
  if (utf16) throw new InputError(`standard input is ${utf16} text (it starts with that byte-order mark), not UTF-8`, 'convert it to UTF-8 first (`iconv -f utf-16 -t utf-8`; in PowerShell, `$OutputEncoding = [Text.UTF8Encoding]::new()`)');
  if (bytes.includes(0)) throw new InputError('standard input is not text (it holds NUL bytes: an image or an archive?)', 'pipe text, or give the model a file to read instead (write it into the workspace)');
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const { line, col } = lineColOfByte(bytes, bad);
    throw new InputError(
      `standard input is not UTF-8 text (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} at line ${line}, column ${col}): sent on, it would reach the model with that character replaced`,
      'convert it to UTF-8 first (from Latin-1: `iconv -f latin1 -t utf-8`)',
    );
  }
  return utf8TextWithoutBom(bytes);
}

function tooMuch(): InputError {
  return new InputError(`standard input holds more than ${MAX_STDIN_BYTES / 1024 / 1024} MB, far more than a model can read as a prompt`, 'give the model a file to read instead (write it into the workspace), or pipe only the part it needs');
}

/** True when stdin is a pipe, a socket or a file: something may come on it (never a terminal). */
export function stdinIsPiped(): boolean {
  try {
    const stat = fs.fstatSync(0);
    return stat.isFIFO() || stat.isFile() || stat.isSocket();
  } catch {
    return false;
  }
}

/** `stop` (a held Ctrl-C or SIGTERM) ends the wait: stdin is then taken as empty, and the run starts stopped. */
export async function readPipedStdin(firstByteMs = STDIN_FIRST_BYTE_MS, stop?: AbortSignal): Promise<string | null> {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(0);
  } catch {
    return null;
  }
  if (!stat.isFIFO() && !stat.isFile() && !stat.isSocket()) return null;
  if (stat.isFile()) {
    if (stat.size > MAX_STDIN_BYTES) throw tooMuch();
    return asText(fs.readFileSync(0));
  }
  if (stop?.aborted) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = process.stdin;
    stop?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        stream.pause();
        stream.destroy();
        resolve(null);
      },
      { once: true },
    );
    const timer = setTimeout(() => {
      stream.pause();
      stream.destroy();
      process.stderr.write(`unattended: stdin sent nothing for ${firstByteMs / 1000} s; going on without it (--no-stdin skips the wait)\n`);
      resolve(null);
    }, firstByteMs);
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      clearTimeout(timer);
      bytes += chunk.length;
      if (bytes > MAX_STDIN_BYTES) {
        stream.pause();
        stream.destroy();
        chunks.length = 0;
        reject(tooMuch());
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      clearTimeout(timer);
      try {
        resolve(asText(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    stream.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
