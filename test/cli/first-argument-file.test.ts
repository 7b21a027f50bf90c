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
