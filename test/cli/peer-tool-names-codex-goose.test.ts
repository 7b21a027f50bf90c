// Codex's shell tool (`bash`, in lower case) and goose's developer tools (`developer__shell`,
// `text_editor`), typed by their users into --tools, --allow, --deny, a recipe and policy check:
// refused, as Claude Code's and Gemini CLI's names are, with what to write here. goose's
// text_editor is three tools here, chosen by its command.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string) => runInProcess(command, { cwd });
const TEXT_EDITOR = "here its commands are tools of their own, 'read_file' (view), 'edit' (str_replace, insert), 'write_file' (write)";

beforeAll(() => {
  cwd = tempDir('unattended-peer-names-');
  fs.writeFileSync(path.join(cwd, 'r.yaml'), 'version: 1\nname: t\nprompt: x\ntools: [shell, read_file]\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

async function refusal(command: string): Promise<string> {
  const r = await run(command);
  expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
  return r.stderr;
}

describe("Codex's and goose's tool names", () => {
  it.each([
    ['bash', "that is Codex's name: here it is 'shell'"],
    ['developer__shell', "that is goose's name: here it is 'shell'"],
    ['text_editor', `that is goose's name: ${TEXT_EDITOR}`],
    ['developer__text_editor', `that is goose's name: ${TEXT_EDITOR}`],
  ])('%s in --tools, --allow and --deny gets what to write here', async (name, hint) => {
    expect(await refusal(`unattended -p x --tools ${name}`)).toContain(`--tools: '${name}' is not a built-in tool: ${hint}`);
    expect(await refusal(`unattended -p x --approval allowlist --allow ${name}`)).toContain(hint);
    expect(await refusal(`unattended -p x --deny ${name}`)).toContain(hint);
  });

  it("a rule on text_editor is the same rule on each of its tools here", async () => {
    expect(await refusal("unattended -p x --deny 'text_editor(secrets/**)'")).toContain(
      "that is goose's rule syntax; here write --deny 'read_file:secrets/**' --deny 'edit:secrets/**' --deny 'write_file:secrets/**'",
    );
  });

  it('validate answers them in a recipe, at their line', async () => {
    fs.writeFileSync(path.join(cwd, 'peers.yaml'), 'version: 1\nname: t\nprompt: x\ntools: [read_file, bash, text_editor]\nconfirmation:\n  mode: allowlist\n  allow: [developer__shell]\n');
    const r = await run('unattended validate peers.yaml');
    expect(r.code).toBe(52);
    expect(r.stderr).toContain("peers.yaml:4:20: unknown tool 'bash': that is Codex's name: here it is 'shell'");
    expect(r.stderr).toContain(`peers.yaml:4:26: unknown tool 'text_editor': that is goose's name: ${TEXT_EDITOR}`);
    expect(r.stderr).toContain("peers.yaml:7:11: unknown tool 'developer__shell': that is goose's name: here it is 'shell'");
  });

  it('policy check --tool bash is denied with the name to check instead', async () => {
    const r = await run(`unattended policy check r.yaml --tool bash --args '{"command":"ls"}'`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).decision).toBe('deny');
    expect(r.stderr).toContain("--tool 'bash': that is Codex's name: here it is 'shell'");
  });

  it('developer__shell stays a tool of an MCP server the recipe calls developer', async () => {
    fs.writeFileSync(path.join(cwd, 'dev.yaml'), 'version: 1\nname: t\nprompt: x\ntools: [read_file]\nmcp_servers:\n  developer:\n    command: node\n    args: [server.js]\nconfirmation:\n  mode: allowlist\n  allow: [developer__shell]\n');
    const r = await run('unattended validate dev.yaml');
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
