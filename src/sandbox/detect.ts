// Which OS sandbox works on this machine, found once per process with one cheap probe (a
// sandboxed `true`, about 10 ms) and cached: bwrap may be installed and still refused, e.g. where
// AppArmor restricts unprivileged user namespaces (Ubuntu 24.04: "setting up uid map: Permission
// denied"), and that must be known before the first tool runs, not discovered by it.
//
// A run starts the probe as soon as it knows it is a run (cli/main.ts), so bwrap answers on the
// other core while the run's code loads, instead of holding the start-up for its 10-20 ms.
//
// bwrap is never one a repository can plant. It is looked up on PATH without relative entries,
// without directories inside the working directory, the workspace or the repository around either,
// and without any node_modules directory: `npx` run in a subdirectory puts the project's
// node_modules/.bin first on PATH, where a repository's own `bwrap` would run at the probe and then
// wrap every command it is given, uncontained. The early probe does not know the workspace yet; the
// workspace's lookup probes again only if it finds another program.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { hostProgram, plantFreePath } from '../util/host-program.js';
import { HARDENING, HARDENING_FALLBACK, probeArgs } from './bwrap.js';

export type SandboxKind = 'bwrap' | 'seatbelt';

export type Detection =
  | { kind: SandboxKind; program: string; /** bwrap: the privilege-dropping flags this version accepts. */ hardening?: readonly string[] }
  | { kind: null; reason: string };

const SEATBELT = '/usr/bin/sandbox-exec';
/** What the probe of each program found, or the probe under way: one probe per program. */
const cached = new Map<string, Detection>();
const pending = new Map<string, Promise<Detection>>();

/** What the probe found for `workspace` (default: none known yet); probes now (blocking) unless one already finished. */
export function detectSandbox(workspace?: string): Detection {
  const found = findProgram(process.platform, searchPath(workspace));
  if (found.kind !== 'bwrap') return found;
  let detection = cached.get(found.program);
  if (!detection) cached.set(found.program, (detection = probeSync(found.program)));
  return detection;
}

/** The same answer without blocking: starts the probe (once per program) or joins the one under way. */
export function detectSandboxSoon(workspace?: string): Promise<Detection> {
  const found = findProgram(process.platform, searchPath(workspace));
  if (found.kind !== 'bwrap') return Promise.resolve(found);
  const program = found.program;
  const done = cached.get(program);
  if (done) return Promise.resolve(done);
  let probe = pending.get(program);
  if (!probe) {
    probe = probeAsync(program).then((result) => {
      if (!cached.has(program)) cached.set(program, result);
      return cached.get(program)!;
    });
    pending.set(program, probe);
  }
  return probe;
}

/** For tests: forget what the probe found. */
export function forgetDetection(): void {
  cached.clear();
  pending.clear();
}

/** PATH where a sandbox program may be found: see the top of this file. */
function searchPath(workspace: string | undefined): string {
  return plantFreePath(process.env.PATH, [workspace]);
}

interface ProbeRun {
  status: number | null;
  stderr: string;
  error?: Error;
}

const PROBE_TIMEOUT_MS = 5_000;

function probeSync(program: string): Detection {
  const run = (hardening: readonly string[]): ProbeRun => {
    const r = spawnSync(program, probeArgs(hardening), { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr ?? '', ...(r.error ? { error: r.error } : {}) };
  };
  const first = run(HARDENING);
  return verdict(program, first, needsFallback(first) ? run(HARDENING_FALLBACK) : null);
}

async function probeAsync(program: string): Promise<Detection> {
  // Where bwrap works, its exit status is all the probe needs: no pipe for its stderr, whose handle
  // and stream cost ~1.4 ms of the start-up's own thread. Otherwise it is asked again with stderr
  // kept, to say why, or to try the older flags.
  if ((await exitStatus(program, probeArgs(HARDENING))) === 0) return { kind: 'bwrap', program, hardening: HARDENING };
  const first = await runAsync(program, probeArgs(HARDENING));
  return verdict(program, first, needsFallback(first) ? await runAsync(program, probeArgs(HARDENING_FALLBACK)) : null);
}

/** The sandbox program to probe (bwrap), or the answer without a probe (macOS, other systems, bwrap missing). */
function findProgram(platform: NodeJS.Platform, pathVariable: string): Detection | { kind: 'bwrap'; program: string } {
  if (platform === 'darwin') {
    return fs.existsSync(SEATBELT) ? { kind: 'seatbelt', program: SEATBELT } : { kind: null, reason: `${SEATBELT} is missing` };
  }
  if (platform !== 'linux') return { kind: null, reason: `no sandbox is supported on ${platform} (Linux: bubblewrap; macOS: sandbox-exec)` };
  // `pathVariable` holds no directory a repository could plant a program in (searchPath).
  const program = hostProgram('bwrap', pathVariable, process.cwd());
  if (!program) return { kind: null, reason: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or dnf install bubblewrap)' };
  return { kind: 'bwrap', program };
}

/** An older bwrap refuses a hardening flag it does not know: probe again with the fallback set. */
function needsFallback(run: ProbeRun): boolean {
  return run.status !== 0 && /unknown option/i.test(run.stderr);
}

function verdict(program: string, first: ProbeRun, fallback: ProbeRun | null): Detection {
  if (first.status === 0) return { kind: 'bwrap', program, hardening: HARDENING };
  if (fallback?.status === 0) return { kind: 'bwrap', program, hardening: HARDENING_FALLBACK };
  const last = fallback ?? first;
  return { kind: null, reason: explainProbeFailure(last.error?.message ?? last.stderr, last.status) };
}

function exitStatus(program: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: 'ignore', timeout: PROBE_TIMEOUT_MS });
    child.on('error', () => resolve(null));
    // Not unref'd, as below.
    child.on('close', (status) => resolve(status));
  });
}

function runAsync(program: string, args: string[]): Promise<ProbeRun> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => resolve({ status: null, stderr, error }));
    // Not unref'd: while a run awaits the answer, this child may be all that keeps node's event
    // loop alive (an unref'd one let node exit mid-run with "unsettled top-level await", exit 13).
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

export function explainProbeFailure(stderr: string, status: number | null): string {
  const said = stderr.trim().split('\n').pop()?.trim() || `exit status ${status ?? 'unknown'}`;
  if (/uid map|user namespace|Operation not permitted|Permission denied/i.test(said)) {
    return (
      `bwrap cannot create a sandbox here (${said}): unprivileged user namespaces are restricted; ` +
      'on Ubuntu 24.04 run `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` or install an AppArmor profile for bwrap'
    );
  }
  return `bwrap cannot create a sandbox here (${said})`;
}

