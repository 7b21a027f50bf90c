// Which sandbox works is found by running bwrap once (sandbox/detect.ts). These run the probe the
// start-up starts (detectSandboxSoon) against stand-in bwrap programs on PATH, each answering as
// a real bwrap does on such a machine: one that works, one AppArmor refuses (Ubuntu 24.04), and one
// too old for --disable-userns. A working bwrap is all most machines see; the other two must still
// say why, and what to do, or fall back to the flags the old one knows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HARDENING, HARDENING_FALLBACK } from '../../src/sandbox/bwrap.js';
import { detectSandboxSoon, forgetDetection } from '../../src/sandbox/detect.js';

const dirs: string[] = [];
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  forgetDetection();
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** PATH with only a `bwrap` that runs `script` (sh), then the system's directories for sh itself. */
function bwrapOnPath(script: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-fake-bwrap-'));
  dirs.push(dir);
  const program = path.join(dir, 'bwrap');
  fs.writeFileSync(program, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  process.env.PATH = `${dir}:/usr/bin:/bin`;
  return program;
}

describe('the sandbox probe at start-up', () => {
  it('takes a bwrap that runs the probe, with the full hardening', async () => {
    const program = bwrapOnPath('exit 0');
    expect(await detectSandboxSoon()).toEqual({ kind: 'bwrap', program, hardening: HARDENING });
  });

  it('says why a bwrap that cannot make a sandbox is not used, in its own words, and what to do', async () => {
    bwrapOnPath('echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');
    const found = await detectSandboxSoon();
    expect(found.kind).toBeNull();
    expect(found).toMatchObject({ reason: expect.stringMatching(/^bwrap cannot create a sandbox here \(bwrap: setting up uid map: Permission denied\): .*apparmor_restrict_unprivileged_userns=0/) });
  });

  it('falls back to the flags an older bwrap knows when it refuses --disable-userns', async () => {
    const program = bwrapOnPath('for a in "$@"; do [ "$a" = --disable-userns ] && { echo "bwrap: Unknown option --disable-userns" >&2; exit 1; }; done; exit 0');
    expect(await detectSandboxSoon()).toEqual({ kind: 'bwrap', program, hardening: HARDENING_FALLBACK });
  });
});
