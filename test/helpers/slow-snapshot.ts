// A run whose end-of-run snapshot hangs, as git's write-tree does on a workspace of a few GB: a
// `git` wrapper first on PATH lets the first write-tree (the snapshot before the first shell call)
// through and holds the second in `sleep`, writing that sleep's pid to `pidFile`. The scripted
// model runs one shell command (so there is something to record) and answers "Done.".
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { baseEnv, CLI, tempDir } from './cli.js';

export interface SlowSnapshotRun {
  root: string;
  ws: string;
  out: string;
  /** Where the held write-tree writes its pid once it hangs. */
  pidFile: string;
  /** The CLI's argv for `run` (node's own path first). */
  argv: string[];
  env: NodeJS.ProcessEnv;
}

/** `holdFrom`: the write-tree held, and every one after it (a success check's command adds two before the run's end). */
export async function slowSnapshotRun(prefix: string, holdSeconds: number, extraArgs: readonly string[] = [], holdFrom = 2): Promise<SlowSnapshotRun> {
  const root = tempDir(prefix);
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
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in *" write-tree "*) n=$(cat '${count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${count}'; if [ $n -ge ${holdFrom} ]; then echo $$ > '${pidFile}'; exec sleep ${holdSeconds}; fi;; esac\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  const script = path.join(root, 'turns.yaml');
  fs.writeFileSync(script, 'turns:\n  - calls:\n      - name: shell\n        args: { command: "echo hi > new.txt" }\n  - text: Done.\n');
  const out = path.join(root, 'out');
  const argv = [CLI, 'run', '--prompt', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--workspace', ws, '--out', out, ...extraArgs];
  return { root, ws, out, pidFile, argv, env: baseEnv({ ...gitEnv, PATH: `${bin}:${process.env.PATH}` }) };
}

/** Kills the held write-tree, if it was reached and still runs. */
export function releaseSlowSnapshot(run: SlowSnapshotRun): void {
  try {
    if (fs.existsSync(run.pidFile)) process.kill(Number(fs.readFileSync(run.pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // gone
  }
}

/** Runs it to its end (stdin closed: no piped-prompt wait), then kills the held write-tree if it still runs. */
export async function runToEnd(run: SlowSnapshotRun) {
  const result = await execa(process.execPath, run.argv, { env: run.env, extendEnv: false, reject: false, timeout: 120_000, stdin: 'ignore' });
  releaseSlowSnapshot(run);
  return result;
}
