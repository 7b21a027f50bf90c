// `git imap-send` (a patch series to a drafts folder) starts the command its config's imap.tunnel
// names. Set by the repository, that was not neutralised for the tools' git, so the model's
// `git format-patch … | git imap-send` ran the repository's program, with the sandbox off or on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { gitConfigs, makeRepo } from '../git/repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

describe("a repository's imap.tunnel", () => {
  it('never runs', async () => {
    const marks = tempDir('unattended-imap-marks-');
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    await gitConfigs(ws, [['imap.tunnel', `touch ${marks}/tunnel; false`], ['imap.folder', 'Drafts']]);
    const run = await runCommands({ workspace: ws, sandbox: { mode: 'off' }, commands: ['git format-patch -1 --stdout | git imap-send; echo "done $?"'] });
    expect(run.outputs[0]).toContain('done');
    expect(fs.readdirSync(marks)).toEqual([]);
  });
});
