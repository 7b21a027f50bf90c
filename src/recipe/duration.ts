// Durations in recipes and flags: "500ms", "30s", "10m", "1h", or a bare number of seconds.

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

export const DURATION_HINT = 'use e.g. 30s, 10m, 1h, or a number of seconds';

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
  if (!Number.isFinite(ms) || ms <= 0) return `${JSON.stringify(v)} is not a positive duration: ${DURATION_HINT}`;
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
