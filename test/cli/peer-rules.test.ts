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
