// A Seatbelt (sandbox-exec) profile for macOS that keeps the same promises as the bubblewrap
// sandbox: the whole system readable except the hidden credential paths, writes only to the
// workspace, the temporary directories and the extra writable paths (never to .git/config,
// .git/hooks or the run's outputs), and no network except the runner's filtering proxy on loopback.
// Seatbelt has no PID namespace: a process tree is still contained by the runner's process groups.
import type { Containment } from './spec.js';

/** Seatbelt string literal: backslashes and quotes escaped; no control characters. */
export function sbString(value: string): string {
  if (/[\0-\x1f\x7f]/.test(value)) throw new Error(`a sandbox path cannot contain control characters: ${JSON.stringify(value)}`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export interface SeatbeltOptions {
  /** The temporary directories a process may write (TMPDIR and its /private twin, /private/tmp). */
  tempDirs: string[];
  /** The proxy's loopback port when network is 'proxy'. */
  proxyPort: number | null;
}

export function seatbeltProfile(c: Containment, opts: SeatbeltOptions): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    // A process may run programs, fork, and signal only what runs in the same sandbox.
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys"))',
  ];
  const writable = [c.workspace, ...c.writable, ...opts.tempDirs];
  lines.push(`(allow file-write* ${writable.map((p) => `(subpath ${sbString(p)})`).join(' ')})`);
  // Later rules win in Seatbelt: these come after the allowances they narrow.
  const hidden = [...c.hiddenDirs.map((p) => `(subpath ${sbString(p)})`), ...c.hiddenFiles.map((p) => `(literal ${sbString(p)})`)];
  if (hidden.length) lines.push(`(deny file-read* file-write* ${hidden.join(' ')})`);
  // The directory entries themselves: no rename or removal of .git (its contents stay writable).
  const fixed = [...c.pinned, ...c.anchors];
  if (fixed.length) lines.push(`(deny file-write* ${fixed.map((p) => `(literal ${sbString(p)})`).join(' ')})`);
  if (c.readOnly.length) lines.push(`(deny file-write* ${c.readOnly.map((p) => `(subpath ${sbString(p)})`).join(' ')})`);
  if (c.network === 'all') lines.push('(allow network*)');
  else {
    // Local sockets for the process's own use; nothing that leaves the machine.
    lines.push('(allow network* (remote unix-socket))');
    if (c.network === 'proxy' && opts.proxyPort !== null) {
      lines.push(`(allow network-outbound (remote ip ${sbString(`localhost:${opts.proxyPort}`)}))`);
    }
  }
  return `${lines.join('\n')}\n`;
}
