// A closed stdout or stderr (`unattended run ... | head -1`, a CI log collector that went away) ends
// printing, never the run: the run's files are its record, and its exit code must still say how the
// run went. Node reports the broken pipe as an 'error' event on the stream, which, unhandled, would
// crash the process with a stack trace and no report.

/** Output streams that quietly drop what they can no longer deliver. Call once, before any output. */
export function guardStdio(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => {
      // EPIPE, EIO or ECONNRESET: the reader is gone; nothing to tell it. Later writes are dropped
      // by the stream itself (it is destroyed) and their errors land here too.
    });
  }
}

/** Writes unless the stream is already known to be closed (a destroyed stream would throw later). */
export function writeTo(stream: NodeJS.WriteStream, text: string): void {
  if (stream.destroyed || stream.writableEnded) return;
  stream.write(text);
}
