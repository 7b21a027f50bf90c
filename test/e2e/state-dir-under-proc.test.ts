// Node's recursive mkdir never returns for a path under /proc: it spins, and a process stuck in it
// never runs its SIGTERM handler. A run whose XDG_STATE_HOME (where it records the latest run for a
// bare --continue) named one hung right after run_start, until a SIGKILL, with no report. Such a
// directory is now none: the run ends as any other, and only the record for --continue is skipped.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

it.skipIf(process.platform !== 'linux')('a state or cache directory under /proc does not hang the run', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Done.\n');
  for (const variable of ['XDG_STATE_HOME', 'XDG_CACHE_HOME']) {
    const out = path.join(dir, `out-${variable}`);
    const r = await execa(process.execPath, [CLI, 'run', '--prompt', 'x', '--provider', 'scripted', '--script', 'turns.yaml', '--approval', 'deny', '--workspace', dir, '--out', out], {
      cwd: dir,
      env: baseEnv({ [variable]: '/proc/unattended-nowhere/state' }),
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: 15_000,
    });
    expect([variable, r.exitCode, r.timedOut], r.stderr).toEqual([variable, 0, false]);
    expect(readRun(out).report).toMatchObject({ status: 'success', final_answer: 'Done.' });
  }
});
