// Making sure a server process is gone: checked by pid, escalated from SIGTERM to SIGKILL.
const POLL_MS = 20;
const TERM_WAIT_MS = 1000;
const KILL_WAIT_MS = 1000;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the pid was reused by someone else's process; ours is gone either way.
    return false;
  }
}

/** Waits `graceMs` for the process to exit by itself, then SIGTERM, then SIGKILL. True when gone. */
export async function stopProcess(pid: number, graceMs: number): Promise<boolean> {
  if (await waitForExit(pid, graceMs)) return true;
  signal(pid, 'SIGTERM');
  if (await waitForExit(pid, TERM_WAIT_MS)) return true;
  signal(pid, 'SIGKILL');
  return waitForExit(pid, KILL_WAIT_MS);
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone between the check and the signal.
  }
}
