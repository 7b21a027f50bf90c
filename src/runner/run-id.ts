/**
 * Sortable and unique: `20261121T193500Z-3f9a1c`. The suffix only tells apart runs started in the
 * same second; it names a directory, guards nothing, so it comes from Math.random (seeded per
 * process from the OS's entropy) rather than node:crypto, which would load before the first model
 * request only for this.
 */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const suffix = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `${stamp}-${suffix}`;
}

/**
 * One word that reads as a run id, whole or mistyped (`20261121T193500Z-3f9a1c`, `20261121T1935Z`):
 * never a follow-up prompt, so `--continue` takes it for a run and says so when there is none.
 */
export function looksLikeRunId(value: string): boolean {
  return /^\d{8}T\d{4,6}Z?(?:-\w*)?$/i.test(value);
}
