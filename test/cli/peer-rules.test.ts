// Rules as Claude Code and Gemini CLI write them, typed or pasted by their users into --allow, --deny
// and a recipe's rules: never taken as ours, and answered with what to write here, translated by
// what the rule means there (Gemini CLI's run_shell_command(rm) refuses every rm command; Claude
// Code's /src/** is the project's src; a settings file's list is several rules). In process against
// a fake Gemini endpoint: each refusal is checked on what the user reads, and the rule the hint
// gives is run to show it refuses what the peer's rule refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string, opts: Omit<Parameters<typeof runInProcess>[1], 'cwd'> = {}) => runInProcess(command, { cwd, ...opts });

beforeAll(() => {
  cwd = tempDir('unattended-peer-rules-');
  fs.mkdirSync(path.join(cwd, 'build'));
  fs.writeFileSync(path.join(cwd, 'build/out.js'), 'x\n');
});
afterAll(() => removeTempDirs());

/** The hint on stderr, for a command refused before any model request. */
async function refusal(command: string): Promise<string> {
  const r = await run(command);
  expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
  return r.stderr;
}

describe("a peer's rule on the command line", () => {
  it("Gemini CLI's run_shell_command(rm) is every rm command there, so the hint is 'shell:rm *', and that rule refuses rm -rf", async () => {
    expect(await refusal("unattended -p x --deny 'run_shell_command(rm)'")).toContain("that is Gemini CLI's rule syntax; here write 'shell:rm *'");
    expect(await refusal("unattended -p x --deny 'run_shell_command(git push)'")).toContain("here write 'shell:git push *'");
    const followed = await run("unattended -p x --approval auto-approve --sandbox off --deny 'shell:rm *' --out rm-run", {
      replies: [{ calls: [{ name: 'shell', args: { command: 'rm -rf build' } }] }, { text: 'Done.' }],
    });
    expect(followed.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(cwd, 'rm-run/report.json'), 'utf8'));
    expect(report.denials.map((d: any) => d.tool)).toEqual(['shell']);
    expect(fs.existsSync(path.join(cwd, 'build/out.js'))).toBe(true);
  });

  it("a list of Claude Code's rules (--allowedTools 'Bash(git log:*),Read') is one flag per rule here", async () => {
    expect(await refusal("unattended -p x --deny 'Edit(.env),Bash(rm:*)'")).toContain(
      "--deny 'Edit(.env),Bash(rm:*)': that is Claude Code's list of rules; here each rule is a flag of its own: --deny 'edit:.env' --deny 'shell:rm *'",
    );
    expect(await refusal("unattended -p x --approval allowlist --allow 'Bash(git log:*) Read'")).toContain("--allow 'shell:git log *' --allow 'read_file'");
  });

  it("Claude Code's path and domain forms are written as ours: /src/** is the project's src, domain:HOST the host, mcp__s__t the tool s__t", async () => {
    expect(await refusal("unattended -p x --deny 'Edit(/src/**)'")).toContain("here write 'edit:src/**'");
    expect(await refusal("unattended -p x --deny 'Read(./secrets/**)'")).toContain("here write 'read_file:secrets/**'");
    expect(await refusal("unattended -p x --tools web_fetch --approval allowlist --allow 'WebFetch(domain:docs.python.org)'")).toContain("here write 'web_fetch:docs.python.org'");
    expect(await refusal("unattended -p x --deny 'Read(~/.ssh/**)'")).toContain("'~/.ssh/**' is outside the workspace, which the file tools never leave here");
    expect(await refusal('unattended -p x --deny mcp__github__create_issue')).toContain("here it is 'github__create_issue'");
    expect(await refusal('unattended -p x --deny mcp__github')).toContain("here it is 'github__*'");
  });
});

