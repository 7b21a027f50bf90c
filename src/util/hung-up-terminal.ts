// A closed terminal or ssh session: Node (20) puts each standard stream that was a terminal when it
// started back as it was when it exits (its ResetStdio), and aborts when that fails with EIO, as it
// does on a terminal that hung up: a run that had written its report `cancelled` and meant to exit
// 129 died of SIGABRT (134, a core dump, a native stack trace), and so did a run that had ended
// when the window closed. When a terminal is in play (stdout or stderr is one; a SIGHUP; an EIO
// writing either), the standard streams that are hung-up terminals are closed as the process
// exits: Node leaves a closed one alone. A terminal that still works is left to Node. Nothing is
// done for a process without a terminal (CI, pipes, files).
import fs from 'node:fs';

let armed = false;

/** A terminal is in play, and may be gone by the end: look at the standard streams as the process exits. */
export function noteHangUp(): void {
  if (armed) return;
  armed = true;
  process.on('exit', closeHungUpTerminals);
}

function closeHungUpTerminals(): void {
  const nothing = Buffer.alloc(0);
  for (const fd of [0, 1, 2]) {
    try {
      // Nothing written to a working terminal, a file or a pipe; EIO from a terminal that hung up.
      fs.writeSync(fd, nothing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EIO') continue;
      try {
        fs.closeSync(fd);
      } catch {
        // closed already
      }
    }
  }
}
