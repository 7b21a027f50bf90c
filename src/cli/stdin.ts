// Piped standard input, read only when it is really a pipe or a file: a terminal, or a socket an
// orchestrator left open, must never make an unattended run wait.
import fs from 'node:fs';

/** Without a first byte within this time, stdin is taken as empty. */
export const STDIN_FIRST_BYTE_MS = 10_000;

export async function readPipedStdin(firstByteMs = STDIN_FIRST_BYTE_MS): Promise<string | null> {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(0);
  } catch {
    return null;
  }
  if (!stat.isFIFO() && !stat.isFile()) return null;
  if (stat.isFile()) return fs.readFileSync(0, 'utf8');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = process.stdin;
    const timer = setTimeout(() => {
      stream.pause();
      stream.destroy();
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
