// A run that is still going leaves its pid and its process's start time in run.pid in its
// directory, removed once its report is written. `--continue` of a run still going would put a
// second agent in the same workspace, which would take the first one's changes for its own: it is
// refused while that process lives. A run killed with SIGKILL leaves the file behind: its process
// is gone (or its pid now names another process, with another start time), and continuing it, as
// a run that was killed, is allowed.
import fs from 'node:fs';
import path from 'node:path';
import { markedProcessIn, processMarker } from '../util/proc.js';
import type { RunDir } from './out-dir.js';

export const LIVE_MARKER = 'run.pid';

/** Marks the run's directory as a live run's; best effort (a run never fails for it). */
export function markLive(runDir: RunDir): void {
  try {
    runDir.writeFile(LIVE_MARKER, processMarker());
  } catch {
    // An unwritable directory fails the transcript, which says so.
  }
}

/** The run is over (its report is written): no longer a live run's directory. */
export function unmarkLive(runDir: RunDir): void {
  try {
    fs.rmSync(runDir.at(LIVE_MARKER), { force: true });
  } catch {
    // A directory closed or moved away: nothing to take back.
  }
}

/** The pid of the run still going in `dir`, or null (none marked, or its process is gone). */
export function liveRunIn(dir: string): number | null {
  // This process too (a program that runs several runs at once): its own start time is the marker's.
  return markedProcessIn(path.join(dir, LIVE_MARKER), 'alive');
}
