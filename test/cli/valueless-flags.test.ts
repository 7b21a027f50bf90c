// A flag typed with no value: last on the line, or before another flag, or `--flag "$VAR"` with the
// variable unset. yargs gives a flag with a default its default, so `--output-format` (a script's
// `--output-format $FMT`) printed the text answer where JSON was awaited, and `report --format` the
// Markdown; `--out` with no value was the current directory, where a run whose recipe failed to
// load wrote its transcript and reports among the user's files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { runInProcess } from './in-process.js';

afterAll(removeTempDirs);

describe('a flag with a default, given no value', () => {
  it('--output-format is refused (exit 42) with the values it takes, before any model request', async () => {
    const cwd = tempDir();
    for (const command of ['unattended -p "Count the files" --output-format', 'unattended -p "Count the files" --output-format --tools ls']) {
      const r = await runInProcess(command, { cwd });
      expect([r.code, r.requests.length, r.stdout], command).toEqual([42, 0, '']);
      expect(r.stderr).toContain('--output-format needs a value, one of text, json, stream-json: it was given none');
    }
    const given = await runInProcess('unattended -p "Count the files" --output-format json', { cwd });
    expect([given.code, JSON.parse(given.stdout).status]).toEqual([0, 'success']);
  });

  it("report's --format and batch's --concurrency likewise", async () => {
    const cwd = tempDir();
    const report = await cliInProcess(['report', 'run-dir', '--format'], { cwd });
    expect(report.code).toBe(42);
    expect(report.stderr).toContain('--format needs a value, one of md, json: it was given none');
    const batch = await cliInProcess(['batch', 'r.yaml', '--targets', 't.txt', '--concurrency'], { cwd });
    expect(batch.code).toBe(42);
    expect(batch.stderr).toContain('--concurrency needs a value: it was given none');
  });
});

describe('a list flag given no value', () => {
  it("--tools last on the line (`--tools $T`, T unset) is refused, not taken for no tools; --tools '' still offers none", async () => {
    const cwd = tempDir();
    for (const command of ['unattended -p "Fix the test" --tools', 'unattended -p "Fix the test" --tools --output-format json', 'unattended -p "Fix the test" --check --tools ls']) {
      const r = await runInProcess(command, { cwd });
      expect([r.code, r.requests.length], command).toEqual([42, 0]);
      expect(r.stderr, command).toMatch(/--(tools|check) needs a value: it was given none/);
      // Asked for JSON, the refusal is the report on stdout (exit 42, its error); otherwise nothing.
      if (command.includes('--output-format json')) expect(JSON.parse(r.stdout), command).toMatchObject({ status: 'error', exit_code: 42, error: expect.stringMatching(/--tools needs a value/) });
      else expect(r.stdout, command).toBe('');
    }
    const none = await cliInProcess(['tools', '--tools', ''], { cwd });
    expect(none.code, none.stderr).toBe(0);
  });
});

describe('--out with an empty value', () => {
  it('is refused (exit 42), and nothing is written in the current directory', async () => {
    const cwd = tempDir();
    // A recipe that fails to load: its report was written to the --out directory, here the current one.
    fs.writeFileSync(path.join(cwd, 'r.yaml'), 'version: 1\nprompt: hi\nprovider: scripted\nscript: missing.yaml\nconfirmation: {mode: deny}\n');
    for (const args of [['run', 'r.yaml', '--out'], ['run', 'r.yaml', '--out', ''], ['-p', 'hi', '--out', '']]) {
      const r = await cliInProcess(args, { cwd });
      expect(r.code, args.join(' ')).toBe(42);
      expect(r.stderr).toContain('--out names no directory: it was given an empty value');
      expect(fs.readdirSync(cwd).sort()).toEqual(['r.yaml']);
    }
  });
});

describe('--workspace with an empty value', () => {
  // `--workspace "$REPO" --approval auto-approve` with REPO unset worked, and edited, in the current directory.
  it('is refused (exit 42) before any model request, not taken for the current directory', async () => {
    const cwd = tempDir();
    for (const command of ['unattended -p "Fix the typo" --workspace ""', 'unattended -p "Fix the typo" --workspace']) {
      const r = await runInProcess(command, { cwd });
      expect([r.code, r.requests.length], command).toEqual([42, 0]);
      expect(r.stderr).toContain('--workspace names no directory: it was given an empty value');
    }
  });
});

describe('--record with an empty value', () => {
  // `--record "$REC"` with REC unset ran the paid run and recorded nothing, without a word.
  it('is refused (exit 42) before any model request', async () => {
    const r = await runInProcess('unattended -p "Fix the typo" --record ""', { cwd: tempDir() });
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain('--record names no file: it was given an empty value');
  });
});
