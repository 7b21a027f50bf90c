// A child that exits at once after detaching a process that keeps its output (`setsid cmd & exit
// 0`) can be gone before the supervisor reads which pipes are its own: a finished process shows no
// open files. The holder then ran on after the call and the run ("that process may still be
// running"; a third of such calls without the sandbox on this machine). The child's marker in the
// environment, which the holder inherits, finds it instead. Here the supervisor starts watching
// only once bash has exited, as happens when the runner is not scheduled in time (bash waits a
// moment first, so that the background process has left its group before the group is killed).
import fs from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { superviseGroup } from '../../src/tools/group-supervisor.js';
import { callMarker } from '../../src/tools/pipe-holders.js';

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Blocks this thread (no event loop turn) until bash has exited: its /proc entry has no open files left. */
function blockUntilExited(pid: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 200; i++) {
    if (!alive(pid)) return;
    Atomics.wait(pause, 0, 0, 10);
  }
  throw new Error('bash did not exit');
}

async function runDetaching(command: string) {
  const marker = callMarker({ PATH: process.env.PATH ?? '/usr/bin:/bin' });
  const child = execa('bash', ['--norc', '--noprofile', '-c', command], { env: marker.env, extendEnv: false, stdin: 'ignore', detached: true, buffer: false, reject: false });
  child.stdout?.resume();
  child.stderr?.resume();
  blockUntilExited(child.pid!);
  const supervisor = superviseGroup(child, { timeoutMs: 20_000, signal: new AbortController().signal, marker: marker.entry });
  const started = Date.now();
  await child;
  supervisor.release();
  return { held: supervisor.outputHeldBy, ms: Date.now() - started };
}

describe.skipIf(process.platform !== 'linux')('a process holding the output of a child that exited before it was watched', () => {
  it('is found by the marker and killed, and the call says so', async () => {
    const { held, ms } = await runDetaching('setsid sleep 36.5 & sleep 0.1; exit 0');
    expect(ms).toBeLessThan(5_000);
    expect(held?.holders.map((h) => h.command)).toEqual(['sleep 36.5']);
    const pid = held!.holders[0]!.pid;
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it('leaves alone what the child started that does not hold its output (a server sent to a log)', async () => {
    const dir = fs.mkdtempSync('/tmp/unattended-holder-');
    try {
      const { held } = await runDetaching(`setsid sleep 37.5 >${dir}/log 2>&1 & echo $! > ${dir}/pid; sleep 0.1; exit 0`);
      expect(held).toBeNull();
      const pid = Number(fs.readFileSync(`${dir}/pid`, 'utf8'));
      expect(alive(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
