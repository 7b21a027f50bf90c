// An error nothing caught before the run has a directory (here: while the run waits for piped
// stdin, thrown by a module preloaded with -r, as a dependency's callback would): there is no
// record to end, but --output-format json|stream-json still answer on stdout, the error in the
// report's shape, exit 1, as a run refused at that point does; text prints nothing on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function faultingRun(dir: string, format: string) {
  const preload = path.join(dir, 'throw-soon.cjs');
  // Thrown once the run's fault handler is in place (main.ts), whatever the machine's load.
  fs.writeFileSync(preload, "const t = setInterval(() => { if (process.listenerCount('uncaughtException') > 0) { clearInterval(t); throw new Error('boom while starting'); } }, 10);\n");
  fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: done\n');
  // stdin is a pipe nobody writes to: the run waits for it, before it has a directory.
  return execa(process.execPath, ['-r', preload, CLI, '-p', 'hi', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--output-format', format], {
    cwd: dir,
    env: baseEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    timeout: 20_000,
  });
}

it.each(['json', 'stream-json', 'text'])('--output-format %s: an error nothing caught before the run directory still answers in that format, exit 1', async (format) => {
  const dir = tempDir();
  const r = await faultingRun(dir, format);
  expect(r.exitCode, r.stderr).toBe(1);
  expect(r.stderr).toContain('unexpected error: boom while starting');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  if (format === 'json') {
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', exit_code: 1, error: 'unexpected error: boom while starting', final_answer: null });
  } else if (format === 'stream-json') {
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(lines.at(-1)).toMatchObject({ type: 'result', is_error: true, exit_code: 1, errors: ['unexpected error: boom while starting'] });
  } else {
    expect(r.stdout).toBe('');
  }
  expect(fs.existsSync(path.join(dir, '.unattended'))).toBe(false);
});
