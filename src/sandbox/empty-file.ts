// What a hidden credential file reads as under bwrap: an empty, read-only regular file bound over
// it. /dev/null would not do: bwrap mounts what it binds without devices (nodev), so a hidden
// ~/.npmrc read as 'Permission denied', which npm, yarn or gradle may take for a broken setup and
// stop on, where an empty file is simply no settings. One per sandbox, removed when it closes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface EmptyFile {
  path: string;
  remove(): void;
}

export function makeEmptyFile(): EmptyFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-empty-'));
  const file = path.join(dir, 'empty');
  // Writable to its owner on the host only (its directory is 0700); bound read-only, a write from
  // inside fails as every read-only path's does: 'Read-only file system'.
  fs.writeFileSync(file, '', { mode: 0o644 });
  return { path: file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