describe("Claude Code's ':*' inside our own rule", () => {
  it("shell:npm run test:* is answered with the '*' word it means, on the command line and in a recipe", async () => {
    expect(await refusal("unattended -p x --deny 'shell:npm run test:*'")).toContain(`(Claude Code's ':*' is a '*' word of its own here: "npm run test *")`);
    expect(await refusal("unattended -p x --deny 'shell:rm*'")).toContain(`write a '*' word of its own here: "rm *")`);
    fs.writeFileSync(path.join(cwd, 'colon-star.yaml'), 'version: 1\nprompt: hi\nconfirmation:\n  mode: deny\n  deny:\n    - shell: "git push:*"\n');
    const r = await run('unattended validate colon-star.yaml');
    expect(r.code).toBe(52);
    expect(r.stderr).toMatch(/colon-star\.yaml:6:\d+: .*Claude Code's ':\*' is a '\*' word of its own here: "git push \*"/);
  });
});

describe("a peer's rule in a recipe", () => {
  it('validate answers each with the list item to write, at its line', async () => {
    fs.writeFileSync(
      path.join(cwd, 'pasted.yaml'),
      [
        'version: 1',
        'prompt: hi',
        'confirmation:',
        '  mode: allowlist',
        '  allow:',
        '    - "Bash(npm test:*)"',
        '  deny:',
        '    - "run_shell_command(rm)"',
        '    - "Bash(git push:*), Edit(/.github/**)"',
        '',
      ].join('\n'),
    );
    const r = await run('unattended validate pasted.yaml');
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(`pasted.yaml:6:7: that is Claude Code's rule syntax; here write - shell: "npm test *"`);
    expect(r.stderr).toContain(`pasted.yaml:8:7: that is Gemini CLI's rule syntax; here write - shell: "rm *"`);
    expect(r.stderr).toContain(`pasted.yaml:9:7: that is Claude Code's list of rules; here each rule is an item of the list of its own: - shell: "git push *", - edit: ".github/**"`);
  });
});

describe("a peer's rule or list in a list of tools", () => {
  // Gemini CLI's coreTools (`run_shell_command(git)`) and Claude Code's --allowedTools ('Bash(git
  // log:*)', 'Read Grep') list tools with rules in them: --tools and a recipe's tools said only
  // "not a built-in tool", where --allow names what to write.
  it('--tools answers with the names to offer and the allow rule, and the command it gives runs', async () => {
    expect(await refusal("unattended -p x --tools 'run_shell_command(git)'")).toContain(
      "--tools: 'run_shell_command(git)' is not a built-in tool: that is Gemini CLI's rule syntax; here write --tools shell, and what its pattern lets it do is an allow rule: --approval allowlist --allow 'shell:git *'",
    );
    expect(await refusal("unattended -p x --tools 'Bash(git log:*)'")).toContain("here write --tools shell, and what its pattern lets it do is an allow rule: --approval allowlist --allow 'shell:git log *'");
    expect(await refusal("unattended -p x --tools 'Read Grep'")).toContain("that is Claude Code's list of tools; here write --tools read_file,grep");
    expect(await refusal("unattended -p x --tools 'read_file grep'")).toContain('here write --tools read_file,grep');
    const followed = await run("unattended -p x --tools shell --approval allowlist --allow 'shell:git *' --sandbox off --out coretools-run", {
      replies: [{ calls: [{ name: 'shell', args: { command: 'git --version' } }] }, { text: 'Done.' }],
    });
    expect(followed.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(cwd, 'coretools-run/report.json'), 'utf8'));
    expect({ status: report.status, denials: report.denials }).toEqual({ status: 'success', denials: [] });
  });

  it("a recipe's tools answer at the entry's line with the list and the allow rule", async () => {
    fs.writeFileSync(path.join(cwd, 'coretools.yaml'), 'version: 1\nprompt: hi\nconfirmation: {mode: allowlist}\ntools: [read_file, "run_shell_command(git status)"]\n');
    const r = await run('unattended validate coretools.yaml');
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(
      "coretools.yaml:4:20: that is Gemini CLI's rule syntax; here write tools: [shell], and what its pattern lets it do is an allow rule under `confirmation: {mode: allowlist}`: - shell: \"git status *\"",
    );
  });

  it("Gemini CLI's class names, Codex's update_plan and Claude Code's ExitPlanMode are named too", async () => {
    expect(await refusal('unattended -p x --tools EditTool')).toContain("that is Gemini CLI's name: here it is 'edit'");
    expect(await refusal('unattended -p x --tools ReadFileTool')).toContain("here it is 'read_file'");
    expect(await refusal('unattended -p x --tools update_plan')).toContain("that is Codex's name: here it is 'todo_write'");
    expect(await refusal('unattended -p x --tools ExitPlanMode')).toContain("that is Claude Code's name: here it is 'exit_plan_mode'");
  });
});

