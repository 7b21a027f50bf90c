// A batch killed with SIGKILL cannot stop its children: a run may still be writing into a target's
// directory when `--resume` wants to start that target afresh. Each run leaves its pid in
// runner.pid while it lives; before reusing the directory, a live run of ours is stopped.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const WAIT_MS = 6_000;
const POLL_MS = 50;

export async function stopLeftoverRunner(outDir: string): Promise<void> {
  const pid = Number.parseInt(readOr(path.join(outDir, 'runner.pid'), ''), 10);
  if (!Number.isInteger(pid) || pid <= 1 || !isOurRun(pid, outDir)) return;
  signal(pid, 'SIGTERM');
  for (let waited = 0; waited < WAIT_MS && alive(pid); waited += POLL_MS) await sleep(POLL_MS);
  if (alive(pid)) signal(pid, 'SIGKILL');
}

/**
 * Only a process whose command line names this output directory: a pid recycled by an unrelated
 * process is never signalled. Without /proc (macOS) nothing can be proved, so nothing is killed.
 */
function isOurRun(pid: number, outDir: string): boolean {
  const cmdline = readOr(`/proc/${pid}/cmdline`, '');
  return cmdline.split('\0').includes(outDir);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readOr(`/proc/${pid}/stat`, '').includes(') Z ');
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
