// Live child process groups of this run. Each tool child is spawned detached (its own group), so
// killing the group reaches grandchildren too; the registry lets the runner's last-resort exit
// path (second Ctrl-C) kill them all synchronously, so no child outlives the run.

const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function track(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    // Whatever path ends the process (process.exit, an uncaught error), the groups go with it.
    process.once('exit', () => killAllProcessGroups('SIGKILL'));
    exitHookInstalled = true;
  }
}

export function untrack(pid: number): void {
  liveGroups.delete(pid);
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
  if (signal === 'SIGKILL') liveGroups.clear();
  return signalled;
}
