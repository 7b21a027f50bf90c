// `unattended help`, as `codex help`, `goose help`, `git help` and `gh help` take the word: the help.
// It used to start a run (a paid one, with a key set) whose prompt was "help", the default command
// taking its first word for a positional prompt. A task that starts with the word stays a task.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('the word help as the first argument', () => {
  it('alone prints the help of --help, exit 0, and starts no run', async () => {
    const cwd = tempDir();
    const [word, flag] = await Promise.all([cli(['help'], { cwd, env: { GEMINI_API_KEY: 'k' } }), cli(['--help'], { cwd })]);
    expect([word.code, word.stderr]).toEqual([0, '']);
    expect(word.stdout).toBe(flag.stdout);
    expect(fs.existsSync(path.join(cwd, '.unattended'))).toBe(false);
  });

  it("before a command's name prints that command's help", async () => {
    const cwd = tempDir();
    for (const [words, flags] of [
      [['help', 'run'], ['run', '--help']],
      [['help', 'batch', 'merge'], ['batch', 'merge', '--help']],
      [['help', 'policy', 'check'], ['policy', 'check', '--help']],
    ]) {
      const [word, flag] = await Promise.all([cli(words!, { cwd }), cli(flags!, { cwd })]);
      expect([word.code, word.stdout], words!.join(' ')).toEqual([0, flag.stdout]);
      expect(flag.stdout).toContain(`unattended ${flags![0]}`);
    }
    expect(fs.existsSync(path.join(cwd, '.unattended'))).toBe(false);
  });

  it('followed by other words is a task, as any first words are', async () => {
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'turns.yaml'), 'turns:\n  - text: Helped.\n');
    const r = await cli(['help', 'me', 'fix', 'the', 'test', '--provider', 'scripted', '--script', 'turns.yaml'], { cwd });
    expect([r.code, r.stdout]).toEqual([0, 'Helped.']);
    const [run] = fs.readdirSync(path.join(cwd, '.unattended/runs'));
    const start = JSON.parse(fs.readFileSync(path.join(cwd, '.unattended/runs', run!, 'transcript.jsonl'), 'utf8').split('\n')[0]!);
    expect(start.prompt).toBe('help me fix the test');
  });

  it('version alone prints the version, as --version does', async () => {
    const [word, flag] = await Promise.all([cli(['version']), cli(['--version'])]);
    expect([word.code, word.stdout]).toEqual([0, flag.stdout]);
    expect(word.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
