// `--continue` of a run killed with `kill -9` while a command ran: the transcript has the call's
// tool_call (recorded before it ran) and no result. The command did run, in part or whole: the model
// must not be told it was "not run", or it does it again (an append twice, a second commit).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(() => removeTempDirs());

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 600 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
};

const responses = (body: any) => body.contents.flatMap((c: any) => c.parts).filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse);

describe('--continue of a run killed while a call ran', () => {
  it('tells the model the call was cut off while it ran, not that it never ran; a call never started is not run', async () => {
    const ws = tempDir('unattended-killed-call-');
    const first = path.join(ws, 'first');
    const gemini = await startFakeGemini([
      {
        calls: [
          { name: 'shell', args: { command: 'echo ran >> log.txt; sleep 60' } },
          { name: 'shell', args: { command: 'echo second >> log.txt' } },
        ],
      },
      { text: 'Went on.' },
    ]);
    const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url };
    const live = execa(process.execPath, [CLI, '-p', 'Log it', '--approval', 'auto-approve', '--out', first], { cwd: ws, env: baseEnv(env), extendEnv: false, reject: false, stdin: 'ignore' });
    try {
      await until(() => fs.existsSync(path.join(ws, 'log.txt')), 'the first command to run');
      live.kill('SIGKILL');
      await live;
      // Its report says the command that ran, though no result of it was recorded to count.
      const report = JSON.parse((await cli(['report', first, '--format', 'json'], { cwd: ws, env })).stdout);
      // Counted apart: tool_calls.total counts a call at its result.
      expect(report.tool_calls).toMatchObject({ total: 0, unfinished: 1 });
      expect(report.error).toMatch(/^the transcript ends before the run did .*; 1 call started with no result recorded \(shell\): in tool_calls.unfinished, not its total; it may have done some or all of its work$/);
      // report.md's table says it where a reader looks for the calls, not only in the error below.
      expect((await cli(['report', first], { cwd: ws, env })).stdout).toContain('| tool calls | 0, and 1 started with no result recorded |');
      const r = await cli(['-c', first, '-p', 'Go on', '--out', path.join(ws, 'next')], { cwd: ws, env });
      expect([r.code, r.stdout.trim()], r.stderr).toEqual([0, 'Went on.']);
      const [cut, never] = responses(gemini.requests[1]!.body);
      expect(cut.name).toBe('shell');
      expect(cut.response.error).toMatch(/^the run was killed while this call ran: it may have done some or all of its work/);
      expect(never.response).toEqual({ error: 'not run: the run was stopped' });
    } finally {
      live.kill('SIGKILL');
      await gemini.close();
    }
  });
});
