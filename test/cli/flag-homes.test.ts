// A flag of run given to another command (`validate --param`, `tools --model`) is answered with the
// commands that take it, not only "Unknown argument"; and `tools` takes run's --tools and
// --mcp-config, listing what a run with them would offer the model.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string) => runInProcess(command, { cwd });

beforeAll(() => {
  cwd = tempDir('unattended-flag-homes-');
  fs.writeFileSync(path.join(cwd, 'r.yaml'), 'version: 1\nname: t\nprompt: x\ntools: [shell, read_file, grep]\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

describe("tools takes run's --tools and --mcp-config", () => {
  it('lists only the tools --tools names, for a recipe or none', async () => {
    const listed = async (command: string) => {
      const r = await run(command);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.split('\n').filter((l) => /^\w+\{/.test(l)).map((l) => l.split('{')[0]);
    };
    expect(await listed('unattended tools r.yaml --tools read_file')).toEqual(['read_file']);
    expect(await listed('unattended tools --tools read_file,grep')).toEqual(['read_file', 'grep']);
    expect(JSON.parse((await run('unattended tools r.yaml --json --tools ls --tools shell')).stdout).map((d: { name: string }) => d.name)).toEqual(['ls', 'shell']);
  });

  it('refuses a name that is no tool as run does (exit 42, with the hint)', async () => {
    const r = await run('unattended tools --tools Bash');
    expect(r.code).toBe(42);
    expect(r.stderr).toContain("--tools: 'Bash' is not a built-in tool: that is Claude Code's name: here it is 'shell'");
  });

  it('reads --mcp-config as run does', async () => {
    const r = await run('unattended tools --mcp-config missing.json');
    expect(r.code).toBe(42);
    expect(r.stderr).not.toContain('Unknown argument');
    expect(r.stderr).toContain('missing.json');
  });
});

describe("a flag of run given to another command", () => {
  it.each([
    ['unattended validate r.yaml --param a=b', /^--param: a flag of run, tools, policy check and batch, which validate does not take/m],
    ['unattended tools r.yaml --model gemini-2.5-pro', /^--model: a flag of run, which tools does not take$/m],
    ['unattended tools r.yaml --approval deny', /^--approval: a flag of run and policy check, which tools does not take$/m],
    ['unattended report somewhere -m x', /^-m \(--model\): a flag of run, which report does not take$/m],
    ['unattended policy check r.yaml --tool shell --tools shell', /^--tools: a flag of run and tools, which policy check does not take$/m],
    ['unattended convert r.yaml --maxTurns 3', /^--max-turns: a flag of run, which convert does not take$/m],
  ])('%s says which commands take it (exit 42)', async (command, hint) => {
    const r = await run(command);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/Unknown argument/);
    expect(r.stderr).toMatch(hint);
  });

  // A batch's runs take the recipe's settings: "which batch does not take" alone left no way to set them.
  it.each([
    ['unattended batch r.yaml --targets t.txt --model gpt-4o', /^--model: a flag of run, which batch does not take: for every target's run, set it in the recipe \(model: NAME\)$/m],
    ['unattended batch r.yaml --targets t.txt --approval auto-approve', /^--approval: a flag of run and policy check, which batch does not take: for every target's run, set it in the recipe \(confirmation: \{mode: …\}\)$/m],
    ['unattended batch r.yaml --targets t.txt --max-turns 3', /^--max-turns: .* set it in the recipe \(limits: \{max_turns: N\}\)$/m],
    // A peer's flag is answered with run's --approval, which batch refuses too: where it goes for a batch.
    ['unattended batch r.yaml --targets t.txt --yolo', /^batch does not take run's flags: every target's run takes the recipe's settings \(confirmation: \{mode: …\}, model, limits, \.\.\.\)$/m],
  ])('%s says where a batch sets it: the recipe (exit 42)', async (command, hint) => {
    const r = await run(command);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(hint);
  });

  it('says nothing of the kind for a flag no command has, nor for run itself', async () => {
    expect((await run('unattended validate r.yaml --frobnicate')).stderr).not.toMatch(/a flag of/);
    expect((await run('unattended run r.yaml --json')).stderr).not.toMatch(/a flag of/);
  });

  it.each([
    ['tools', ['param', 'tools', 'mcp-config']],
    ['policy check', ['param', 'workspace', 'approval', 'allow', 'deny']],
  ])('the commands the hint names take the flag: %s', async (command, flags) => {
    for (const flag of flags) {
      const value = flag === 'approval' ? 'deny' : flag === 'param' ? 'a=b' : 'shell';
      const r = await run(`unattended ${command} r.yaml ${command === 'policy check' ? '--tool shell ' : ''}--${flag} ${value}`);
      expect(r.stderr, `${command} --${flag}`).not.toContain('Unknown argument');
    }
  });
});
