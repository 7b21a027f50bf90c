// An error nothing caught while a run goes on (a dependency's callback that throws, a promise
// rejected with no handler): Node ended the process with a stack trace, exit 1, leaving a
// transcript with no run_end, no report, stream-json with no result, and the command the model
// was running still running. It ends the run as a forced exit does: the command's process group is
// killed, run_end and the report say `error`, exit 1, with the error. The built CLI, with a
// preload that throws (or rejects) once the transcript records the shell call: a fault injected
// where no real one can be scheduled.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { processesWith } from '../helpers/processes.js';

afterAll(removeTempDirs);

describe('an error nothing caught during a run', () => {
  it.each([
    ['a throw from a callback', "throw new Error('boom from a dependency')"],
    ['a rejection nobody handles', "Promise.reject(new Error('boom from a dependency'))"],
  ])('%s: exit 1, run_end and the report say error, the running command is killed', async (_, fault) => {
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const out = path.join(dir, 'run');
    const marker = `uncaught-${path.basename(dir)}`;
    fs.writeFileSync(
      path.join(dir, 'turns.yaml'),
      ['turns:', '  - calls:', '      - name: shell', `        args: { command: "sleep 30 # ${marker}" }`, '  - text: done', ''].join('\n'),
    );
    const preload = path.join(dir, 'fault.cjs');
    fs.writeFileSync(
      preload,
      `const fs = require('fs');
const timer = setInterval(() => {
  let text = '';
  try { text = fs.readFileSync(${JSON.stringify(path.join(out, 'transcript.jsonl'))}, 'utf8'); } catch {}
  if (!text.includes('"type":"tool_call"')) return;
  clearInterval(timer);
  setTimeout(() => { ${fault}; }, 300);
}, 20);
timer.unref();\n`,
    );
    const args = ['--require', preload, CLI, 'run', '-p', 'go', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--approval', 'auto-approve', '--workspace', ws, '--out', out, '--output-format', 'stream-json'];
    const r = await execa(process.execPath, args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
    expect(r.exitCode, String(r.stderr)).toBe(1);
    expect(String(r.stderr)).toContain('unattended: unexpected error: boom from a dependency');
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'error', exit_code: 1, error: 'unexpected error: boom from a dependency' });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'error', exit_code: 1 });
    // The command that ran is answered, and counted.
    expect(events.filter((e) => e.type === 'tool_result')).toEqual([expect.objectContaining({ name: 'shell', error_type: 'aborted' })]);
    const last = JSON.parse(String(r.stdout).trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'result', status: 'error', exit_code: 1, is_error: true });
    expect(processesWith(marker)).toEqual([]);
  });
});
