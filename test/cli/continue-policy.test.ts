// `run --continue` holds the new run to the earlier run's policy: the recipe file is read again, and
// a change to what bounds the run (policy, sandbox, tools, MCP servers, workspace, checks, hand-off,
// endpoint) that no flag of the continue command line asks for is refused before anything runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

afterAll(() => removeTempDirs());

const RECIPE = `version: 1
prompt: Look around.
tools: [read_file, edit, shell]
confirmation:
  mode: allowlist
  allow:
    - edit: "src/**"
  deny:
    - shell: "git push *"
`;

const runStart = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8').split('\n')[0]!);

/** A workspace with the recipe, and a first run of it in `first`. */
async function firstRun(): Promise<{ ws: string; recipe: string; first: string }> {
  const ws = tempDir('unattended-continue-policy-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.mkdirSync(path.join(ws, 'sub'));
  const recipe = path.join(ws, 'r.yaml');
  fs.writeFileSync(recipe, RECIPE);
  const first = path.join(ws, 'first');
  const r = await runInProcess(`unattended run ${recipe} --out ${first}`, { cwd: ws });
  expect(r.code).toBe(0);
  return { ws, recipe, first };
}

describe('run --continue holds the new run to the earlier run\'s policy', () => {
  it('the built CLI refuses a recipe loosened since the run (auto-approve, its deny rule gone), saying what differs and how to go on; nothing runs', async () => {
    const ws = tempDir('unattended-continue-policy-cli-');
    fs.writeFileSync(path.join(ws, 'done.yaml'), 'turns:\n  - text: done\n');
    fs.writeFileSync(path.join(ws, 'push.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "git push origin main" }\n  - text: pushed\n');
    const recipe = path.join(ws, 'c.yaml');
    fs.writeFileSync(recipe, `${RECIPE}provider: scripted\nscript: done.yaml\n`);
    expect((await cli(['run', recipe, '--out', 'c1'], { cwd: ws })).code).toBe(0);
    fs.writeFileSync(recipe, 'version: 1\nprompt: Look around.\ntools: [read_file, edit, shell]\nconfirmation: { mode: auto-approve }\nprovider: scripted\nscript: push.yaml\n');

    const r = await cli(['run', '--continue', 'c1', '-p', 'more', '--out', 'c5', '--sandbox', 'off'], { cwd: ws });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`cannot continue run ${runStart(path.join(ws, 'c1')).run_id}: its recipe ${recipe} now gives other settings than the run had, and no flag of this command line asks for the change:`);
    expect(r.stderr).toContain('  confirmation mode: allowlist then, auto-approve now\n');
    expect(r.stderr).toContain("  deny rules: removed 'shell: git push *'\n");
    expect(r.stderr).toContain("--approval allowlist keeps the earlier setting, --approval auto-approve takes the recipe's");
    expect(r.stderr).toContain("--deny 'shell:git push *' keeps it");
    expect(r.stderr).toContain('or start a fresh run');
    expect(r.stderr).not.toContain('git push origin main');
    const events = fs.readFileSync(path.join(ws, 'c5', 'transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'tool_call' || e.type === 'model_request')).toEqual([]);

    // Asked for on the command line, flag by flag: the mode changes, the deny rule stays and wins.
    const asked = await cli(['run', '--continue', 'c1', '-p', 'more', '--out', 'c6', '--sandbox', 'off', '--approval', 'auto-approve', '--deny', 'shell:git push *', '--allow', 'edit:src/**'], { cwd: ws });
    expect(asked.code).toBe(0);
    expect(runStart(path.join(ws, 'c6')).policy).toEqual({ mode: 'auto-approve', allow: ['edit: src/**'], deny: ['shell: git push *'] });
    expect(asked.stderr).toContain('✗ shell: git push origin main');
  });

  const loosened: Array<[string, (recipe: string) => string, string]> = [
    ['confirmation mode', (r) => r.replace('mode: allowlist', 'mode: deny').replace(/ {2}allow:\n.*\n/, ''), 'confirmation mode: allowlist then, deny now'],
    ['a deny rule dropped', (r) => r.replace(/ {2}deny:\n.*\n/, ''), "deny rules: removed 'shell: git push *'"],
    ['an allow rule added', (r) => r.replace('    - edit: "src/**"\n', '    - edit: "src/**"\n    - shell: "npm *"\n'), "allow rules: added 'shell: npm *'"],
    ['an allow rule widened', (r) => r.replace('edit: "src/**"', 'edit: "**"'), "allow rules: added 'edit: **'; removed 'edit: src/**'"],
    ['the sandbox turned off', (r) => `${r}sandbox: { mode: off }\n`, 'sandbox mode: auto then, off now'],
    ['the sandbox network opened', (r) => `${r}sandbox: { network: true }\n`, 'sandbox network: false then, true now'],
    ['a sandbox path made writable', (r) => `${r}sandbox: { writable: [/var/tmp] }\n`, "sandbox writable paths: added '/var/tmp'"],
    ['a tool offered', (r) => r.replace('tools: [read_file, edit, shell]', 'tools: [read_file, edit, shell, write_file]'), "tools offered: added 'write_file'"],
    ['an MCP server added', (r) => `${r}mcp_servers:\n  fs:\n    command: node\n    args: [server.js]\n`, "MCP servers: added 'fs'"],
    ['tool discovery added', (r) => `${r}tool_discovery: { command: ./discover.sh, call_command: ./call.sh }\n`, 'tool discovery: null then, {"command":"./discover.sh","call_command":"./call.sh"} now'],
    ['another workspace', (r) => `${r}workspace: sub\n`, 'workspace: WS then, WS/sub now'],
    ['an environment variable passed', (r) => `${r}env: { pass: [DEPLOY_TOKEN] }\n`, "environment passed to tools (env.pass): added 'DEPLOY_TOKEN'"],
    ['a push after the run', (r) => `${r}git: { push: true }\n`, 'git hand-off: null then, {"push":true,"pull_request":false} now'],
    ['a check command', (r) => `${r}checks: { commands: ["echo checked > checked.txt"] }\n`, "success checks: added 'echo checked > checked.txt'"],
    ['another endpoint', (r) => `${r}base_url: http://127.0.0.1:9/v1beta\n`, 'provider endpoint (base_url): null then, http://127.0.0.1:9/v1beta now'],
  ];

  it.each(loosened)('a recipe changed since the run (%s) is refused, naming the difference; no request is sent', async (_what, change, difference) => {
    const { ws, recipe, first } = await firstRun();
    fs.writeFileSync(recipe, change(RECIPE));
    const out = path.join(ws, 'next');
    const r = await runInProcess(`unattended run --continue ${first} -p "Go on" --out ${out}`, { cwd: ws });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining(`now gives other settings than the run had, and no flag of this command line asks for the change:\n  ${difference.replaceAll('WS', ws)}`)]);
    expect(r.requests).toHaveLength(0);
  });

  const askedFor: Array<[string, (recipe: string) => string, string, (start: any) => unknown, unknown]> = [
    ['the mode, with --approval (and the dropped allow rule with --allow)', (r) => r.replace('mode: allowlist', 'mode: auto-approve').replace(/ {2}allow:\n.*\n/, ''), "--approval auto-approve --allow 'edit:src/**'", (s) => s.policy, { mode: 'auto-approve', allow: ['edit: src/**'], deny: ['shell: git push *'] }],
    ['a dropped deny rule, kept with --deny', (r) => r.replace(/ {2}deny:\n.*\n/, ''), "--deny 'shell:git push *'", (s) => s.policy.deny, ['shell: git push *']],
    ['an added allow rule, taken with --allow', (r) => r.replace('    - edit: "src/**"\n', '    - edit: "src/**"\n    - shell: "npm *"\n'), "--allow 'shell:npm *'", (s) => [...new Set(s.policy.allow)], ['edit: src/**', 'shell: npm *']],
    ['the sandbox mode, with --sandbox', (r) => `${r}sandbox: { mode: off }\n`, '--sandbox off', (s) => s.sandbox.mode, 'off'],
    ['the tools, with --tools', (r) => r.replace('tools: [read_file, edit, shell]', 'tools: [read_file, edit, shell, write_file]'), '--tools read_file,edit,shell', (s) => s.tools, ['read_file', 'edit', 'shell']],
    ['the workspace, with --workspace', (r) => `${r}workspace: sub\n`, '--workspace .', (s) => s.safety.workspace, 'WS'],
  ];

  it.each(askedFor)('a change this command line asks for goes on: %s', async (_what, change, flags, read, expected) => {
    const { ws, recipe, first } = await firstRun();
    fs.writeFileSync(recipe, change(RECIPE));
    const out = path.join(ws, 'next');
    const r = await runInProcess(`unattended run --continue ${first} -p "Go on" ${flags} --out ${out}`, { cwd: ws });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('cannot continue')]);
    expect(read(runStart(out))).toEqual(expected === 'WS' ? ws : expected);
  });

  it('an --mcp-config server that fills ${HOME} is compared as the file writes it: another HOME goes on, a changed file is refused', async () => {
    const ws = tempDir('unattended-continue-mcp-home-');
    fs.writeFileSync(path.join(ws, 'done.yaml'), 'turns:\n  - text: done\n');
    const config = path.join(ws, 'mcp.json');
    const write = (args: string[]) => fs.writeFileSync(config, JSON.stringify({ mcpServers: { tools: { command: '${HOME}/bin/no-such-server', args } } }));
    write(['--root', '${HOME}/data']);
    const [homeA, homeB] = [tempDir('unattended-home-a-'), tempDir('unattended-home-b-')];
    const first = await cli(['run', '-p', 'look', '--provider', 'scripted', '--script', 'done.yaml', '--mcp-config', 'mcp.json', '--out', 'c1'], { cwd: ws, env: { HOME: homeA } });
    expect(first.code).toBe(0);
    // The record keeps the file's own words beside what they were filled with.
    expect(runStart(path.join(ws, 'c1')).safety.mcp_servers[0]).toMatchObject({ command: `${homeA}/bin/no-such-server`, written: { command: '${HOME}/bin/no-such-server', args: ['--root', '${HOME}/data'] } });

    const again = await cli(['run', '--continue', 'c1', '-p', 'more', '--out', 'c2'], { cwd: ws, env: { HOME: homeB } });
    expect(again.stderr).not.toContain('cannot continue');
    expect(again.code).toBe(0);

    write(['--root', '/']);
    const changed = await cli(['run', '--continue', 'c1', '-p', 'more', '--out', 'c3'], { cwd: ws, env: { HOME: homeA } });
    expect(changed.code).toBe(42);
    expect(changed.stderr).toContain("MCP servers: changed 'tools'");
  });

  it('a change that does not bound the run (prompt, description, instructions, limits) goes on as before', async () => {
    const { ws, recipe, first } = await firstRun();
    fs.writeFileSync(recipe, RECIPE.replace('prompt: Look around.', 'prompt: Something else.\ndescription: changed\ninstructions: Be brief.\nlimits: { max_turns: 7 }'));
    const out = path.join(ws, 'next');
    const r = await runInProcess(`unattended run --continue ${first} -p "Go on" --out ${out}`, { cwd: ws });
    expect(r.code).toBe(0);
    expect(runStart(out).policy).toEqual(runStart(first).policy);
  });

  it('a recipe named along with --continue replaces the earlier one, as asked: what differs is a warning of the run', async () => {
    const { ws, recipe, first } = await firstRun();
    fs.writeFileSync(recipe, RECIPE.replace(/ {2}deny:\n.*\n/, ''));
    const out = path.join(ws, 'next');
    const r = await runInProcess(`unattended run ${recipe} --continue ${first} -p "Go on" --out ${out}`, { cwd: ws });
    expect(r.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.warnings).toContain(`the recipe named with --continue gives other settings than run ${runStart(first).run_id} had: deny rules: removed 'shell: git push *'`);
  });

  it('a transcript from before `safety` was recorded still holds its policy and sandbox mode', async () => {
    const { ws, recipe, first } = await firstRun();
    const transcript = path.join(first, 'transcript.jsonl');
    const [start, ...rest] = fs.readFileSync(transcript, 'utf8').split('\n');
    const { safety: _safety, ...older } = JSON.parse(start!);
    fs.writeFileSync(transcript, [JSON.stringify(older), ...rest].join('\n'));
    fs.writeFileSync(recipe, `${RECIPE.replace(/ {2}deny:\n.*\n/, '')}sandbox: { mode: off }\n`);
    const r = await runInProcess(`unattended run --continue ${first} -p "Go on" --out ${path.join(ws, 'next')}`, { cwd: ws });
    expect([r.code, r.stderr]).toEqual([42, expect.stringContaining("  deny rules: removed 'shell: git push *'\n  sandbox mode: auto then, off now")]);
  });
});
