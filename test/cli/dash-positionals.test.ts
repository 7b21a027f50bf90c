// A file or directory argument that starts with a dash (`convert -x`, `report -x`) is read as a
// flag; the "missing argument" message then says which word it was and to write it as ./-x.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const hint = (word: string) => `${word}: a word that starts with a dash is read as a flag; if ${word} is the file or directory, write ./${word}`;

describe('a dash word typed as a command\'s file argument', () => {
  it.each([
    [['convert', '-x'], 'Missing required argument: recipe', hint('-x')],
    [['report', '-x'], 'Missing required argument: source', hint('-x')],
    [['report', '--format', 'json', '--run-7'], 'Missing required argument: source', hint('--run-7')],
    [['validate', '-x'], 'validate needs the recipe file(s) to check: unattended validate RECIPE.yaml', hint('-x')],
    [['batch', 'status', '-x'], 'Missing required argument: dir', hint('-x')],
  ])('%j names the word and ./ before it', async (argv, message, expected) => {
    const r = await cliInProcess(argv, { cwd: tempDir(), env: {}, stdin: null });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(expected);
  });

  it('says so after -- too, which these commands leave unread', async () => {
    const r = await cliInProcess(['convert', '--', '-x'], { cwd: tempDir(), env: {}, stdin: null });
    expect(r.stderr).toContain('-x: a word that starts with a dash is read as a flag, after -- as well (this command leaves the words after -- unread); if -x is the file or directory, write ./-x');
  });

  it('adds nothing when no dash word was typed', async () => {
    const r = await cliInProcess(['convert', '--out', 'o.yaml'], { cwd: tempDir(), env: {}, stdin: null });
    expect(r.stderr).toBe("unattended: Missing required argument: recipe\nRun 'unattended convert --help' for usage.");
  });

  it('./-x is then read as the file', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, '-x'), 'title: t\ndescription: d\nprompt: Say hi.\n');
    const r = await cliInProcess(['convert', './-x'], { cwd: dir, env: {}, stdin: null });
    expect(r.stderr).not.toContain('Missing required argument');
    expect(r.stdout).toContain('prompt: Say hi.');
  });
});
