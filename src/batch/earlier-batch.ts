// A new batch into a directory an earlier batch left: that batch's report, runs and clones are its
// record, and a new batch would replace them (it rewrites the report at once and clears each
// target's run directory and checkout). An --out the person named is refused: they chose it, they
// decide. The recipe's default directory, which a nightly job reuses without saying so, has its
// earlier batch moved aside instead, so that the default directory always holds the latest batch.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../recipe/index.js';
import { readBatchReport } from './batch-report.js';
import { batchRunningIn } from './batch-lock.js';
import { liveRunIn } from './leftover-runner.js';

/** What a batch writes in its directory, and so what tells that an earlier batch was there. */
const BATCH_ENTRIES = ['batch-report.json', 'batch-report.md', 'targets', 'checkouts'] as const;

/** The first of a batch's entries in `dir`, or null when no batch was there. */
export function earlierBatchEntry(dir: string): string | null {
  return BATCH_ENTRIES.find((name) => exists(path.join(dir, name))) ?? null;
}

/** Refused before anything is written, like a run's --out that holds a run; --resume is how to continue it. */
export function refuseEarlierBatch(outDir: string): void {
  const found = earlierBatchEntry(outDir);
  if (!found) return;
  // One still going (a cron job that fired again early) is no earlier batch to --resume: that is refused too, while it runs.
  const batch = batchRunningIn(outDir);
  const run = batch === null ? liveRunIn(outDir) : null;
  if (batch !== null || run) {
    throw new InputError(
      `--out ${outDir} holds a batch still running (${run ? `target ${run.slug}'s run, pid ${run.pid}` : `pid ${batch}`}), which a new batch would replace under it`,
      'wait for it to end (or stop it), then continue it with --resume, or give this one another --out (a new or empty directory)',
    );
  }
  throw new InputError(
    `--out ${outDir} already holds an earlier batch (its ${found}), which a new batch would replace`,
    'continue that batch with --resume, or give this one another --out (a new or empty directory); to start over, move the earlier one away first',
  );
}

/**
 * Where the earlier batch in the default directory `outDir` would go (null: none there), checked
 * as the move will need it. A batch with a run still going on is not moved: its runs write by
 * path, and would write into the new batch's directory.
 */
export function planMoveAside(outDir: string, recipeName: string): string | null {
  if (!earlierBatchEntry(outDir)) return null;
  const batch = batchRunningIn(outDir);
  const live = batch === null ? liveRunIn(outDir) : { slug: 'the batch itself', pid: batch };
  if (live) {
    throw new InputError(
      `the batch directory ${outDir} (the default --out for recipe ${recipeName}) holds a batch still running (target ${live.slug}'s run, pid ${live.pid}); it is not moved aside while it runs`,
      'wait for it to end, or give this batch its own --out',
    );
  }
  for (const candidate of asideCandidates(outDir)) if (!exists(candidate)) return candidate;
  return null;
}

/**
 * Renames the earlier batch in the default directory `outDir` to a sibling named for when it
 * started (`greet-2026-11-27T03-17-00Z`, then `-2`, `-3` if taken) and returns that name. One
 * rename in the same parent: nothing is copied or deleted, and the clones under checkouts/ are
 * whole repositories (`git clone`), which a rename leaves working. A rename that fails refuses the
 * batch, the directory as it was.
 */
export function moveEarlierBatchAside(outDir: string, recipeName: string): string | null {
  if (!planMoveAside(outDir, recipeName)) return null;
  for (const candidate of asideCandidates(outDir)) {
    if (exists(candidate)) continue;
    try {
      fs.renameSync(outDir, candidate);
      return candidate;
    } catch (error) {
      // Taken since it was looked at (a directory holding something): the next name.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') continue;
      throw new InputError(
        `the batch directory ${outDir} (the default --out for recipe ${recipeName}) holds an earlier batch, which could not be moved aside to ${candidate}: ${(error as Error).message}`,
        'move the earlier batch away yourself, continue it with --resume, or give this one its own --out',
      );
    }
  }
  return null;
}

/** `<dir>-<when it started>`, then `-2`, `-3`, …: endless, the caller takes the first free one. */
function* asideCandidates(outDir: string): Generator<string> {
  const base = `${outDir}-${startedStamp(outDir)}`;
  yield base;
  for (let n = 2; ; n++) yield `${base}-${n}`;
}

/**
 * When the earlier batch started, in UTC, safe in a file name everywhere (no `:`): its report's
 * `started_at`, else (no readable report) the directory's modification time.
 */
function startedStamp(dir: string): string {
  let when = Number.NaN;
  try {
    when = Date.parse(readBatchReport(dir).started_at);
  } catch {
    // no report to read: the directory's time below
  }
  if (!Number.isFinite(when)) when = fs.statSync(dir).mtimeMs;
  return new Date(when).toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
}

/** Anything by that name, a dangling link too. Not there when it cannot be looked at (the batch could not write there either). */
function exists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
