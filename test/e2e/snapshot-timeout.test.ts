// The run's --timeout met while the runner's own git records what shell commands changed (the
// snapshot at the run's end, a minute on a workspace of a few GB): the run must end near its
// timeout, as a signal ends it, not when git is done. It waited for the snapshot's own one-minute
// limit: a `--timeout 2s` run took over a minute. Here a wrapper stands in for git's slow write-tree.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('the run timeout during the end-of-run snapshot', () => {
  it('ends the run within seconds of its timeout: limit, exit 55, answer kept, files_changed said to be maybe short', async () => {
    const root = tempDir('unattended-snapshot-timeout-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
    const realGit = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
    const gitEnv = { GIT_CONFIG_NOSYSTEM: '1', HOME: root };
    await execa('sh', ['-c', 'git init -q -b main && git add . && git -c user.email=t@example.com -c user.name=t commit -qm init'], { cwd: ws, env: gitEnv });
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    const count = path.join(root, 'count');
    const pidFile = path.join(root, 'slow.pid');
    // The second write-tree (the snapshot at the run's end) hangs, as a huge file's hashing does.
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" write-tree "*) n=$(cat '${count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${count}'; if [ $n -ge 2 ]; then echo $$ > '${pidFile}'; exec sleep 90; fi;; esac\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "echo hi > new.txt" }\n  - text: Done.\n');
    const out = path.join(root, 'out');
    const started = Date.now();
    const r = await execa(process.execPath, [CLI, 'run', '--prompt', 'x', '--provider', 'scripted', '--script', path.join(root, 'turns.yaml'), '--approval', 'auto-approve', '--workspace', ws, '--out', out, '--timeout', '3s'], {
      env: baseEnv({ ...gitEnv, PATH: `${bin}:${process.env.PATH}` }),
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    const took = Date.now() - started;
    try {
      if (fs.existsSync(pidFile)) process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // gone
    }
    expect(fs.existsSync(pidFile)).toBe(true);
    expect(r.exitCode, r.stderr).toBe(55);
    // The timeout (3 s), half the signal grace for git (2 s), and start-up on a busy machine.
    expect(took).toBeLessThan(20_000);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', exit_code: 55, final_answer: 'Done.' });
    expect(String(report.error)).toMatch(/timeout.*while shutting down/);
    expect(JSON.stringify(report.warnings)).toMatch(/stopped before git's look at the workspace at the end of the run.*files_changed may miss/);
  }, 130_000);
});
