// `run -c -p "…"` with the flags of the first run given again, as a Claude Code user types
// `claude -c -p "…" --mcp-config mcp.json --append-system-prompt "…"` every time: the same
// --mcp-config is the same servers (not "already defined"), and a new --append-system-prompt or
// --output-schema replaces the earlier run's (not appended twice, and the earlier file need not
// still exist).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/child-processes.js';
import { runInProcess } from './in-process.js';

afterAll(() => removeTempDirs());

const systemText = (body: any): string => body.systemInstruction.parts.map((p: any) => p.text).join('\n');
const toolNames = (body: any): string[] => body.tools.flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name));
const count = (text: string, part: string) => text.split(part).length - 1;

describe('run --continue with the earlier run\'s flags given again', () => {
  it('--append-system-prompt and --output-schema given again replace the earlier ones, whose file may be gone', async () => {
    const ws = tempDir('unattended-continue-again-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    const schema = (prop: string) => JSON.stringify({ type: 'object', properties: { [prop]: { type: 'integer' } }, required: [prop] });
    fs.writeFileSync(path.join(ws, 'old.json'), schema('oldCount'));
    fs.writeFileSync(path.join(ws, 'new.json'), schema('newCount'));
    const first = await runInProcess('unattended -p "Count" --no-context --append-system-prompt "Be terse." --output-schema old.json', {
      cwd: ws,
      env,
      replies: [{ text: '{"oldCount": 1}' }],
    });
    expect(first.code).toBe(0);
    fs.rmSync(path.join(ws, 'old.json'));
    const r = await runInProcess('unattended -c -p "Count again" --append-system-prompt "Be terse." --output-schema new.json', {
      cwd: ws,
      env,
      replies: [{ text: '{"newCount": 2}' }],
    });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('cannot read')]);
    const system = systemText(r.requests[0]!.body);
    expect(count(system, 'Be terse.')).toBe(1);
    expect(system).toContain('newCount');
    expect(system).not.toContain('oldCount');
  });

  it('the same --check again runs once, as a recipe\'s check named again with --check does', async () => {
    const ws = tempDir('unattended-continue-check-again-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    const first = await runInProcess('unattended -p "Build" --no-context --check "echo checked"', { cwd: ws, env });
    expect(first.code).toBe(0);
    const out = path.join(ws, 'second');
    const r = await runInProcess(`unattended -c -p "Again" --check "echo checked" --out ${out}`, { cwd: ws, env, replies: [{ text: 'Again done.' }] });
    expect(r.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.checks.map((c: any) => c.check)).toEqual(['echo checked']);
  });

  it('the same --allow and --deny again are one rule each, as the earlier run had them', async () => {
    const ws = tempDir('unattended-continue-rules-again-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    const flags = '--approval allowlist --allow "shell:git status" --deny "shell:git push *"';
    expect((await runInProcess(`unattended -p "Look" --no-context ${flags}`, { cwd: ws, env })).code).toBe(0);
    const out = path.join(ws, 'second');
    const r = await runInProcess(`unattended -c -p "Again" ${flags} --out ${out}`, { cwd: ws, env, replies: [{ text: 'Again done.' }] });
    expect(r.code).toBe(0);
    const start = JSON.parse(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').split('\n')[0]!);
    expect(start.policy).toEqual({ mode: 'allowlist', allow: ['shell: git status'], deny: ['shell: git push *'] });
  });

  it('the same --mcp-config again is the same servers, not a second definition of each', async () => {
    const ws = tempDir('unattended-continue-mcp-again-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    const server = { command: process.execPath, args: [path.join(FIXTURES, 'mcp/shapes-server.mjs')] };
    fs.writeFileSync(path.join(ws, 'mcp.json'), JSON.stringify({ mcpServers: { shapes: server } }));
    const first = await runInProcess('unattended -p "Look" --no-context --mcp-config mcp.json', { cwd: ws, env });
    expect(first.code).toBe(0);
    const r = await runInProcess('unattended -c -p "Again" --mcp-config mcp.json', { cwd: ws, env, replies: [{ text: 'Again done.' }] });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('already defined')]);
    const names = toolNames(r.requests[0]!.body);
    expect(names).toContain('shapes__parts');
    expect(names.filter((n) => n === 'shapes__parts')).toHaveLength(1);
  });

  it('a file the earlier run was started with that is gone is said to be that run\'s, with how to go on', async () => {
    const ws = tempDir('unattended-continue-gone-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    fs.writeFileSync(path.join(ws, 'prompt.md'), 'Be terse.\n');
    fs.writeFileSync(path.join(ws, 'task.yaml'), 'version: 1\nprompt: Go.\nconfirmation: { mode: deny }\ncontext: false\n');
    for (const [first, gone] of [
      ['unattended -p "Look" --no-context --append-system-prompt @prompt.md', 'prompt.md'],
      ['unattended run task.yaml', 'task.yaml'],
    ] as const) {
      expect((await runInProcess(first, { cwd: ws, env })).code).toBe(0);
      fs.renameSync(path.join(ws, gone), path.join(ws, `${gone}.bak`));
      const r = await runInProcess('unattended -c -p "Again"', { cwd: ws, env });
      fs.renameSync(path.join(ws, `${gone}.bak`), path.join(ws, gone));
      expect({ gone, code: r.code, requests: r.requests.length }).toEqual({ gone, code: 42, requests: 0 });
      expect(r.stderr).toMatch(/cannot continue run \S+: .*started with/);
      expect(r.stderr).toContain(gone);
      expect(r.stderr).toMatch(/or start a fresh run/);
    }
  });
});
