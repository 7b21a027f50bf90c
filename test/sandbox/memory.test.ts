// A command that fills memory cannot take the run down with it. The sandbox's private /tmp is
// memory, and a page written there belongs to no process, so the OOM killer took the largest
// process instead: the runner, killed with no report. Sandboxed processes now go first.
// The whole scenario needs a memory cgroup to make an OOM of its own (root, cgroup v1 or v2);
// elsewhere only the score is checked.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, baseEnv, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { bwrapWorks, runCommands } from './harness.js';

afterAll(removeTempDirs);

/** A new memory cgroup limited to `bytes`, as the directory whose cgroup.procs takes a process; null where none can be made. */
function memoryCgroup(bytes: number): string | null {
  const candidates = [
    { parent: '/sys/fs/cgroup/memory', limit: 'memory.limit_in_bytes' }, // v1
    { parent: '/sys/fs/cgroup', limit: 'memory.max' }, // v2, memory delegated at the root
  ];
  for (const { parent, limit } of candidates) {
    try {
      if (limit === 'memory.max' && !fs.readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8').includes('memory')) continue;
      const dir = path.join(parent, `unattended-test-${process.pid}`);
      fs.mkdirSync(dir);
      try {
        fs.writeFileSync(path.join(dir, limit), String(bytes));
        return dir;
      } catch {
        fs.rmdirSync(dir);
      }
    } catch {
      // not this hierarchy
    }
  }
  return null;
}

describe.skipIf(!bwrapWorks)('a command that fills memory', () => {
  it('runs as the first the OOM killer takes; the runner keeps its own score', async () => {
    const run = await runCommands({ commands: ['cat /proc/self/oom_score_adj'] });
    expect(run.outputs[0]).toBe('Exit code: 0\nStdout:\n1000');
    expect(fs.readFileSync('/proc/self/oom_score_adj', 'utf8').trim()).toBe('0');
  });

  const cgroup = bwrapWorks ? memoryCgroup(400 * 1024 * 1024) : null;
  if (bwrapWorks && !cgroup) console.warn('SKIPPED: no memory cgroup can be made here, so the OOM case cannot run');
  afterAll(async () => {
    if (!cgroup) return;
    // Whatever of the test's processes an OOM left behind goes first: a cgroup with members stays.
    for (const pid of fs.readFileSync(path.join(cgroup, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmdirSync(cgroup);
  });

  it.skipIf(!cgroup)('filling the private /tmp ends the command, not the run: the run goes on and writes its report', async () => {
    const dir = tempDir('unattended-oom-');
    fs.mkdirSync(path.join(dir, 'ws'));
    const turns = [{ calls: [{ name: 'shell', args: { command: 'head -c 2000000000 /dev/zero > /tmp/fill; echo "exit $?"' } }] }, { calls: [{ name: 'shell', args: { command: 'echo second call' } }] }, { text: 'done' }];
    fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
    const recipe = { version: 1, prompt: 'x', provider: 'scripted', script: 'turns.yaml', workspace: 'ws', tools: ['shell'], confirmation: { mode: 'auto-approve' } };
    fs.writeFileSync(path.join(dir, 'recipe.yaml'), YAML.stringify(recipe));
    const out = path.join(dir, 'out');
    // The runner and all it starts live in the small cgroup, as on a machine whose memory runs out.
    const result = await execa('sh', ['-c', `echo $$ > ${cgroup}/cgroup.procs && exec "$@"`, 'sh', process.execPath, CLI, 'run', path.join(dir, 'recipe.yaml'), '--out', out], {
      env: baseEnv(),
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: 60_000,
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const { report, events } = readRun(out);
    expect(report.status).toBe('success');
    const outputs = events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content));
    expect(outputs[0]).toMatch(/Killed by SIGKILL|exit [1-9]/);
    expect(outputs[1]).toContain('second call');
  });
});
