// A collector that does not answer (down, firewalled, hung) costs an export its whole timeout. Once
// that is known, the end of a run does not pay it again: its flushes get UNANSWERED_FLUSH_MS (enough
// for a collector that came back), and the process exits without waiting for the requests it gave
// up on. A batch tells the runs it starts next (UNANSWERED_ENV), so a fleet pays the timeout once,
// not once per repository. Free of any OpenTelemetry import: the CLI and the batch read it.

/** Set by a batch in a run's environment when an earlier run of it found the collector not answering. */
export const UNANSWERED_ENV = 'UNATTENDED_OTLP_UNANSWERED';

/** What a flush waits for a collector known not to answer: a local or nearby one that came back still makes it. */
export const UNANSWERED_FLUSH_MS = 250;

const LATE = 'not finished within';

/** The warning of a flush that passed its deadline; `cut`: the deadline was UNANSWERED_FLUSH_MS, not the export timeout. */
export function lateExport(deadlineMs: number, cut: boolean): string {
  return `${LATE} ${deadlineMs} ms${cut ? ' (cut short: the collector did not answer an earlier export)' : ''}; what was not sent is dropped`;
}

/** Whether a run's warnings (its report's, read as written: maybe not a list) say it waited out a flush deadline on its collector. */
export function saysUnanswered(warnings: unknown): boolean {
  return Array.isArray(warnings) && warnings.some((w) => typeof w === 'string' && w.startsWith(`telemetry: export failed: ${LATE} `));
}

let outstanding = false;

/** A flush gave up on export requests still in flight: they are abandoned, not waited for. */
export function markOutstanding(): void {
  outstanding = true;
}

/** Whether this process gave up on export requests: it exits once its command is done, not when they time out. */
export function exportsOutstanding(): boolean {
  return outstanding;
}
