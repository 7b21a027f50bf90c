// A stop that lands while bwrap is still setting up its sandbox (a Ctrl-C right after a shell call
// started). The group signal then reaches bwrap before its child asked to die with it: without more,
// the sandboxed command was orphaned in about 15% of such stops, ran on and kept the call (and the
// run) waiting for its pipes. Each call here is stopped 0-11 ms after it starts: every one must
// end promptly as aborted, and no process of it may be left.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX } from '../../src/recipe/types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { DiscoveredTool } from '../../src/tools/discovered.js';
import { Workspace } from '../../src/util/workspace.js';
import { bwrapWorks } from './harness.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-stop-at-start-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function processesWith(text: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe.skipIf(!bwrapWorks)('a sandboxed call stopped as it starts', () => {
  it('ends as aborted within seconds and leaves no process, at every moment of the sandbox set-up', async () => {
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    const sandbox = await Sandbox.open(DEFAULT_SANDBOX, { workspace: ws, outDir: null, env: { HOME: home } });
    try {
      const [shell] = createBuiltinTools({ workspace: Workspace.open(ws), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, maxTimeoutMs: 60_000, sandbox }, ['shell']);
      const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
      for (let i = 0; i < 36; i++) {
        const controller = new AbortController();
        const started = performance.now();
        const call = shell!.execute({ command: `sleep 30.${marker}${i}` } as never, controller.signal);
        setTimeout(() => controller.abort(new Error('stop')), i % 12);
        const result = await call;
        expect(result.error?.type, `stopped after ${i % 12} ms`).toBe('aborted');
        expect(performance.now() - started).toBeLessThan(10_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processesWith(`[s]leep 30.${marker}`)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('a discovered tool too: it runs under the same stop policy as the shell', async () => {
    const ws = path.join(root, 'ws-discovered');
    fs.mkdirSync(ws);
    const home = path.join(root, 'home-discovered');
    fs.mkdirSync(home);
    const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
    fs.writeFileSync(path.join(ws, 'call.sh'), `#!/bin/sh\nexec sleep 30.${marker}\n`, { mode: 0o755 });
    const sandbox = await Sandbox.open(DEFAULT_SANDBOX, { workspace: ws, outDir: null, env: { HOME: home } });
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
      const tool = new DiscoveredTool('slow', 'sleeps', { type: 'object' }, { callCommand: './call.sh', cwd: ws, env, timeoutMs: 60_000, sandbox });
      for (let i = 0; i < 24; i++) {
        const controller = new AbortController();
        const started = performance.now();
        const call = tool.execute({}, controller.signal);
        setTimeout(() => controller.abort(new Error('stop')), i % 12);
        const result = await call;
        expect(result.error?.type, `stopped after ${i % 12} ms`).toBe('aborted');
        expect(performance.now() - started).toBeLessThan(10_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processesWith(`[s]leep 30.${marker}`)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
