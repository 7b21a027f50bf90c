// A closed stdout or stderr (`unattended run ... | head -1`, a CI log collector that went away) ends
// printing, never the run: the run's files are its record, and its exit code must still say how the
// run went. Node reports the broken pipe as an 'error' event on the stream, which, unhandled, would
// crash the process with a stack trace and no report.

import { noteHangUp } from '../util/hung-up-terminal.js';

/** Streams whose reader is gone. */
const gone = new WeakSet<NodeJS.WriteStream>();

/**
 * Errors that say the output was lost where it was to be kept (stdout redirected to a file on a
 * full disk, over a quota or a file-size limit), not that nobody reads it any more: what a script
 * would parse from that file is not there, so the command's exit code must not say all is well.
 */
const LOST = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
let stdoutLost: Error | null = null;

/** The first write to stdout that failed with its output lost (see LOST); null when none did. */
export function lostStdout(): Error | null {
  return stdoutLost;
}

/** Output streams that quietly drop what they can no longer deliver. Call once, before any output. */
export function guardStdio(): void {
  // Known from the streams Node made (no system call): a terminal that may hang up before the exit.
  if (process.stdout.isTTY || process.stderr.isTTY) noteHangUp();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (stream === process.stdout && LOST.has(error.code ?? '')) stdoutLost ??= error;
      // A terminal that hung up (a closed window, a dropped ssh session) without a SIGHUP to this process.
      if (error.code === 'EIO') noteHangUp();
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
