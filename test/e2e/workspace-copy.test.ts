// workspace_mode: copy of a big workspace, stopped by SIGTERM while it copies (built CLI): the
// signal is seen at once, not after the copy (fs.cpSync held the event loop for the whole copy:
// 14-19 s on 30,000 files), and the run leaves its report, cancelled, exit 143.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { makeBigTree, removeBigTree } from '../helpers/big-tree.js';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';

const trees: string[] = [];
afterAll(() => {
  for (const tree of trees.splice(0)) removeBigTree(tree);
  removeTempDirs();
});

function filesUnder(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

/** A recipe copying a workspace of 20,000 files (long enough to stop during), and where its run goes. */
function copyRun(prefix: string) {
  const root = tempDir(prefix);
  const ws = path.join(root, 'ws');
  trees.push(ws);
  const tree = makeBigTree(ws, 20_000);
  const script = path.join(root, 'turns.json');
  fs.writeFileSync(script, JSON.stringify({ turns: [{ text: 'done' }] }));
  const recipe = path.join(root, 'copy.yaml');
  fs.writeFileSync(recipe, `version: 1\nname: copy\nprompt: go\nprovider: scripted\nscript: ${script}\nworkspace: ${ws}\nworkspace_mode: copy\ntools: [read_file]\nconfirmation: { mode: deny }\n`);
  return { tree, recipe, out: path.join(root, 'run') };
}

describe('workspace_mode: copy', () => {
  it('SIGTERM during the copy: exit 143 within 5 s, report cancelled, the copy stopped part-way', async () => {
    const { tree, recipe, out } = copyRun('unattended-copy-signal-');
    const child = execa(process.execPath, [CLI, 'run', recipe, '--out', out], { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    try {
      // The copy has begun once its first package is there.
      const started = path.join(out, 'workspace', 'packages');
      while (!fs.existsSync(started)) {
        if (child.exitCode !== null) throw new Error(`the run ended before its copy was seen: ${child.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const sent = performance.now();
      child.kill('SIGTERM');
      const result = await child;
      const ms = performance.now() - sent;

      expect(result.exitCode).toBe(143);
      expect(ms).toBeLessThan(5_000);
      const { report, events } = readRun(out);
      expect(report).toMatchObject({ status: 'cancelled', exit_code: 143 });
      expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled', exit_code: 143 });
      expect(events.filter((e) => e.type === 'model_request')).toHaveLength(0);
      expect(filesUnder(path.join(out, 'workspace'))).toBeLessThan(tree.files);
      // The part copied is kept, and the report says it is partial: nobody takes it for the workspace.
      expect(report.warnings).toEqual([expect.stringContaining(`the workspace copy ${path.join(out, 'workspace')} is partial`)]);
      expect(events.filter((e) => e.type === 'warning')).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('--timeout met during the copy: exit 55, and the report says the copy left behind is partial', async () => {
    const { tree, recipe, out } = copyRun('unattended-copy-timeout-');
    const result = await execa(process.execPath, [CLI, 'run', recipe, '--out', out, '--timeout', '300ms'], { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    expect(result.exitCode, result.stderr).toBe(55);
    const { report } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'timeout' });
    expect(filesUnder(path.join(out, 'workspace'))).toBeLessThan(tree.files);
    expect(report.warnings).toEqual([expect.stringContaining(`the workspace copy ${path.join(out, 'workspace')} is partial`)]);
    expect(result.stderr).toContain('is partial');
  });
});

describe('workspace_mode: copy with the output inside the workspace (the default place)', () => {
  it('leaves the run\u2019s own output directory out of the copy: no copy of the copy', async () => {
    const root = tempDir('unattended-copy-self-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src/a.js'), 'a\n');
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ text: 'done' }] }));
    const recipe = path.join(root, 'copy.yaml');
    fs.writeFileSync(recipe, `version: 1\nname: copy\nprompt: go\nprovider: scripted\nscript: ${script}\nworkspace: ${ws}\nworkspace_mode: copy\ntools: [read_file]\nconfirmation: { mode: deny }\n`);
    const out = path.join(ws, '.unattended', 'runs', 'r1');
    const result = await execa(process.execPath, [CLI, 'run', recipe, '--out', out], { cwd: ROOT, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(fs.readFileSync(path.join(out, 'workspace', 'src/a.js'), 'utf8')).toBe('a\n');
    expect(fs.existsSync(path.join(out, 'workspace', '.unattended', 'runs', 'r1'))).toBe(false);
    expect(readRun(out).report.status).toBe('success');
  });
});
