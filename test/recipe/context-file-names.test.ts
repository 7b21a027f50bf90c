// `context: {files: ["*.md"]}`: each name is looked for as it is, so a glob matched no file and the
// run went on with no context and no word (validate said ok). Refused now, as a directory is.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('context.files naming a glob', () => {
  it('is refused by validate at the name, saying names are looked for as they are', async () => {
    const dir = tempDir('unattended-context-names-');
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'Use tabs.\n');
    const file = path.join(dir, 'r.yaml');
    fs.writeFileSync(file, 'version: 1\nprompt: hi\nconfirmation: {mode: deny}\ncontext:\n  files: [AGENTS.md, "*.md"]\n');
    const r = await cli(['validate', file], { cwd: dir });
    expect(r.code).toBe(52);
    expect(r.stdout + r.stderr).toContain("r.yaml:5:22: 'context.files[1]' is not valid: a file name, without a directory or a glob (*, ?, [ ]): each name is looked for as it is");
  });
});
