// The host's unix sockets a sandboxed process could still connect to. A read-only mount does not
// stop connect(): the kernel checks a socket file's own permissions, never the mount's flags, and
// a network namespace holds abstract sockets only. So the D-Bus system bus (through which a
// process of root's asks systemd to start any command, outside every namespace), systemd's and
// snapd's sockets, or a database's local socket stay reachable from "no network" unless each is
// covered. The system's services keep theirs under /run (/var/run is a link to it): found there
// once per run, each is hidden as the credential files are (/dev/null bound over it).
import fs from 'node:fs';
import path from 'node:path';
import { mayAccess, realPathOrNull } from '../util/paths.js';

/** Where system services put their sockets. */
const SOCKET_ROOTS = ['/run', '/var/run'];
/** Users' runtime directories: the runner's own is hidden whole; another user's is not reachable without privilege. */
const SKIPPED = new Set(['/run/user']);
/** Entries looked at, at most: /run holds a few hundred on a desktop or CI image. */
const BUDGET = 20_000;
const MAX_DEPTH = 8;

/**
 * Real paths of the sockets under /run (and /var/run where it is not a link) that this user could
 * connect to, links not followed. Each costs bwrap a mount at every call (~0.2 ms), so a socket
 * the sandbox's process has no permission to connect to is left alone: it runs as this user,
 * without capabilities. (Root's access() passes them all: all are hidden.)
 */
export function hostSockets(roots: readonly string[] = SOCKET_ROOTS): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  let budget = BUDGET;
  const walk = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // Unreadable: not reachable from the sandbox either (the same user, no capability).
    }
    for (const entry of entries) {
      if (--budget < 0) return;
      const p = path.join(dir, entry.name);
      if (entry.isSocket() && connectable(p)) found.add(p);
      else if (entry.isDirectory() && depth < MAX_DEPTH && !SKIPPED.has(p)) walk(p, depth + 1);
    }
  };
  for (const root of roots) {
    const real = realPathOrNull(root);
    if (!real || seen.has(real)) continue;
    seen.add(real);
    walk(real, 0);
  }
  return [...found];
}

/** connect() needs write permission on the socket, as access(W_OK) checks it (and the directories above, for search). */
function connectable(p: string): boolean {
  return mayAccess(p, fs.constants.W_OK);
}
