// Who still holds a child's output pipes after the child exited: a process it started that left its
// process group (`setsid cmd &`) inherits the pipes, and until it exits the reader never sees their
// end. Linux's /proc names every open file of a process (`socket:[INODE]`: Node's child pipes are
// socket pairs, whose two ends have different inodes). So the child's own ends are noted as it
// starts, and the holders are the processes that have one of them open.
//
// A child that exits at once (`setsid cmd & exit 0`) may be gone before its ends are read: a
// finished process shows no open files, so none were noted and the holder ran on after the run.
// Each supervised child is therefore also started with a marker in its environment (callMarker),
// which whatever it starts inherits however it detaches: the holders are then the processes with
// the marker whose stdout or stderr is still a pipe (not a log file it was sent to).
import fs from 'node:fs';
import { procFile, processIds, processesWithEnvironment } from '../util/proc.js';

export interface PipeHolder {
  pid: number;
  /** Its command line, spaces between the words, for the model to recognise. */
  command: string;
}

/**
 * The child's ends of its stdout and stderr, to be read right after the spawn (before the child can
 * redirect them); empty when /proc cannot say (macOS) or the child is gone already.
 */
export function outputEndsOf(pid: number): ReadonlySet<string> {
  const ends = new Set<string>();
  for (const fd of [1, 2]) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:') || target.startsWith('pipe:')) ends.add(target);
    } catch {
      // no /proc, or exited already
    }
  }
  return ends;
}

/** The processes (other than the runner) holding any of these ends open. */
export function pipeHolders(inodes: ReadonlySet<string>): PipeHolder[] {
  if (inodes.size === 0) return [];
  const holders: PipeHolder[] = [];
  for (const pid of processIds() ?? []) {
    if (pid === process.pid || !holdsAny(pid, inodes)) continue;
    const command = (procFile(pid, 'cmdline') ?? '').split('\0').filter(Boolean).join(' ');
    holders.push({ pid, command });
  }
  return holders;
}

/** The variable that marks a supervised child and what it starts (see above). */
export const CALL_MARKER_VARIABLE = 'UNATTENDED_CALL';

export interface CallMarker {
  /** The child's environment with the marker added. */
  env: Record<string, string>;
  /** `NAME=value`, as /proc/PID/environ holds it. */
  entry: string;
}

let calls = 0;

/**
 * A fresh marker for one child, added to the environment it is to be started with. Unique, not
 * secret (a process that copies it only gets itself killed with the call's): this process, the
 * call's number in it, and the time, so no crypto module at start-up.
 */
export function callMarker(env: Readonly<Record<string, string>>): CallMarker {
  const value = `${process.pid}.${++calls}.${Date.now().toString(36)}`;
  return { env: { ...env, [CALL_MARKER_VARIABLE]: value }, entry: `${CALL_MARKER_VARIABLE}=${value}` };
}

/**
 * The processes (other than the runner) started with this marker (`NAME=value`) whose stdout or
 * stderr is still a pipe or socket: what holds a child's output when its ends could not be read.
 */
export function markedOutputHolders(marker: string): PipeHolder[] {
  const holders: PipeHolder[] = [];
  for (const pid of processesWithEnvironment(marker)) {
    if (!outputIsPipe(pid)) continue;
    const command = (procFile(pid, 'cmdline') ?? '').split('\0').filter(Boolean).join(' ');
    holders.push({ pid, command });
  }
  return holders;
}

function outputIsPipe(pid: number): boolean {
  for (const fd of [1, 2]) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:') || target.startsWith('pipe:')) return true;
    } catch {
      // closed, or gone
    }
  }
  return false;
}

/**
 * SIGKILLs each holder and, when it leads a process group of its own (what setsid made), that group:
 * a daemon's children go with it. Never the runner's own group.
 */
export function killPipeHolders(holders: readonly PipeHolder[]): void {
  const ownGroup = processGroupOf(process.pid);
  for (const { pid } of holders) {
    const group = processGroupOf(pid);
    try {
      if (group === pid && group !== ownGroup) process.kill(-group, 'SIGKILL');
      else process.kill(pid, 'SIGKILL');
    } catch {
      // gone already, or not ours to signal
    }
  }
}

function holdsAny(pid: number, inodes: ReadonlySet<string>): boolean {
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (inodes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/** Field 5 of /proc/PID/stat; the command name before it is in parentheses and may hold spaces. */
function processGroupOf(pid: number): number | null {
  const stat = procFile(pid, 'stat');
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const group = Number(fields[2]);
  return Number.isInteger(group) ? group : null;
}
