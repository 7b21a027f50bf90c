// A duration in milliseconds as a recipe writes one (`30s`, `10m`, `1h`, `500ms`): a limit's
// message says its value in the unit the user gave it, never as a bare count of milliseconds.

export function durationText(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
