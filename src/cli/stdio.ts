// A closed stdout or stderr (`unattended run ... | head -1`, a CI log collector that went away) ends
// printing, never the run: the run's files are its record, and its exit code must still say how the
// run went. Node reports the broken pipe as an 'error' event on the stream, which, unhandled, would
// crash the process with a stack trace and no report.

/** Streams whose reader is gone. */
const gone = new WeakSet<NodeJS.WriteStream>();

/** Output streams that quietly drop what they can no longer deliver. Call once, before any output. */
export function guardStdio(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => {
      // EPIPE, EIO or ECONNRESET: the reader is gone; nothing to tell it. A standard stream is not
      // destroyed by its error (Node keeps fds 1 and 2 open), so writeTo stops writing to it: each
      // failed write would build an error with a stack trace (~30 us) for nobody.
      gone.add(stream);
    });
  }
}

/** Writes unless the stream is known to be closed or its reader gone (a destroyed stream would throw later). */
export function writeTo(stream: NodeJS.WriteStream, text: string): void {
  if (gone.has(stream) || stream.destroyed || stream.writableEnded) return;
  stream.write(text);
}
