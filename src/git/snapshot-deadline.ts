// How long the runner's own git may take to record the workspace (git/snapshot.ts): a minute,
// until the run is stopped. A stopped run has STOP_GRACE_MS to end before the forced exit, which
// writes only what it still can: no final answer. A snapshot of a big workspace (a minute for a
// few GB) used the whole grace, so a run stopped while git recorded it lost its final answer. Once
// the run is stopped, every snapshot still running, and any started later, ends by a deadline short
// of the grace: then it fails as a timed-out one does, the run ends on its normal path (final answer
// kept) and its report says files_changed may miss what commands changed. A quick snapshot (any
// workspace of ordinary size) still finishes, so a stopped run still lists what its commands changed.

/** A snapshot that takes longer than this fails (a huge file a command made, a repository it broke). */
const TIMEOUT_MS = 60_000;

/** When every snapshot must be over (Date.now() time), once the run is stopped; null until then. */
let stopBy: number | null = null;
/** The running snapshots' timers, re-armed when the deadline comes nearer. */
const live = new Set<() => void>();

/** Calls `expire` when the snapshot has run too long; returns the function that cancels that. */
export function snapshotTimer(expire: () => void): () => void {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    const end = Math.min(started + TIMEOUT_MS, stopBy ?? Infinity);
    timer = setTimeout(expire, Math.max(0, end - Date.now()));
  };
  arm();
  live.add(arm);
  return () => {
    clearTimeout(timer);
    live.delete(arm);
  };
}

/** The run was stopped: every snapshot ends within `ms` from now. */
export function cutSnapshotsShort(ms: number): void {
  const by = Date.now() + ms;
  if (stopBy !== null && stopBy <= by) return;
  stopBy = by;
  for (const arm of live) arm();
}

/**
 * A new run starts with no deadline: one process may hold several runs one after another (the
 * CLI's entry called in process, as the tests and an in-process batch launcher do), and a deadline
 * left by a stopped run would fail every later run's snapshots at once (files_changed empty).
 */
export function resetSnapshotDeadline(): void {
  stopBy = null;
}

/** Whether the run was stopped (a snapshot that failed since may have been cut short). */
export function snapshotsCutShort(): boolean {
  return stopBy !== null;
}
