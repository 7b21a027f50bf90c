// `--continue` of a run that is still going: a second agent would work in the same workspace beside
// it and take its changes for its own. Refused (exit 42) while the run's process lives, whether the
// run is named or is the latest one started here; once it was killed (SIGKILL leaves its marker),
// or its marker names a pid now used by another process, continuing it is allowed, as documented.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(() => removeTempDirs());

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 600 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
};

describe('run --continue of a run still going', () => {
  it('is refused, exit 42, naming the run and its pid; once that run was killed, it goes on', async () => {
    const ws = tempDir('unattended-live-run-');
    const state = tempDir('unattended-live-state-');
    const first = path.join(ws, 'first');
    const gemini = await startFakeGemini([{ hang: true }, { text: 'Went on.' }]);
    const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url, XDG_STATE_HOME: state };
    const live = execa(process.execPath, [CLI, '-p', 'Look around', '--out', first], { cwd: ws, env: baseEnv(env), extendEnv: false, reject: false, stdin: 'ignore' });
    try {
      await until(() => gemini.requests.length === 1, "the first run's model request");
      for (const args of [['-c', 'Go on'], ['--continue', first, '-p', 'Go on']]) {
        const r = await cli([...args, '--out', path.join(ws, `refused-${args[0]}`)], { cwd: ws, env });
        expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(`--continue ${first}: that run is still going (pid ${live.pid})`)]);
        expect(r.stderr).toContain(`kill ${live.pid}`);
      }
      // Nothing was asked of the model for them.
      expect(gemini.requests).toHaveLength(1);
      // Its report so far says it is no failure yet.
      const report = await cli(['report', first, '--format', 'json'], { cwd: ws, env });
      expect([report.code, JSON.parse(report.stdout).status]).toEqual([0, 'error']);
      // The report itself says so, for a script that reads it (it never sees stderr): no crash.
      expect(JSON.parse(report.stdout).error).toBe(`the run is still going (pid ${live.pid}): this report shows what it recorded so far, with status error until it ends`);
      expect((await cli(['report', first], { cwd: ws, env })).stdout).toContain(`the run is still going (pid ${live.pid})`);
      expect(report.stderr).toContain(`unattended: the run is still going (pid ${live.pid}): this report shows what it recorded so far`);
      live.kill('SIGKILL');
      await live;
      // Its marker stays (nothing ran to remove it), but its process is gone: a killed run is continued.
      expect(fs.existsSync(path.join(first, 'run.pid'))).toBe(true);
      const killed = await cli(['report', first, '--format', 'json'], { cwd: ws, env });
      expect(killed.stderr).not.toContain('still going');
      expect(JSON.parse(killed.stdout).error).toMatch(/^the transcript ends before the run did/);
      const next = path.join(ws, 'next');
      const r = await cli(['-c', 'Go on', '--out', next], { cwd: ws, env });
      expect([r.code, r.stdout.trim()]).toEqual([0, 'Went on.']);
      // A run that ended leaves no marker.
      expect(fs.existsSync(path.join(next, 'run.pid'))).toBe(false);
    } finally {
      live.kill('SIGKILL');
      await gemini.close();
    }
  });

  it('a marker whose pid now names another process (another start time) does not hold the run', async () => {
    const ws = tempDir('unattended-live-reused-');
    const first = path.join(ws, 'first');
    const gemini = await startFakeGemini([{ text: 'Done.' }, { text: 'Went on.' }]);
    const sleeper = execa('sleep', ['60'], { reject: false });
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
      expect((await cli(['-p', 'Look around', '--out', first], { cwd: ws, env })).code).toBe(0);
      const stat = fs.readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8');
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      // A live process with the start time the marker records: held.
      fs.writeFileSync(path.join(first, 'run.pid'), `${sleeper.pid} ${started}\n`);
      const held = await cli(['--continue', first, '-p', 'Go on', '--out', path.join(ws, 'held')], { cwd: ws, env });
      expect([held.code, held.stderr]).toEqual([42, expect.stringContaining(`still going (pid ${sleeper.pid})`)]);
      // The same pid, started at another time: the run's own process is gone, its pid reused.
      fs.writeFileSync(path.join(first, 'run.pid'), `${sleeper.pid} ${Number(started) - 1}\n`);
      const r = await cli(['--continue', first, '-p', 'Go on', '--out', path.join(ws, 'next')], { cwd: ws, env });
      expect([r.code, r.stdout.trim()]).toEqual([0, 'Went on.']);
    } finally {
      sleeper.kill('SIGKILL');
      await sleeper;
      await gemini.close();
    }
  });
});
