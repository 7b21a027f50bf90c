// A batch killed with SIGKILL cannot stop its children: a run may still be writing into a target's
// directory when `--resume` wants to start that target afresh, and so may a `git clone` of the
// target's checkout. Each run leaves its pid in runner.pid while it lives; before reusing the
// directory, a live run of ours is stopped. A leftover clone is found by what it works on. A
// batch with a live run is not moved aside by a new one (earlier-batch.ts).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { procCwd, procFile, processIds } from '../util/proc.js';

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
 * A run of ours still going on in one of the batch's target directories (its runner.pid names a
 * live process started with that directory as --out), or null. Without /proc none is found.
 */
export function liveRunIn(batchDir: string): { slug: string; pid: number } | null {
  let slugs: string[];
  try {
    slugs = fs.readdirSync(path.join(batchDir, 'targets'));
  } catch {
    return null;
  }
  for (const slug of slugs) {
    const outDir = path.join(batchDir, 'targets', slug);
    const pid = Number.parseInt(readOr(path.join(outDir, 'runner.pid'), ''), 10);
    if (Number.isInteger(pid) && pid > 1 && isOurRun(pid, outDir) && alive(pid)) return { slug, pid };
  }
  return null;
}

/**
 * SIGKILLs every git process working in `dir`: its working directory is inside it, or its command
 * line names it (`git clone URL DIR`, and the `index-pack` it starts on DIR/.git). Left running,
 * such a clone kept writing while the directory was removed for a fresh one (ENOTEMPTY). A clone
 * can simply be made again, so there is no polite signal first. Only git: a person's shell or
 * editor looking at the checkout is never touched. Linux only.
 */
export function stopGitIn(dir: string): void {
  if (process.platform !== 'linux') return;
  const inside = (p: string) => p === dir || p.startsWith(`${dir}/`);
  for (const pid of processIds() ?? []) {
    const argv = (procFile(pid, 'cmdline') ?? '').split('\0');
    if (!/^git(-|$)/.test(path.basename(argv[0] ?? ''))) continue;
    if (inside(procCwd(pid) ?? '') || argv.some(inside)) signal(pid, 'SIGKILL');
  }
}

/**
 * Only a process whose command line names this output directory: a pid recycled by an unrelated
 * process is never signalled. Without /proc (macOS) nothing can be proved, so nothing is killed.
 */
function isOurRun(pid: number, outDir: string): boolean {
  return (procFile(pid, 'cmdline') ?? '').split('\0').includes(outDir);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !(procFile(pid, 'stat') ?? '').includes(') Z ');
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
