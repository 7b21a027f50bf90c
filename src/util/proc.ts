// What Linux's /proc says about processes: what the runner needs to stop the processes it started,
// and only those. Without /proc (macOS), processIds() is null and each caller decides what that means.
import fs from 'node:fs';

/** The ids of every process /proc lists, or null when there is no /proc. */
export function processIds(): number[] | null {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const ids: number[] = [];
  for (const name of names) if (/^\d+$/.test(name)) ids.push(Number(name));
  return ids;
}

/** /proc/PID/NAME (cmdline, stat…) as text, or null when the process is gone or not ours to read. */
export function procFile(pid: number, name: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}

/** Where the process works (/proc/PID/cwd), or null when that cannot be read. */
export function procCwd(pid: number): string | null {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/**
 * Ids of the processes whose environment holds `entry` (`NAME=value`): what a process inherits
 * from its parent however it detaches (setsid, double fork), unless it clears its environment.
 * Only processes of the same user can be read; none without /proc.
 */
export function processesWithEnvironment(entry: string): number[] {
  const needle = Buffer.from(`\0${entry}\0`);
  const found: number[] = [];
  for (const pid of processIds() ?? []) {
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    // The first entry has no NUL before it.
    if (Buffer.concat([Buffer.from([0]), environ, Buffer.from([0])]).includes(needle)) found.push(pid);
  }
  return found;
}

/**
 * When the process started, in clock ticks since boot (/proc/PID/stat field 22), or null (gone, no
 * /proc). With its pid it names one process: a recycled pid has another start time.
 */
export function processStartTime(pid: number): string | null {
  const stat = procFile(pid, 'stat');
  if (!stat) return null;
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}
