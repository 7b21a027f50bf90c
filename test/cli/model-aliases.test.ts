// `--model sonnet` as Claude Code takes it, `-m flash` as Gemini CLI does: those tools turn the alias
// into a model's full name, and the APIs take only that. Here the alias settled no provider: the run
// went to Gemini asking for a model named "sonnet" (or, with only ANTHROPIC_API_KEY set, said
// GEMINI_API_KEY is not set). Refused before any request, with the full name to give.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { runInProcess } from './in-process.js';

afterAll(removeTempDirs);

describe("a peer's model alias", () => {
  it("Claude Code's --model sonnet is refused, exit 42, with the model's full name, and no request is sent", async () => {
    const cwd = tempDir();
    const r = await runInProcess('unattended -p "Fix the typo" --model sonnet', { cwd });
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("--model 'sonnet' is Claude Code's alias");
    expect(r.stderr).toContain('--model claude-sonnet-4-5');
    const long = await runInProcess('unattended -p "Fix the typo" -m "opus[1m]"', { cwd });
    expect([long.code, long.requests.length]).toEqual([42, 0]);
    expect(long.stderr).toContain('--model claude-opus-4-1');
  });

  it("Gemini CLI's -m flash is refused the same way, with gemini-2.5-flash", async () => {
    const r = await runInProcess('unattended -p "Explain this repository" -m flash', { cwd: tempDir() });
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("--model 'flash' is Gemini CLI's alias");
    expect(r.stderr).toContain('--model gemini-2.5-flash');
  });

  it("a recipe's model: haiku is a recipe problem at its line, exit 52", async () => {
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'r.yaml'), 'version: 1\nprompt: Fix the typo\nmodel: haiku\nconfirmation: {mode: deny}\n');
    const r = await runInProcess('unattended run r.yaml', { cwd });
    expect([r.code, r.requests.length]).toEqual([52, 0]);
    expect(r.stderr).toContain("r.yaml:3:8: model 'haiku' is Claude Code's alias");
    expect(r.stderr).toContain('model: claude-haiku-4-5');
    // A --model given replaces it: nothing to say about the recipe's.
    const replaced = await runInProcess('unattended run r.yaml --model gemini-2.5-flash', { cwd });
    expect([replaced.code, replaced.requests.length]).toEqual([0, 1]);
  });

  it('behind the OpenAI-compatible provider the name is sent as it is: a gateway may serve a model called sonnet', async () => {
    const fake = await startFakeOpenAI([{ text: 'Done.' }]);
    try {
      const r = await cliInProcess(['-p', 'Fix the typo', '--provider', 'openai', '--base-url', fake.url, '-m', 'sonnet'], { cwd: tempDir(), env: { OPENAI_API_KEY: 'k' } });
      expect(r.code).toBe(0);
      expect(fake.requests[0]!.body.model).toBe('sonnet');
    } finally {
      await fake.close();
    }
  });
});

// aider's -m is its --message: `aider -m "fix the typo"` typed here took the task for the model's name.
describe("aider's -m (--message): a task given as the model", () => {
  it('alone, it is refused as no model, with -p to give it (it said only "give a task")', async () => {
    const r = await runInProcess('unattended -m "Fix the typo in README.md"', { cwd: tempDir() });
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("--model 'Fix the typo in README.md' is no model's name (it has spaces): -m is --model here");
    expect(r.stderr).toContain("unattended -p 'Fix the typo in README.md'");
  });

  it('with a prompt piped, or given with -p, it is exit 42 before any run, not a failed run (exit 1)', async () => {
    const cwd = tempDir();
    for (const [command, stdin] of [['unattended -m "fix the typo"', 'README.md has a typo'], ['unattended -p "Fix it" -m "add docstrings to utils.py"', null]] as const) {
      const r = await runInProcess(command, { cwd, stdin });
      expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
      expect(r.stderr).toContain("is no model's name (it has spaces)");
    }
    // No run directory was made for either: nothing ran.
    expect(fs.existsSync(path.join(cwd, '.unattended/runs'))).toBe(false);
  });
});

// Gemini CLI reads GEMINI_MODEL, Claude Code ANTHROPIC_MODEL, Qwen Code OPENAI_MODEL: here only flags
// and the recipe choose the model, and a run on another model than the one set went without a word.
describe("a peer's model variable", () => {
  it('GEMINI_MODEL naming another model than the run uses is warned of, with the --model that takes it', async () => {
    const cwd = tempDir();
    const r = await runInProcess('unattended -p "Explain this repository" --output-format json', { cwd, env: { GEMINI_MODEL: 'gemini-2.5-pro' } });
    expect(r.code).toBe(0);
    expect(r.requests[0]!.model).toBe('gemini-2.5-flash');
    const warning = "GEMINI_MODEL=gemini-2.5-pro is Gemini CLI's setting, which is not read here: this run uses gemini-2.5-flash (the provider's default); for gemini-2.5-pro, give --model gemini-2.5-pro";
    expect(JSON.parse(r.stdout).warnings).toContain(warning);
    // Named with --model, or the same model: nothing to say.
    for (const command of ['unattended -p "Explain" -m gemini-2.5-pro --output-format json', 'unattended -p "Explain" -m gemini-2.5-flash --output-format json']) {
      const named = await runInProcess(command, { cwd, env: { GEMINI_MODEL: 'gemini-2.5-pro' } });
      expect({ command, code: named.code, warnings: JSON.parse(named.stdout).warnings }).toEqual({ command, code: 0, warnings: [] });
    }
  });

  it("Qwen Code's OPENAI_MODEL with no --model: the refusal of a model-less openai run names the variable as unread", async () => {
    const cwd = tempDir();
    const r = await runInProcess('unattended -p hi --provider openai', { cwd, env: { OPENAI_MODEL: 'qwen3-coder-plus', OPENAI_API_KEY: 'x' } });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain("provider 'openai' needs a model: pass --model NAME (OPENAI_MODEL, Qwen Code's setting, is not read here)");
    expect(r.requests).toHaveLength(0);
  });
});
