// Which OS sandbox works on this machine, found once per process with one cheap probe (a
// sandboxed `true`, about 10 ms) and cached: bwrap may be installed and still refused, e.g. where
// AppArmor restricts unprivileged user namespaces (Ubuntu 24.04: "setting up uid map: Permission
// denied"), and that must be known before the first tool runs, not discovered by it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { HARDENING, HARDENING_FALLBACK, probeArgs } from './bwrap.js';

export type SandboxKind = 'bwrap' | 'seatbelt';

export type Detection =
  | { kind: SandboxKind; program: string; /** bwrap: the privilege-dropping flags this version accepts. */ hardening?: readonly string[] }
  | { kind: null; reason: string };

const SEATBELT = '/usr/bin/sandbox-exec';
let cached: Detection | undefined;

export function detectSandbox(): Detection {
  return (cached ??= probe(process.platform, process.env.PATH ?? ''));
}

/** For tests: forget what the probe found. */
export function forgetDetection(): void {
  cached = undefined;
}

function probe(platform: NodeJS.Platform, pathVariable: string): Detection {
  if (platform === 'darwin') {
    return fs.existsSync(SEATBELT) ? { kind: 'seatbelt', program: SEATBELT } : { kind: null, reason: `${SEATBELT} is missing` };
  }
  if (platform !== 'linux') return { kind: null, reason: `no sandbox is supported on ${platform} (Linux: bubblewrap; macOS: sandbox-exec)` };
  const program = findOnPath('bwrap', pathVariable);
  if (!program) return { kind: null, reason: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or dnf install bubblewrap)' };
  let run = spawnSync(program, probeArgs(HARDENING), { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000, encoding: 'utf8' });
  if (run.status === 0) return { kind: 'bwrap', program, hardening: HARDENING };
  if (/unknown option/i.test(run.stderr ?? '')) {
    run = spawnSync(program, probeArgs(HARDENING_FALLBACK), { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000, encoding: 'utf8' });
    if (run.status === 0) return { kind: 'bwrap', program, hardening: HARDENING_FALLBACK };
  }
  return { kind: null, reason: explainProbeFailure(run.error?.message ?? run.stderr ?? '', run.status) };
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

function findOnPath(name: string, pathVariable: string): string | null {
  for (const dir of pathVariable.split(':').filter(Boolean)) {
    const candidate = `${dir}/${name}`;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return null;
}
