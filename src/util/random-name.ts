// Random names from the OS's entropy: temporary files in a shared /tmp, stream-json message ids.
// node:crypto is loaded at the first call, not at start-up: it is 16 of node's modules and ~3 ms
// to load, and a run that never snapshots, hands off nor streams JSON never needs it.
import type crypto from 'node:crypto';

const cryptoModule = (): typeof crypto => process.getBuiltinModule('node:crypto');

/** `bytes` random bytes as hex, from the OS's entropy: names in a shared /tmp must not be guessable. */
export function randomHex(bytes: number): string {
  return cryptoModule().randomBytes(bytes).toString('hex');
}

export function randomUuid(): string {
  return cryptoModule().randomUUID();
}
