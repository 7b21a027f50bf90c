import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllProcessGroups, trackedProcessGroups } from '../../src/tools/process-groups.js';
import { OUTPUT_KEEP_BYTES } from '../../src/tools/builtin/shell.js';
import { toolEnvironment } from '../../src/tools/tool-env.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

/** Alive means running: a zombie waiting for a reaper that never comes (pid 1 in a container) is dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntilDead(pid: number, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    if (!isAlive(pid)) return true;
  }
  return !isAlive(pid);
}

async function waitForFile(file: string, ms = 3000): Promise<string> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim()) return fs.readFileSync(file, 'utf8').trim();
  }
  throw new Error(`${file} never appeared`);
}

/** Starts a background grandchild (its pid in bg.pid) and a foreground child (fg.pid), both sleeping. */
const TREE = 'sleep 30 & echo $! > bg.pid; sleep 30 & echo $! > fg.pid; wait';

describe('shell', () => {
  it.each([
    { command: 'echo hi; echo oops >&2; exit 3', expected: 'Exit code: 3\nStdout:\nhi\nStderr:\noops' },
    { command: 'true', expected: 'Exit code: 0 (no output)' },
    { command: 'no-such-command-xyz', expected: /^Exit code: 127\nStderr:\n.*no-such-command-xyz: command not found$/ },
    { command: 'cat; echo done', expected: 'Exit code: 0\nStdout:\ndone' }, // stdin is closed, nothing waits
    { command: 'kill -SEGV $$', expected: 'Killed by SIGSEGV (no output)' },
    { command: 'echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"', expected: 'Exit code: 0\nStdout:\ncat cat 0' },
    // A test runner forced to colour (FORCE_COLOR=1 jest), a progress line, a hyperlink: the model gets the words.
    {
      command: String.raw`printf '\033[32m✓\033[0m 3 passed\n\033[2K\033[1Gdone\n'; printf '\033[31mfailed\033[39m: \033]8;;https://x.test/a\033\\a.ts\033]8;;\033\\\n' >&2`,
      expected: 'Exit code: 0\nStdout:\n✓ 3 passed\ndone\nStderr:\nfailed: a.ts\n[8 terminal escape sequences (colours, cursor moves) removed]',
    },
    // Text in another encoding is said to be so: 'caf\ufffd' alone read as a file that holds U+FFFD.
    {
      command: String.raw`printf 'caf\351\n'; printf 'se\361or\n' >&2`,
      expected: 'Exit code: 0\nStdout:\ncaf\ufffd\nStderr:\nse\ufffdor\n[stdout and stderr are not valid UTF-8 (Latin-1 or another encoding?): each byte that is not is shown as \ufffd; iconv -f LATIN1 -t UTF-8 converts Latin-1]',
    },
    { command: String.raw`printf 'caf\303\251 \357\277\275\n'`, expected: 'Exit code: 0\nStdout:\ncafé \ufffd' }, // UTF-8, U+FFFD itself included
  ])('runs $command', async ({ command, expected }) => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('shell'), { command });
    expect(result.error).toBeUndefined();
    if (typeof expected === 'string') expect(result.llmContent).toBe(expected);
    else expect(text(result)).toMatch(expected);
  });

  it('runs in the workspace, or in a directory inside it', async () => {
    const ws = makeWorkspace({ 'sub/dir/f.txt': '' });
    expect(text(await call(ws.tool('shell'), { command: 'pwd' }))).toBe(`Exit code: 0\nStdout:\n${ws.root}`);
    expect(text(await call(ws.tool('shell'), { command: 'pwd; ls', directory: 'sub/dir' }))).toBe(`Exit code: 0\nStdout:\n${ws.root}/sub/dir\nf.txt`);
  });

  it.each([
    { params: { command: '   ' }, message: /command is empty/ },
    { params: { command: 'pwd', directory: 'missing' }, message: /not an existing directory/ },
    { params: { command: 'pwd', timeout_ms: 0 }, message: /timeout_ms/ },
  ])('refuses $params', async ({ params, message }) => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('shell'), params);
    expect(result.error?.type).toBe('invalid_params');
    expect(result.error?.message).toMatch(message);
  });

  it('gives the child only its allowlisted environment (no provider key, even from this process)', async () => {
    const ws = makeWorkspace();
    const saved = process.env.GEMINI_API_KEY;
    process.env.GEMINI_API_KEY = 'sekrit-gemini-key';
    try {
      ws.ctx.env = toolEnvironment({ ...process.env, OPENAI_API_KEY: 'sekrit-openai-key', NODE_OPTIONS: '--inspect' }, []);
      const out = text(await call(ws.tool('shell'), { command: 'env' }));
      expect(out).not.toMatch(/sekrit|GEMINI_API_KEY|OPENAI_API_KEY|NODE_OPTIONS/);
      expect(out).toContain('PATH=');
    } finally {
      if (saved === undefined) delete process.env.GEMINI_API_KEY;
      else process.env.GEMINI_API_KEY = saved;
    }
  });

  it("neutralises a hostile repository's fsmonitor and hooks", async () => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    const sentinel = path.join(path.dirname(ws.root), 'outside', 'pwned');
    const hook = ws.write('evil.sh', `#!/bin/sh\ntouch ${sentinel}\n`);
    fs.chmodSync(hook, 0o755);
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: ws.root, env: { PATH: process.env.PATH, HOME: ws.root }, stdio: ['ignore', 'pipe', 'ignore'] });
    git('init', '-q');
    git('config', 'core.fsmonitor', hook);
    git('config', 'core.hooksPath', path.dirname(hook));
    fs.copyFileSync(hook, path.join(ws.root, 'pre-commit'));
    const commit = 'git add a.txt && git -c user.name=t -c user.email=t@t commit -qm x && git status --short';
    const result = await call(ws.tool('shell'), { command: commit });
    expect(text(result)).toMatch(/^Exit code: 0/);
    expect(fs.existsSync(sentinel)).toBe(false);
    // Control: without the neutralising variables the same repository does run the hook.
    git('status', '--short');
    expect(fs.existsSync(sentinel)).toBe(true);
  });

  it('kills the whole process tree on abort', async () => {
    const ws = makeWorkspace();
    const controller = new AbortController();
    const running = call(ws.tool('shell'), { command: TREE }, controller.signal);
    const bg = Number(await waitForFile(path.join(ws.root, 'bg.pid')));
    const fg = Number(await waitForFile(path.join(ws.root, 'fg.pid')));
    expect(isAlive(bg) && isAlive(fg)).toBe(true);
    const started = performance.now();
    controller.abort();
    const result = await running;
    expect(result.error?.type).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await waitUntilDead(bg)).toBe(true);
    expect(await waitUntilDead(fg)).toBe(true);
    expect(trackedProcessGroups()).toEqual([]);
  });

  it('kills the whole process tree on timeout, clamped to the run maximum', async () => {
    const ws = makeWorkspace();
    ws.ctx.maxTimeoutMs = 400;
    const started = performance.now();
    const result = await call(ws.tool('shell'), { command: `echo started; ${TREE}`, timeout_ms: 60_000 });
    expect(result.error?.type).toBe('timeout');
    expect(text(result)).toMatch(/^Error: command timed out after 400 ms; its process group was killed\n.*\nStdout:\nstarted$/);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(await waitUntilDead(Number(ws.read('bg.pid')))).toBe(true);
    expect(await waitUntilDead(Number(ws.read('fg.pid')))).toBe(true);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('shell'), { command: `trap '' TERM; sleep 30 & echo $! > bg.pid; while :; do sleep 0.05; done`, timeout_ms: 200 });
    expect(result.error?.type).toBe('timeout');
    expect(await waitUntilDead(Number(ws.read('bg.pid')))).toBe(true);
  });

  it('does not wait for, or leave behind, a background job once bash exits', async () => {
    const ws = makeWorkspace();
    const started = performance.now();
    const result = await call(ws.tool('shell'), { command: 'sleep 30 & echo $! > bg.pid; echo back' });
    expect(result.llmContent).toBe('Exit code: 0\nStdout:\nback');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await waitUntilDead(Number(ws.read('bg.pid')))).toBe(true);
  });

  it('does not wait for a process that left the group and holds the output: kills it and says so', async () => {
    const ws = makeWorkspace();
    const started = performance.now();
    const result = await call(ws.tool('shell'), { command: 'setsid sleep 31 & echo $! > bg.pid; sleep 0.2; echo started', timeout_ms: 20_000 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result.error).toBeUndefined();
    expect(text(result)).toMatch(/^Exit code: 0\nStdout:\nstarted\n\[note: bash exited but a background process .*\(pid \d+: sleep 31\) kept the output open; it was killed/);
    expect(await waitUntilDead(Number(ws.read('bg.pid')))).toBe(true);
  });

  it('returns at its timeout when bash timed out and an escaped process holds the output', async () => {
    const ws = makeWorkspace();
    const started = performance.now();
    const result = await call(ws.tool('shell'), { command: 'setsid sh -c "sleep 32; echo late" & echo $! > bg.pid; echo started; sleep 30', timeout_ms: 300 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result.error?.type).toBe('timeout');
    expect(text(result)).toContain('Stdout:\nstarted\n[note: bash exited but a background process');
    expect(await waitUntilDead(Number(ws.read('bg.pid')))).toBe(true);
  });

  it('lets the runner kill every live group synchronously', async () => {
    const ws = makeWorkspace();
    const running = call(ws.tool('shell'), { command: TREE });
    const bg = Number(await waitForFile(path.join(ws.root, 'bg.pid')));
    expect(trackedProcessGroups()).toHaveLength(1);
    expect(killAllProcessGroups('SIGKILL')).toBe(1);
    expect(text(await running)).toMatch(/^Killed by SIGKILL/);
    expect(await waitUntilDead(bg)).toBe(true);
  });

  it('caps stdout and stderr, keeping head and tail with a note', async () => {
    const ws = makeWorkspace();
    const command = 'printf "HEAD"; head -c 5000000 /dev/zero | tr "\\0" x; printf "TAIL"; printf "e%.0s" $(seq 1 10) >&2';
    const out = text(await call(ws.tool('shell'), { command }));
    const dropped = 5_000_008 - 2 * OUTPUT_KEEP_BYTES;
    expect(out.startsWith('Exit code: 0\nStdout:\nHEADxxx')).toBe(true);
    expect(out).toContain(`xxx\n[… ${dropped} bytes cut: only the first 1 MiB and the last 1 MiB are kept …]\nxxx`);
    expect(out.endsWith('xxxTAIL\nStderr:\neeeeeeeeee')).toBe(true);
    expect(out.length).toBeLessThan(2 * OUTPUT_KEEP_BYTES + 200);
  });

  it('says output cut at the cap is not UTF-8 by what was kept, not by a character the cut split', async () => {
    const ws = makeWorkspace();
    // Lines of 'é' (3 bytes with the line break): 1 MiB is 1 more than a multiple of 3, so the head
    // ends after the first byte of an 'é', and with 3,000,002 bytes the tail starts at its second.
    const split = text(await call(ws.tool('shell'), { command: "yes 'é' | head -c 3000002" }));
    expect(split).toContain(' bytes cut: ');
    expect(split).not.toContain('not valid UTF-8');
    const latin1 = text(await call(ws.tool('shell'), { command: String.raw`head -c 3000000 /dev/zero | tr '\0' x; printf 'caf\351'` }));
    expect(latin1).toMatch(/xcaf\ufffd\n\[stdout is not valid UTF-8 /);
  });
});
