// `unattended TODO.md` (an existing file that is no recipe: a peer's user names the notes the task
// is in) was read as a recipe and refused with only "a recipe is a map of keys ..., not the string
// ..." (exit 52): no word on how to give the model that file. Found probing the README's
// first-argument rules.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

describe('an existing file that is not a recipe, as the first argument', () => {
  it('is refused with how to give it to the model instead (exit 52, no model call)', async () => {
    const cwd = tempDir('unattended-first-file-');
    fs.writeFileSync(path.join(cwd, 'TODO.md'), 'Fix the typo in README.md\n');
    const r = await cliInProcess(['TODO.md', '--no-stdin'], { cwd });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(`${path.join(cwd, 'TODO.md')}:1:1: TODO.md is not a recipe (a YAML map): for the task it holds, pass -p "$(cat TODO.md)" or -p "Do what TODO.md says"`);
  });
});

describe('an empty file as the first argument', () => {
  // It also got "null is not a recipe: for the task it holds, pass -p "$(cat null)"" (for /dev/null):
  // an empty file holds no task, and the advice named a file that is not there.
  it('is refused as an empty recipe, with no advice to pass its task as the prompt', async () => {
    const cwd = tempDir('unattended-first-empty-');
    fs.writeFileSync(path.join(cwd, 'notes.txt'), '');
    for (const file of ['notes.txt', '/dev/null']) {
      const r = await cliInProcess(['validate', file], { cwd });
      expect({ file, code: r.code }).toEqual({ file, code: 52 });
      expect(r.stderr).toContain(`${file}:1:1: the recipe is empty: start with \`version: 1\``);
      expect(r.stderr).not.toContain('for the task it holds');
    }
  });
});
