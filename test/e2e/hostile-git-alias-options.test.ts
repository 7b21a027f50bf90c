// A repository alias may begin with git's own options, which git applies as if typed on the
// command line: `alias.st = -c core.fsmonitor="…" status`. Options given that way outrank
// GIT_CONFIG_COUNT/KEY/VALUE, through which the tools' git gets the repository's programs
// neutralised, so the model's `git st` ran the repository's fsmonitor (and `--exec-path` would
// point git at the repository's own git-* programs), with the sandbox off or on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { gitConfigs, makeRepo } from '../git/repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

describe("a repository alias that starts with git's options", () => {
  it('runs none of the programs it names', async () => {
    const marks = tempDir('unattended-alias-marks-');
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    fs.mkdirSync(path.join(ws, 'bin'));
    fs.writeFileSync(path.join(ws, 'bin', 'git-status'), `#!/bin/sh\ntouch "${marks}/exec-path"\n`, { mode: 0o755 });
    await gitConfigs(ws, [
      ['alias.st', `-c core.fsmonitor="touch ${marks}/fsmonitor; echo" status`],
      ['alias.sx', `--exec-path=${ws}/bin status`],
      ['alias.lg', 'log --oneline -1'],
    ]);
    const run = await runCommands({ workspace: ws, sandbox: { mode: 'off' }, commands: ['echo changed > a.txt; git st; git sx; echo "done $?"', 'git lg'] });
    expect(run.outputs[0]).toContain('done');
    expect(fs.readdirSync(marks)).toEqual([]);
    // An ordinary alias still works.
    expect(run.outputs[1]).toMatch(/Exit code: 0[\s\S]*init/);
  });
});
