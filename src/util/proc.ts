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

/** What a marker file holds for this process: its pid and start time (read by markedProcessLives). */
export function processMarker(): string {
  return `${process.pid} ${processStartTime(process.pid) ?? ''}\n`;
}

/**
 * The pid a marker (`processMarker`) names when that very process still lives, else null: its pid
 * with its start time names one process, so a pid reused since is not taken for it. Without /proc
 * (macOS) the pid alone has to do: then `self` says what a marker naming this process means
 * (a batch lock is never its own; a program may hold runs of its own), and a process another user
 * owns (EPERM) counts as living.
 */
export function markedProcessLives(text: string, self: 'alive' | 'gone'): number | null {
  const [pidText = '', started = ''] = text.trim().split(' ');
  const pid = /^\d+$/.test(pidText) ? Number(pidText) : NaN;
  if (!Number.isSafeInteger(pid) || pid <= 1) return null;
  if (pid === process.pid && self === 'gone') return null;
  const now = processStartTime(pid);
  if (now !== null) return started === '' || now === started ? pid : null;
  // With /proc, a pid it does not show is gone; without, this process's own pid in a marker is one
  // a killed process left, since reused.
  if (processStartTime(process.pid) !== null || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/** markedProcessLives of the marker file `file`; null when there is none (or it cannot be read). */
export function markedProcessIn(file: string, self: 'alive' | 'gone'): number | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return markedProcessLives(text, self);
}
