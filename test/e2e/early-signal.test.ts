// A SIGTERM while the command's code is still loading (a few hundred ms, more on a busy machine)
// still leaves a transcript and a report: the launcher holds signals before it loads the code, and
// the run takes over the one it kept. Here the load is held up on purpose (a preload that stalls
// the launcher's require of its code for a second, writing a marker first), and the signal lands
// inside it.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/**
 * A run of a one-turn recipe whose launcher stalls for a second while it loads the code (a preload
 * busy-waits in the loader), started and waited on until it is in that stall.
 */
async function runStalledWhileLoading() {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify({ turns: [{ text: 'done' }] }));
  fs.writeFileSync(path.join(dir, 'recipe.yaml'), 'version: 1\nname: early\nprompt: hi\nprovider: scripted\nscript: turns.json\ntools: [ls]\nconfirmation: { mode: auto-approve }\n');
  const marker = path.join(dir, 'loading');
  const preload = path.join(dir, 'stall.cjs');
  fs.writeFileSync(
    preload,
    `const Module = require('module'); const load = Module._load;
Module._load = function (request) {
  if (/code-cache\\.cjs$/.test(request)) { require('fs').writeFileSync(${JSON.stringify(marker)}, ''); const end = Date.now() + 1000; while (Date.now() < end); }
  return load.apply(this, arguments);
};\n`,
  );
  const out = path.join(dir, 'run');
  const child = execa(process.execPath, ['--require', preload, CLI, 'run', path.join(dir, 'recipe.yaml'), '--workspace', ws, '--out', out], {
    cwd: ROOT,
    env: baseEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    // execa SIGKILLs a child still alive 5 s after child.kill(): on a loaded machine the run's own
    // exit (report written, 143) came later, and the test saw a death by SIGKILL.
    forceKillAfterDelay: false,
  });
  const deadline = Date.now() + 15_000;
  while (!fs.existsSync(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return { child, out };
}

describe('a signal while the code loads', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s: exit %i with a report saying cancelled, nothing asked of the model', async (signal, exitCode) => {
    const { child, out } = await runStalledWhileLoading();
    child.kill(signal);
    const result = await child;
    expect(result.exitCode).toBe(exitCode);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'cancelled', exit_code: exitCode });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled' });
    expect(events.some((e) => e.type === 'model_request')).toBe(false);
  });

  // Both wait in the queue until the code has loaded, and reach the run's own handlers (the load is
  // synchronous: the launcher's never run): the second forces the exit, after the report.
  it('SIGTERM, then SIGINT, both while the code loads: exit 143 with the report, as for two signals later in the run', async () => {
    const { child, out } = await runStalledWhileLoading();
    child.kill('SIGTERM');
    // Apart, so the kernel delivers them in order (two pending at once come lowest number first).
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(143);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'cancelled', exit_code: 143 });
    expect(events[0]).toMatchObject({ type: 'run_start' });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled', exit_code: 143 });
  });
});
