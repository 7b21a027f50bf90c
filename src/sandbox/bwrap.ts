// bubblewrap arguments for one sandboxed command. Order matters: bwrap applies mounts in order,
// so the read-only root comes first, then the private /tmp and /dev, the writable places, and last
// what must stay read-only or hidden inside them.
import { PROXY_DIR_INSIDE, type Containment } from './spec.js';
import { parentsFirst } from './anchors.js';

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

/** `emptyFile`: what hidden files are bound to (empty-file.ts). */
export function bwrapArgs(c: Containment, opts: { cwd: string; proxyDir: string | null; emptyFile: string; hardening?: readonly string[] }): string[] {
  const hardening = opts.hardening ?? HARDENING;
  const args = [...hardening, ...ISOLATION];
  if (c.network !== 'all') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // A workspace under /tmp or /dev/shm (a tmpfs some CI setups work in) needs its parents in the
  // sandbox's private /tmp or /dev; made read-only (no capability inside overrides the mode), a
  // write beside the workspace fails instead of vanishing with the private tmpfs. --perms needs
  // bwrap 0.5; the full hardening (0.8) says it is there.
  const shown = c.readable.filter(inPrivateMount);
  if (hardening === HARDENING) {
    for (const dir of parentsInPrivateMounts([...shown, c.workspace, ...c.writable])) args.push('--perms', '0555', '--dir', dir);
  }
  // Read-only first: a workspace inside the recipe's directory is bound writable over it after.
  for (const dir of shown) args.push('--ro-bind', dir, dir);
  for (const dir of [c.workspace, ...c.writable]) args.push('--bind', dir, dir);
  // A mount point cannot be renamed or removed (EBUSY): binding .git onto itself pins it in place.
  for (const dir of parentsFirst([...c.pinned, ...c.anchors])) args.push('--bind', dir, dir);
  for (const p of c.readOnly) args.push('--ro-bind', p, p);
  for (const dir of c.hiddenDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of c.hiddenFiles) args.push('--ro-bind', opts.emptyFile, file);
  if (c.network === 'proxy' && opts.proxyDir) args.push('--ro-bind', opts.proxyDir, PROXY_DIR_INSIDE);
  args.push('--chdir', opts.cwd);
  return args;
}

/** Mounted afresh in the sandbox (`--tmpfs /tmp`, and `--dev /dev` with its own /dev/shm): the host's content is not there. */
const PRIVATE_MOUNTS = ['/tmp', '/dev/shm'];

function privateMountOf(p: string): string | undefined {
  return PRIVATE_MOUNTS.find((root) => p.startsWith(`${root}/`));
}

function inPrivateMount(p: string): boolean {
  return privateMountOf(p) !== undefined;
}

/** The directories strictly between /tmp (or /dev/shm) and each path under it, parents first, each once. */
export function parentsInPrivateMounts(paths: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const p of paths) {
    const root = privateMountOf(p);
    if (root === undefined) continue;
    const parts = p.split('/').filter(Boolean);
    // From the first directory below the mount ('/tmp/a', '/dev/shm/a') to the path's parent.
    for (let i = root.split('/').filter(Boolean).length + 1; i < parts.length; i++) {
      const dir = `/${parts.slice(0, i).join('/')}`;
      if (!dirs.includes(dir)) dirs.push(dir);
    }
  }
  return dirs;
}

/** The smallest sandbox that exercises what every run needs: used once to see whether bwrap works here. */
export function probeArgs(hardening: readonly string[]): string[] {
  return [...hardening, ...ISOLATION, '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', 'true'];
}
