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
import type { ToolResult } from '../../src/tools/tools.js';
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

/** What one case starts: a call of `sleep 30.MARKER…` through a tool, in a sandbox of `ws`. */
type StartCall = (ctx: { ws: string; home: string; marker: string; sandbox: Sandbox }) => (i: number, signal: AbortSignal) => Promise<ToolResult>;

/**
 * `count` calls, each stopped 0-11 ms after it starts: every one ends as aborted within seconds,
 * and afterwards no `sleep 30.MARKER` is left anywhere.
 */
async function stopEachAtStart(name: string, count: number, start: StartCall): Promise<void> {
  const ws = path.join(root, `ws-${name}`);
  const home = path.join(root, `home-${name}`);
  fs.mkdirSync(ws);
  fs.mkdirSync(home);
  const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
  const sandbox = await Sandbox.open(DEFAULT_SANDBOX, { workspace: ws, outDir: null, env: { HOME: home } });
  try {
    const callAt = start({ ws, home, marker, sandbox });
    for (let i = 0; i < count; i++) {
      const controller = new AbortController();
      const started = performance.now();
      const call = callAt(i, controller.signal);
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
}

const toolEnv = (home: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });

describe.skipIf(!bwrapWorks)('a sandboxed call stopped as it starts', () => {
  it('ends as aborted within seconds and leaves no process, at every moment of the sandbox set-up', async () => {
    await stopEachAtStart('shell', 36, ({ ws, home, marker, sandbox }) => {
      const [shell] = createBuiltinTools({ workspace: Workspace.open(ws), env: toolEnv(home), maxTimeoutMs: 60_000, sandbox }, ['shell']);
      return (i, signal) => shell!.execute({ command: `sleep 30.${marker}${i}` } as never, signal);
    });
  }, 120_000);

  it('a discovered tool too: it runs under the same stop policy as the shell', async () => {
    await stopEachAtStart('discovered', 24, ({ ws, home, marker, sandbox }) => {
      fs.writeFileSync(path.join(ws, 'call.sh'), `#!/bin/sh\nexec sleep 30.${marker}\n`, { mode: 0o755 });
      const tool = new DiscoveredTool('slow', 'slow', 'sleeps', { type: 'object' }, { callCommand: './call.sh', cwd: ws, env: toolEnv(home), timeoutMs: 60_000, sandbox });
      return (_i, signal) => tool.execute({}, signal);
    });
  }, 120_000);
});
