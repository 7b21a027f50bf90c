// A descriptor the runner inherited without close-on-exec (a shell's `exec 200>/var/lock/x`, a
// directory a CI agent left open, make's jobserver) reached every sandboxed command: bwrap passes
// descriptors on as they are, and a directory one leads out of every mount. Here the CLI is
// started with a directory and a file outside the workspace open at fd 20 and 21.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type StdioOptions } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { baseEnv, CLI, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { bwrapWorks, outsideDir, removeOutsideDirs } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeOutsideDirs);

describe.skipIf(!bwrapWorks)('descriptors the runner inherited', () => {
  it('are closed before a sandboxed command runs: no write outside through them', async () => {
    const outside = outsideDir();
    const log = path.join(outside, 'log.txt');
    fs.writeFileSync(log, 'original\n');
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ws'));
    const command = [
      `echo through-the-file >&21; echo "file exit $?"`,
      `echo through-the-dir > /proc/self/fd/20/planted.txt; echo "dir exit $?"`,
      'ls /proc/self/fd',
    ].join('; ');
    fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ calls: [{ name: 'shell', args: { command } }] }, { text: 'done' }] }));
    const recipe = { version: 1, prompt: 'x', provider: 'scripted', script: 'turns.yaml', workspace: 'ws', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'required' } };
    fs.writeFileSync(path.join(dir, 'recipe.yaml'), YAML.stringify(recipe));
    const out = path.join(dir, 'out');
    const dirFd = fs.openSync(outside, 'r');
    const fileFd = fs.openSync(log, 'a');
    try {
      // Index n of stdio is the child's fd n, open without close-on-exec as a parent's would be.
      const stdio: StdioOptions = ['ignore', 'ignore', 'pipe', ...Array<'ignore'>(17).fill('ignore'), dirFd, fileFd];
      const child = spawn(process.execPath, [CLI, 'run', path.join(dir, 'recipe.yaml'), '--out', out], { env: baseEnv() as NodeJS.ProcessEnv, stdio, cwd: dir });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(0);
    } finally {
      fs.closeSync(dirFd);
      fs.closeSync(fileFd);
    }
    const result = String(readRun(out).events.find((e) => e.type === 'tool_result')!.llm_content);
    expect(result).toMatch(/file exit [1-9]/);
    expect(result).toMatch(/dir exit [1-9]/);
    expect(fs.readFileSync(log, 'utf8')).toBe('original\n');
    expect(fs.existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });
});
