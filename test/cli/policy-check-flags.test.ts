// `policy check` without a recipe: the policy of a run given none, its --approval, --allow and
// --deny alone (`unattended -p … --approval allowlist --allow 'shell:git *'`). It used to refuse,
// "Missing required argument: recipe", so such a run's policy could not be tested before it ran.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const flags = ['--approval', 'allowlist', '--allow', 'shell:git *', '--deny', 'shell:git push *'];

async function decide(ws: string, command: string, run = cliInProcess) {
  const r = await run(['policy', 'check', '--tool', 'shell', '--args', JSON.stringify({ command }), '--workspace', ws, ...flags], { cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { decision: string; reason: string; rule: string | null };
}

describe('policy check with no recipe', () => {
  it("decides as a run given the same flags and no recipe does, call for call", async () => {
    const ws = tempDir();
    const commands = ['git status', 'git push origin main', 'rm -rf build'];
    const checked = await Promise.all(commands.map((c, i) => decide(ws, c, i === 0 ? cli : cliInProcess)));
    expect(checked.map((d) => d.decision)).toEqual(['allow', 'deny', 'deny']);
    expect(checked[1]!.rule).toBe('shell: git push *');

    // The run itself, with the same flags, the same calls asked for by a recorded model.
    const script = path.join(tempDir(), 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: commands.map((command) => ({ name: 'shell', args: { command } })) }, { text: 'done' }] }));
    const out = path.join(tempDir(), 'run');
    const run = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '-p', 'go', '--workspace', ws, '--out', out, '--sandbox', 'off', ...flags], { cwd: ws });
    expect(run.code, run.stderr).toBe(0);
    const decided = readRun(out).events.filter((e) => e.type === 'tool_call').map((e) => ({ decision: e.decision.decision, rule: e.decision.rule }));
    expect(decided).toEqual(checked.map(({ decision, rule }) => ({ decision, rule })));
  });

  it('--param still needs a recipe that declares parameters', async () => {
    const r = await cliInProcess(['policy', 'check', '--tool', 'shell', '--args', '{"command":"ls"}', '--param', 'a=b']);
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('--param needs a recipe that declares parameters');
  });
});
