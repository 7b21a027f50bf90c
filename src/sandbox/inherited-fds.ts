// Descriptors the runner inherited open without close-on-exec, from whoever started it: a shell's
// `exec 200>/var/lock/x` (the flock idiom), make's jobserver, a directory a CI agent left open.
// Every process the runner starts inherits them, and bwrap passes them into the sandbox as they
// are: through a file one a command writes where no path inside could, and a directory one leads
// out of every mount (`/proc/self/fd/N/…`). The sandboxed program is started by a shell that
// closes them first; with none (the usual case) nothing is added.
import fs from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** The runner's descriptors above stderr that a program it starts would inherit (Linux: /proc). */
export function inheritedDescriptors(): number[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const inherited: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let info: string;
    try {
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // closed meanwhile (the directory listing's own)
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    if (flags && (parseInt(flags[1]!, 8) & O_CLOEXEC) === 0) inherited.push(fd);
  }
  return inherited.sort((a, b) => a - b);
}

/** What runs first in the sandbox to close `fds` and then exec the program that follows it. */
export function closingPrefix(fds: readonly number[]): string[] {
  if (fds.length === 0) return [];
  return ['bash', '--norc', '--noprofile', '-c', `exec ${fds.map((fd) => `${fd}<&-`).join(' ')}; exec "$@"`, 'unattended-close-fds'];
}
