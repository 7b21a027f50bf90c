// Codex's config.toml where a recipe or --mcp-config's JSON goes: a Codex user's first guess. It
// used to be read as YAML, which gave "not the string …" with advice to pass it as the prompt, or
// "YAML syntax error: unexpected scalar at node end" at line 2: neither said what to write here.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

let cwd: string;
const CODEX = ['# ~/.codex/config.toml', 'model = "gpt-5-codex"', 'approval_policy = "never"', 'sandbox_mode = "workspace-write"', '', '[mcp_servers.docs]', 'command = "npx"', 'args = ["-y", "docs-server"]', ''].join('\n');

beforeAll(() => {
  cwd = tempDir('unattended-codex-config-');
  fs.writeFileSync(path.join(cwd, 'config.toml'), CODEX);
  // A table first, as a config holding only MCP servers is written.
  fs.writeFileSync(path.join(cwd, 'servers.toml'), '[mcp_servers.github]\ncommand = "gh-mcp"\n\n[mcp_servers.docs]\ncommand = "npx"\n');
});
afterAll(() => removeTempDirs());

describe("Codex's config.toml", () => {
  it('given to validate or run as a recipe, is named as TOML with where each of its settings goes, exit 52', async () => {
    for (const file of ['config.toml', 'servers.toml']) {
      const v = await cliInProcess(['validate', file], { cwd });
      expect({ file, code: v.code }).toEqual({ file, code: 52 });
      expect(v.stderr).toContain(`${file}:1:1: ${file} is TOML (as Codex's config.toml is), not a recipe: a recipe is YAML`);
      expect(v.stderr).toContain('approval_policy → `confirmation.mode` (or --approval)');
      expect(v.stderr).toContain('[mcp_servers.NAME] → `mcp_servers.NAME`');
      expect(v.stderr).not.toMatch(/YAML syntax error|for the task it holds/);
    }
    // The built CLI, as shipped.
    const r = await cli(['run', 'config.toml'], { cwd });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('config.toml is TOML');
  });

  it('given to --mcp-config, is answered with the JSON it takes, named by its own servers, exit 42', async () => {
    const r = await cliInProcess(['-p', 'hi', '--mcp-config', 'servers.toml'], { cwd });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(
      `--mcp-config servers.toml: this is TOML (as Codex's config.toml is), not JSON: --mcp-config takes the mcpServers JSON Claude Code, Gemini CLI and Qwen Code use, {"mcpServers": {"github": {"command": "npx", "args": ["-y", "…"]}}}, one entry for each of 'github', 'docs'`,
    );
  });

  it('leaves a YAML recipe with a syntax error to the YAML parser', async () => {
    fs.writeFileSync(path.join(cwd, 'broken.yaml'), '[read_file]\nversion: 1\n');
    const r = await cliInProcess(['validate', 'broken.yaml'], { cwd });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('YAML syntax error');
    expect(r.stderr).not.toContain('TOML');
  });
});

describe("Gemini CLI's custom command (.gemini/commands/*.toml)", () => {
  it('given as a recipe, is named as a custom command with where its prompt goes, not as Codex settings, exit 52', async () => {
    const dir = path.join(cwd, '.gemini', 'commands');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'review.toml'), 'description = "Reviews the staged changes"\nprompt = """\nReview this diff: !{git diff --staged}\nFocus on {{args}}.\n"""\n');
    const v = await cliInProcess(['validate', '.gemini/commands/review.toml'], { cwd });
    expect(v.code).toBe(52);
    expect(v.stderr).toContain(".gemini/commands/review.toml:1:1: review.toml is TOML (as Gemini CLI's custom commands, .gemini/commands/*.toml, are), not a recipe");
    expect(v.stderr).toContain('{{args}} → a parameter (`{{ args }}`, --param args=…)');
    expect(v.stderr).not.toContain('approval_policy');
  });
});
