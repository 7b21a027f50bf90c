// bubblewrap arguments for one sandboxed command. Order matters: bwrap applies mounts in order,
// so the read-only root comes first, then the private /tmp, the writable places, and last what must
// stay read-only or hidden inside them.
import { PROXY_DIR_INSIDE, type Containment } from './spec.js';

/** Namespaces and lifetime: no way to signal the runner, nothing outlives the sandbox's first process. */
const ISOLATION = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];

/**
 * No privilege inside, whoever runs the runner: bwrap started by root keeps every capability in
 * the sandbox unless told otherwise, and with CAP_SYS_ADMIN a command could simply unmount the
 * read-only views or remount / writable. A user namespace of its own, no capabilities, and (where
 * this bwrap knows the option, 0.8 and later) no further user namespaces from inside.
 */
export const HARDENING: readonly string[] = ['--unshare-user', '--disable-userns', '--cap-drop', 'ALL'];
/** bwrap before 0.8 has no --disable-userns: the rest still holds. */
export const HARDENING_FALLBACK: readonly string[] = ['--unshare-user', '--cap-drop', 'ALL'];

export function bwrapArgs(c: Containment, opts: { cwd: string; proxyDir: string | null; hardening?: readonly string[] }): string[] {
  const args = [...(opts.hardening ?? HARDENING), ...ISOLATION];
  if (c.network !== 'all') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const dir of [c.workspace, ...c.writable]) args.push('--bind', dir, dir);
  // A mount point cannot be renamed or removed (EBUSY): binding .git onto itself pins it in place.
  for (const dir of c.pinned) args.push('--bind', dir, dir);
  for (const p of c.readOnly) args.push('--ro-bind', p, p);
  for (const dir of c.hiddenDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of c.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  if (c.network === 'proxy' && opts.proxyDir) args.push('--ro-bind', opts.proxyDir, PROXY_DIR_INSIDE);
  args.push('--chdir', opts.cwd);
  return args;
}

/** The smallest sandbox that exercises what every run needs: used once to see whether bwrap works here. */
export function probeArgs(hardening: readonly string[]): string[] {
  return [...hardening, ...ISOLATION, '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', 'true'];
}
