// Reading a path that names one of the process's own descriptors (`/dev/stdin`, `/dev/fd/N`,
// `/proc/self/fd/N`). Linux refuses to open such a path when the descriptor is a socket (ENXIO),
// and a socket is what Node's spawn with pipes, and several CI runners, give a child for stdin:
// `--targets /dev/stdin` failed there although the list was right on stdin.
import fs from 'node:fs';

/** The descriptor a path names, or null when it names a file of its own. */
export function ownDescriptor(file: string): number | null {
  if (file === '/dev/stdin') return 0;
  const match = /^\/(?:dev\/fd|proc\/self\/fd)\/(\d+)$/.exec(file);
  return match ? Number(match[1]) : null;
}

/** The file's bytes; a descriptor that cannot be opened by its path is read directly. */
export function readFileOrOwnDescriptor(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const fd = ownDescriptor(file);
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || fd === null) throw error;
    return readDescriptor(fd);
  }
}

/** Every byte until end of input; a descriptor left non-blocking by its writer is waited on, not failed. */
function readDescriptor(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const chunk = Buffer.alloc(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 20);
      continue;
    }
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
}
