// Live child process groups of this run. Each tool child is spawned detached (its own group), so
// killing the group reaches grandchildren too; the registry lets the runner's last-resort exit
// path (second Ctrl-C) kill them all synchronously, so no child outlives the run.
import { processesWithEnvironment } from '../util/proc.js';

const liveGroups = new Set<number>();
/** Environment entries that mark a server's processes, those that left its group included. */
const liveMarkers = new Set<string>();
let exitHookInstalled = false;

export function track(pid: number, marker?: string): void {
  liveGroups.add(pid);
  if (marker) liveMarkers.add(marker);
  if (!exitHookInstalled) {
    // Whatever path ends the process (process.exit, an uncaught error), the groups go with it.
    process.once('exit', () => killAllProcessGroups('SIGKILL'));
    exitHookInstalled = true;
  }
}

export function untrack(pid: number, marker?: string): void {
  liveGroups.delete(pid);
  if (marker) liveMarkers.delete(marker);
}

/**
 * SIGKILLs every process whose environment holds `marker` (util/proc.ts): a server's process that
 * left its group (setsid, a daemon's double fork) is out of reach of a signal to the group.
 */
export function killMarkedProcesses(marker: string): void {
  for (const pid of processesWithEnvironment(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

export function trackedProcessGroups(): number[] {
  return [...liveGroups];
}

/** Signals every process in the group led by `pid`. False when the group is already gone. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals = 'SIGTERM'): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Synchronous: safe to call from a signal handler right before process.exit. */
export function killAllProcessGroups(signal: NodeJS.Signals = 'SIGKILL'): number {
  let signalled = 0;
  for (const pid of liveGroups) if (killProcessGroup(pid, signal)) signalled++;
  if (signal === 'SIGKILL') {
    for (const marker of liveMarkers) killMarkedProcesses(marker);
    liveGroups.clear();
    liveMarkers.clear();
  }
  return signalled;
}
