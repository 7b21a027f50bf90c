// Issue 10 §6: a closed stdout or stderr (EPIPE: `unattended run ... | head -1`, a log collector
// that went away) stops printing, never the run. The built CLI is spawned with its reader gone;
// the run must still do every step, write a whole transcript and report, exit with the code it
// would have had, and print no stack trace.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/** A script whose turns print plenty (so a closed reader is hit), then leave a marker file. */
function scriptedRun(extra: string[] = []): { args: string[]; out: string; ws: string } {
  const root = tempDir('unattended-epipe-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const script = path.join(root, 'turns.json');
  const turns = [
    { text: 'Looking around first.', calls: [{ name: 'shell', args: { command: 'seq 1 5000', description: 'print a lot' } }] },
    { calls: [{ name: 'shell', args: { command: 'seq 1 5000; touch marker', description: 'the work' } }] },
    { text: `All done.\n${'a long final answer line\n'.repeat(2000)}` },
  ];
  fs.writeFileSync(script, JSON.stringify({ turns }));
  const out = path.join(root, 'run');
  const args = [CLI, 'run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--workspace', ws, '--out', out, ...extra];
  return { args, out, ws };
}

function expectCompleteRun(run: { out: string; ws: string }, exitCode: number): void {
  expect(fs.existsSync(path.join(run.ws, 'marker'))).toBe(exitCode === 0);
  const { report, events } = readRun(run.out);
  expect(report.exit_code).toBe(exitCode);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', exit_code: exitCode });
}

describe('a closed stdout or stderr (built CLI)', () => {
  it('`--output-format stream-json | head -1`: one line printed, the run completes, exit status as if stdout were fine', async () => {
    const run = scriptedRun(['--output-format', 'stream-json']);
    const quoted = run.args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const r = await execa('bash', ['-c', `'${process.execPath}' ${quoted} 2>stderr.txt | head -1; echo "exit=\${PIPESTATUS[0]}"`], {
      cwd: path.dirname(run.out),
      env: baseEnv(),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    const [first, status] = String(r.stdout).split('\n');
    expect(JSON.parse(first!)).toMatchObject({ type: 'system', subtype: 'init' });
    expect(status).toBe('exit=0');
    const stderr = fs.readFileSync(path.join(path.dirname(run.out), 'stderr.txt'), 'utf8');
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expectCompleteRun(run, 0);
  });

  it.each(['stream-json', 'json', 'text'])('--output-format %s with stdout closed before the first line: exit 0, files complete', async (format) => {
    const run = scriptedRun(['--output-format', format]);
    const child = execa(process.execPath, run.args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    child.stdout!.destroy();
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).not.toMatch(/EPIPE|\n\s+at /);
    expectCompleteRun(run, 0);
  });

  it('a failing run keeps its own exit code when stdout is closed (turn limit: 53)', async () => {
    const run = scriptedRun(['--output-format', 'json', '--max-turns', '1']);
    const child = execa(process.execPath, run.args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    child.stdout!.destroy();
    const r = await child;
    expect(r.exitCode).toBe(53);
    expectCompleteRun(run, 53);
  });

  it('stderr closed too (text progress goes there): the run completes, exit 0', async () => {
    const run = scriptedRun(['--output-format', 'text']);
    const child = execa(process.execPath, run.args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    child.stdout!.destroy();
    child.stderr!.destroy();
    const r = await child;
    expect(r.exitCode).toBe(0);
    expectCompleteRun(run, 0);
  });

  it('stops writing to a stderr whose reader is gone (each failed write costs an error with a stack trace)', async () => {
    const run = scriptedRun(['--output-format', 'text']);
    // A preload counts the CLI's writes to stderr, and how many it had made when the first one failed.
    const root = path.dirname(run.out);
    const counts = path.join(root, 'counts.json');
    const preload = path.join(root, 'count-writes.cjs');
    fs.writeFileSync(
      preload,
      `const fs = require('node:fs');
let calls = 0, failedAt = null;
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (...args) => (calls++, write(...args));
process.stderr.on('error', () => (failedAt ??= calls));
process.on('exit', () => fs.writeFileSync(${JSON.stringify(counts)}, JSON.stringify({ calls, failedAt })));
`,
    );
    const quoted = run.args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // The reader reads one line and goes; the run prints a line per event after that.
    const r = await execa('bash', ['-c', `'${process.execPath}' --require '${preload}' ${quoted} 2>&1 >/dev/null | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}"`], {
      cwd: root,
      env: baseEnv(),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(String(r.stdout)).toBe('exit=0');
    expectCompleteRun(run, 0);
    const { calls, failedAt } = JSON.parse(fs.readFileSync(counts, 'utf8')) as { calls: number; failedAt: number | null };
    expect(failedAt).not.toBeNull();
    expect(calls - failedAt!).toBeLessThanOrEqual(1);
  });
});

// Not a reader gone but output lost: stdout redirected to a file on a full disk (/dev/full stands
// for one). What a later step would parse (`--output-format json > report.json`) is not there, yet
// the CLI exited 0 as if it were.
describe('stdout redirected to a full disk (built CLI)', () => {
  const toDevFull = async (args: string[], cwd: string) => {
    const quoted = [process.execPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const r = await execa('bash', ['-c', `${quoted} > /dev/full`], { cwd, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    return { code: r.exitCode, stderr: String(r.stderr) };
  };

  it.each(['json', 'text'])('--output-format %s > a full disk: exit 54, saying so; the run\'s own files keep its status', async (format) => {
    const run = scriptedRun(['--output-format', format]);
    const r = await toDevFull(run.args, path.dirname(run.out));
    expect(r.code).toBe(54);
    expect(r.stderr).toContain('unattended: exit 54: the command ended with exit 0, but what it printed on stdout could not be written (ENOSPC');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expectCompleteRun(run, 0);
  });

  // Answered by the launcher itself (scripts/bin/unattended.cjs, help.cjs), before the command's
  // code: `unattended completion >> ~/.bashrc` on a full disk appended part of the script and said 0;
  // --version died in a stack trace, exit 1.
  it.each(['--version', 'completion', '--help', 'batch --help'])('`unattended %s > a full disk`: exit 54, saying so, no stack trace', async (args) => {
    const r = await toDevFull([CLI, ...args.split(' ')], ROOT);
    expect(r.stderr).toContain('unattended: exit 54: the command ended with exit 0, but what it printed on stdout could not be written (ENOSPC');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(54);
  });

  it('`unattended report RUN_DIR > a full disk`: exit 54, not 0 with nothing written', async () => {
    const run = scriptedRun(['--output-format', 'json']);
    await execa(process.execPath, run.args, { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    const r = await toDevFull([CLI, 'report', run.out, '--format', 'json'], ROOT);
    expect(r.code).toBe(54);
    expect(r.stderr).toContain('ENOSPC');
  });
});
