// Durations in recipes and flags: "500ms", "30s", "10m", "1h", or a bare number of seconds.

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

export const DURATION_HINT = 'use e.g. 30s, 10m, 1h, or a number of seconds';

/**
 * The longest a Node timer waits (2^31-1 ms, about 24.8 days). A longer delay is not an error to
 * setTimeout: it warns (TimeoutOverflowWarning) and fires after 1 ms, so a `timeout: 1000h` would end
 * the run at once. Refused rather than clamped: whoever wrote 1000h meant something we cannot do.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const TOO_LONG = `a duration is at most ${Math.floor(MAX_TIMER_MS / 1000)}s (${Math.floor(MAX_TIMER_MS / 3_600_000)} hours, about ${Math.floor(MAX_TIMER_MS / 86_400_000)} days)`;

/** Milliseconds, or a message saying why `v` is not a positive duration. */
export function tryParseDuration(v: unknown): number | string {
  let ms: number;
  if (typeof v === 'number') {
    ms = v * 1000;
  } else if (typeof v === 'string') {
    const m = DURATION.exec(v);
    if (!m) return `'${v}' is not a duration: ${DURATION_HINT}`;
    ms = Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS];
  } else {
    return `must be a duration: ${DURATION_HINT}`;
  }
  ms = Math.round(ms);
  // An infinite number (YAML's .inf) is named as YAML writes it, not as JSON's null.
  if (!Number.isFinite(ms) || ms <= 0) return `${typeof v === 'number' && !Number.isFinite(v) ? '.inf' : JSON.stringify(v)} is not a positive duration: ${DURATION_HINT}`;
  if (ms > MAX_TIMER_MS) return `'${v}' is too long: ${TOO_LONG}`;
  return ms;
}

/** Milliseconds; throws on anything but a positive duration. */
export function parseDuration(v: string | number): number {
  const ms = tryParseDuration(v);
  if (typeof ms === 'string') throw new Error(ms);
  return ms;
}

/** A duration the recipe may leave out: its value in milliseconds, or the default. */
export function durationOr<T extends number | null>(v: string | number | undefined, fallback: T): number | T {
  return v === undefined ? fallback : parseDuration(v);
}
