// A flag's value that starts with a dash (`--timeout -1s`, `--shard -1/2`): yargs read it as short
// flags and answered "Unknown arguments: 1, s", about flags nobody typed, while `--timeout=-1s` got
// the flag's own message. A value that is no flag-shaped word is read as the flag's value now, as
// `--timeout=-1s` is, for every command's flags; one flag-shaped word (`--out -x`) stays a flag, as
// after -p, and the refusal says how to give it as the value.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const RECIPE = 'version: 1\nname: t\nprompt: hi\nprovider: gemini\nmodel: gemini-2.5-flash\nconfirmation: {mode: deny}\n';

describe('a flag whose value starts with a dash', () => {
  it.each([
    [['--check-timeout', '-1s', '-p', 'hi'], "--check-timeout: '-1s' is not a duration"],
    [['run', '-p', 'hi', '--timeout', '-1s'], "--timeout: '-1s' is not a duration"],
  ])('the built CLI: %j says what is wrong with the value', async (argv, message) => {
    const r = await cli(argv, { cwd: tempDir(), env: { GEMINI_API_KEY: 'k' } });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(message)]);
    expect(r.stderr).not.toContain('Unknown argument');
  });

  it.each([
    [['-p', 'hi', '--model-idle-timeout', '-30s'], "--model-idle-timeout: '-30s' is not a duration"],
    [['run', '-p', 'hi', '--max-turns', '-3.5'], "--max-turns must be a whole number of at least 1, got -3.5"],
    [['run', '-p', 'hi', '--max-cost-usd', '-1$'], "--max-cost-usd must be a number of dollars above 0, got '-1$'"],
    [['run', '-p', 'hi', '--param', '-1'], "--param '-1' must be name=value"],
    [['run', '-p', 'hi', '--provider', '-1'], '--provider must be one of'],
    [['report', 'somewhere', '--format', '-1x'], '--format must be one of md, json (got "-1x")'],
    [['policy', 'check', '--tool', 'shell', '--args', '-1x'], '--args is not valid JSON'],
    [['batch', 'r.yaml', '--targets', 't.txt', '--shard', '-1/2', '--dry-run'], "--shard '-1/2' must be i/n"],
    [['batch', 'r.yaml', '--targets', 't.txt', '--timeout', '-1s', '--dry-run'], "--timeout: '-1s' is not a duration"],
  ])('%j says what is wrong with the value', async (argv, message) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'r.yaml'), RECIPE);
    fs.writeFileSync(path.join(dir, 't.txt'), `${dir}\n`);
    const r = await cliInProcess(argv, { cwd: dir, env: { GEMINI_API_KEY: 'k' } });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(message)]);
    expect(r.stderr).not.toContain('Unknown argument');
  });

  it('a directory named -1 is the run directory --out -1 asks for', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: done\n');
    const r = await cliInProcess(['-p', 'hi', '--provider', 'scripted', '--script', 'turns.yaml', '--out', '-1'], { cwd: dir });
    expect([r.code, r.stdout.trim()]).toEqual([0, 'done']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, '-1', 'report.json'), 'utf8')).status).toBe('success');
  });

  it.each([
    [['-p', 'hi', '--out', '-x'], '--out -x: a word that starts with a dash is read as a flag; if -x is the value of --out, write --out=-x'],
    [['-p', 'hi', '--max-turns', '-x'], '--max-turns -x: a word that starts with a dash is read as a flag; if -x is the value of --max-turns, write --max-turns=-x'],
    [['report', 'r', '--format', '--md'], 'write --format=--md'],
  ])('%j: a flag-shaped word stays a flag, and the refusal says how to give it as the value', async (argv, hint) => {
    const r = await cliInProcess(argv, { cwd: tempDir() });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining('Unknown argument')]);
    expect(r.stderr).toContain(hint);
  });

  it('--prompt - reads the prompt from stdin, as -p - does (yargs gave the long form an empty prompt)', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: done\n');
    const r = await cliInProcess(['--prompt', '-', '--provider', 'scripted', '--script', 'turns.yaml', '--out', 'run'], { cwd: dir, stdin: 'say hi from the pipe' });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('--prompt is empty')]);
    const start = fs.readFileSync(path.join(dir, 'run', 'transcript.jsonl'), 'utf8').split('\n').map((l) => (l ? JSON.parse(l) : null)).find((e) => e?.type === 'run_start');
    expect(start.prompt).toBe('say hi from the pipe');
  });

  it.each([
    [['--mcp-config', '-'], "--mcp-config -: cannot read it (no such file"],
    [['--record', '-'], null],
  ])('-p hi %j: the - is the flag\'s value, never dropped without a word', async (flags, message) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: done\n');
    const r = await cliInProcess(['-p', 'hi', '--provider', 'scripted', '--script', 'turns.yaml', ...flags], { cwd: dir });
    if (message) expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(message)]);
    // The recording is where --record=- puts it, a file named '-', as its transcript says.
    else expect([r.code, fs.readFileSync(path.join(dir, '-'), 'utf8')]).toEqual([0, expect.stringContaining('done')]);
  });

  it("a flag of the command after one whose value is optional stays a flag: -c -p '…' continues with the prompt", async () => {
    const r = await cliInProcess(['-c', '-p', 'Go on'], { cwd: tempDir(), env: { XDG_STATE_HOME: tempDir() } });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining('--continue: no earlier run of yours is recorded')]);
  });

  it.each([
    [['batch', 'r.yaml', '--targets', 't.txt', '--check-timeout', '-1s', '--dry-run'], '--check-timeout: a flag of run, which batch does not take'],
    [['-p', 'hi', '--max-turn', '-5s'], '--max-turn: did you mean --max-turns?'],
  ])('%j: a flag the command does not know is refused as one, its dash value no flags of their own', async (argv, hint) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'r.yaml'), RECIPE);
    fs.writeFileSync(path.join(dir, 't.txt'), `${dir}\n`);
    const r = await cliInProcess(argv, { cwd: dir, env: { GEMINI_API_KEY: 'k' } });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(`Unknown argument: ${argv.find((word) => word.startsWith('--') && word !== '--targets' && word !== '--dry-run')!.slice(2)}\n`)]);
    expect(r.stderr).toContain(hint);
  });
});