describe("Claude Code's allow rule for a read", () => {
  // Read(./src/**) there allows reads without asking; a read never asks here, and the pattern the
  // hint used to give ('read_file:src/**') was then refused as an allow rule that limits nothing.
  it('is answered with the bare tool, and that rule is accepted', async () => {
    const hint = await refusal("unattended -p x --approval allowlist --allow 'Read(./src/**)'");
    expect(hint).toContain("here write 'read_file'; 'read_file' never asks for confirmation here");
    expect(hint).not.toContain('read_file:src/**');
    expect(await refusal("unattended -p x --approval allowlist --deny 'Read(./.env)'")).toContain("here write 'read_file:.env'");
    expect((await run("unattended -p x --approval allowlist --allow 'read_file'")).code).toBe(0);
    fs.writeFileSync(path.join(cwd, 'read-allow.yaml'), 'version: 1\nprompt: hi\nconfirmation:\n  mode: allowlist\n  allow:\n    - "Read(./src/**)"\n');
    const r = await run('unattended validate read-allow.yaml');
    expect(r.stderr).toContain("read-allow.yaml:6:7: that is Claude Code's rule syntax; here write - read_file;");
  });
});

describe("a peer's tool name in policy check --tool", () => {
  // Every other entry point (--tools, --allow/--deny, a recipe's tools and rules) names the tool
  // here; policy check said only "Unknown tool 'Bash'", leaving the user to guess it is `shell`.
  it('is answered with the name here, in the decision and on stderr, and the named tool is the one that decides', async () => {
    fs.writeFileSync(path.join(cwd, 'check.yaml'), 'version: 1\nprompt: hi\ntools: [read_file, shell]\nconfirmation:\n  mode: allowlist\n  allow:\n    - shell: "git log *"\n');
    const check = async (tool: string) => {
      const r = await run(`unattended policy check check.yaml --tool '${tool}' --args '{"command":"git log"}'`);
      expect({ tool, code: r.code }).toEqual({ tool, code: 0 });
      return { decision: JSON.parse(r.stdout), stderr: r.stderr };
    };
    const bash = await check('Bash');
    expect(bash.decision.decision).toBe('deny');
    expect(bash.decision.reason).toContain("that is Claude Code's name: here it is 'shell'");
    expect(bash.stderr).toContain("--tool 'Bash': that is Claude Code's name: here it is 'shell'");
    expect((await check('run_shell_command')).decision.reason).toContain("that is Gemini CLI's name: here it is 'shell'");
    expect((await check('mcp__docs__read')).decision.reason).toContain("here it is 'docs__read'");
    expect((await check('Bash(git log:*)')).stderr).toContain("--tool takes a tool's name, and --args the call's arguments; 'Bash': that is Claude Code's name: here it is 'shell'");
    expect((await check('shel')).decision.reason).toContain("did you mean 'shell'?");
    expect((await check('write_file')).decision.reason).toContain("a built-in tool this recipe does not offer the model: add it to the recipe's tools");
    // The name the hint gives is the tool that answers.
    expect((await check('shell')).decision).toMatchObject({ decision: 'allow', rule: 'shell: git log *' });
  });
});
