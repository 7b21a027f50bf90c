// One batch at a time in a batch directory. A cron job that fires again before the last batch has
// ended, with --resume (which must go on where a killed batch stopped, so it cannot refuse a
// directory for its leftover runs), would otherwise run the same targets beside it: each stopped
// the other's runs, both pushed the same branches, and neither's report was true. The batch leaves
// its pid and its start time (from /proc, so a recycled pid is never taken for it) in batch.pid
// while it lives; another batch into that directory is refused while that process lives.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../recipe/index.js';
import { makeDirs } from '../util/make-dirs.js';
import { markedProcessIn, processMarker } from '../util/proc.js';

const LOCK_FILE = 'batch.pid';

/**
 * Claims `outDir` for this batch (creating it): refused with an InputError while another batch
 * that claimed it lives. Returns what gives it up; a batch killed with SIGKILL leaves its file,
 * which the next claim finds dead and takes over.
 */
export function claimBatchDir(outDir: string): () => void {
  const file = path.join(outDir, LOCK_FILE);
  const unwritable = (error: unknown) =>
    new InputError(`cannot write the batch outputs to ${outDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'choose a writable directory with --out DIR');
  try {
    makeDirs(outDir);
  } catch (error) {
    throw unwritable(error);
  }
  const mine = processMarker();
  // Created only if absent (two batches started at once: one gets it); a file a dead batch left is taken over.
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unwritable(error);
      const holder = batchRunningIn(outDir);
      // A second EEXIST: another batch claimed the directory between our two tries.
      if (holder !== null || attempt > 0) {
        throw new InputError(
          `the batch directory ${outDir} holds a batch still running${holder !== null ? ` (pid ${holder})` : ''}: a second batch there would run the same targets beside it`,
          'wait for it to end (or stop it), or give this batch its own --out',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  return () => {
    try {
      // Only our own claim: a later batch may have taken over the directory meanwhile.
      if (fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file, { force: true });
    } catch {
      // Gone already.
    }
  };
}

/** The pid of the batch that claimed `outDir` when that process still lives; null otherwise. */
export function batchRunningIn(outDir: string): number | null {
  return markedProcessIn(path.join(outDir, LOCK_FILE), 'gone');
}
