// Piped standard input: read when it is a pipe, a socket (what Node and most orchestrators give a
// child for a pipe) or a file, never a terminal. An unattended run must never wait on a silent
// stdin: without a first byte in time, stdin is taken as empty and the run goes on.
import fs from 'node:fs';

/** Without a first byte within this time, stdin is taken as empty. */
export const STDIN_FIRST_BYTE_MS = 10_000;

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
  if (stat.isFile()) return fs.readFileSync(0, 'utf8');
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
    stream.on('data', (chunk: Buffer) => {
      clearTimeout(timer);
      chunks.push(chunk);
    });
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    stream.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
