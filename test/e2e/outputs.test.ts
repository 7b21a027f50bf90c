// Where the outputs go wrong: an unwritable --out is a clear input error (never a hang, never a
// stack), and a transcript that stops accepting writes stops the run loudly, with a report. The
// first case runs the built CLI, the others its entry in process (the same code, no process start).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

describe('run outputs', () => {
  it.each([
    ['/proc/unattended-nope', cli],
    ['/etc/passwd/x', cliInProcess],
  ] as const)('--out %s: exit 42, says where and how to fix', async (out, run) => {
    const r = await run(['run', 'recipes/demo.yaml', '--out', out], { timeoutMs: 15_000 });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`cannot write the run outputs to ${out}`);
    expect(r.stderr).toContain('--out DIR');
  });

  it('--out a link whose target is gone: exit 42, naming the missing target, not EEXIST', async () => {
    const out = path.join(tempDir(), 'runs');
    fs.symlinkSync('/nonexistent-unattended-target', out);
    const r = await cliInProcess(['run', 'recipes/demo.yaml', '--out', out], { timeoutMs: 15_000 });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`cannot write the run outputs to ${out} (a symbolic link to /nonexistent-unattended-target, which does not exist)`);
    expect(r.stderr).not.toContain('EEXIST');
  });

  it('an --out that holds a run already is refused (exit 42), and the earlier run is kept as it was', async () => {
    const out = path.join(tempDir(), 'run');
    expect((await cliInProcess(['run', 'recipes/demo.yaml', '--out', out])).code).toBe(0);
    const before = fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8');
    const report = fs.readFileSync(path.join(out, 'report.json'), 'utf8');
    const again = await cliInProcess(['run', 'recipes/demo.yaml', '--out', out]);
    expect(again.code).toBe(42);
    expect(again.stderr).toContain(`--out ${out} already holds a run`);
    expect(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8')).toBe(before);
    expect(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).toBe(report);
  });

  it('--output-format json prints the report of a run refused before it had a directory (as stream-json prints its result), not nothing', async () => {
    const dir = tempDir();
    const held = path.join(dir, 'held');
    fs.mkdirSync(held);
    fs.writeFileSync(path.join(held, 'transcript.jsonl'), '{"type":"run_start"}\n');
    const cases: Array<[string[], string]> = [
      [['-p', 'hi', '--out', held], 'already holds a run'],
      [['Fix it', '-p', 'Fix that'], 'two prompts'],
    ];
    for (const [argv, error] of cases) {
      const r = await cli([...argv, '--output-format', 'json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(42);
      const report = JSON.parse(r.stdout);
      expect(report).toMatchObject({ status: 'error', exit_code: 42, error_kind: 'input', final_answer: null, turns: 0 });
      expect(report.error).toContain(error);
      expect(r.stderr).toContain(error);
    }
  });

  it('a run line the parser refuses (a flag given twice, an unknown flag) still answers --output-format json|stream-json on stdout; other commands and a text run print nothing there', async () => {
    const dir = tempDir();
    for (const argv of [['run', '-p', 'x', '-p', 'y'], ['-p', 'x', '--bogus']]) {
      const r = await cli([...argv, '--output-format', 'json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(42);
      const report = JSON.parse(r.stdout);
      expect(report).toMatchObject({ status: 'error', exit_code: 42, error_kind: 'input', final_answer: null, turns: 0 });
      expect(r.stderr).toContain(report.error);
      const s = await cli([...argv, '--output-format=stream-json'], { cwd: dir });
      expect(s.code, s.stderr).toBe(42);
      const lines = s.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
      expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, exit_code: 42 });
      const text = await cli(argv, { cwd: dir });
      expect(text.code).toBe(42);
      expect(text.stdout).toBe('');
    }
    // Nothing to run at all (no prompt, nothing piped): refused in the asked format too.
    const none = await cli(['--output-format', 'json'], { cwd: dir });
    expect(none.code).toBe(42);
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'error', exit_code: 42, error_kind: 'input' });
    expect(none.stderr).toContain('give a task');
    // The format itself given twice is not understood: nothing on stdout.
    const twice = await cli(['-p', 'x', '--output-format', 'json', '--output-format', 'stream-json'], { cwd: dir });
    expect(twice.code).toBe(42);
    expect(twice.stdout).toBe('');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('an --out that is the workspace (or holds it) is refused: the run would count its own files as changes', async () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const script = path.join(tempDir(), 'turns.yaml');
    fs.writeFileSync(script, 'turns:\n  - text: done\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), 'mine\n');
    for (const out of [ws, root]) {
      const before = fs.readdirSync(out).sort();
      const r = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--prompt', 'go', '--require-changes']);
      expect(r.code).toBe(42);
      expect(r.stderr).toContain('is the workspace');
      // Refused, so nothing of the run is left there: no transcript, no report among the person's files.
      expect(fs.readdirSync(out).sort()).toEqual(before);
    }
    expect(fs.readFileSync(path.join(ws, 'notes.md'), 'utf8')).toBe('mine\n');
  });

  it.each(['report.json', 'report.md'])('an --out that holds a %s of its own is refused before anything is written, the file kept', async (name) => {
    const out = tempDir();
    fs.writeFileSync(path.join(out, name), 'the person\'s own\n');
    const r = await cliInProcess(['run', 'recipes/demo.yaml', '--out', out]);
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`already holds a ${name}, which the run would replace`);
    expect(fs.readdirSync(out)).toEqual([name]);
    expect(fs.readFileSync(path.join(out, name), 'utf8')).toBe('the person\'s own\n');
  });

  it('a transcript write that fails (disk full) ends the run with exit 54 and says so in the report', async () => {
    const out = path.join(tempDir(), 'run');
    fs.mkdirSync(out);
    fs.symlinkSync('/dev/full', path.join(out, 'transcript.jsonl'));
    const r = await cliInProcess(['run', 'recipes/demo.yaml', '--out', out]);
    expect(r.code).toBe(54);
    expect(r.stderr).toMatch(/cannot write the transcript .*ENOSPC/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54, tool_calls: { total: 0 } });
    expect(report.error).toMatch(/ENOSPC/);
  });
});
