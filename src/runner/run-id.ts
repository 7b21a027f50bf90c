import { randomBytes } from 'node:crypto';

/** Sortable and unique: `20261121T193500Z-3f9a1c`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
