// A recipe that names its model but no provider goes where the model's name says, as an ad-hoc
// `-m claude-…` does: `model: claude-sonnet-4-5` alone went to Gemini and failed asking for
// GEMINI_API_KEY. A named provider (the recipe's, or --provider) always wins.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

function recipe(body: string): { file: string; dir: string } {
  const dir = tempDir('unattended-provider-from-model-');
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nprompt: Say done.\nworkspace: .\ntools: []\nconfirmation: { mode: deny }\n${body}`);
  return { file, dir };
}

describe('a recipe with a model and no provider', () => {
  it('model: claude-… runs on Anthropic; --model gpt-… over it runs on OpenAI', async () => {
    const anthropic = await startFakeAnthropic([{ text: 'Done.' }]);
    try {
      const { file, dir } = recipe('model: claude-sonnet-4-5\n');
      const env = { ANTHROPIC_API_KEY: 'sk-ant-not-secret', ANTHROPIC_BASE_URL: anthropic.url };
      const r = await cliInProcess(['run', file, '--out', path.join(dir, 'run')], { cwd: dir, env });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, 'Done.', expect.not.stringContaining('GEMINI_API_KEY')]);
      expect(anthropic.requests[0]!.body.model).toBe('claude-sonnet-4-5');
      // The flag's model names the provider when the recipe names none.
      const over = await cliInProcess(['run', file, '--model', 'gpt-5', '--out', path.join(dir, 'run2')], { cwd: dir, env: {} });
      expect([over.code, over.stderr]).toEqual([41, expect.stringContaining('OPENAI_API_KEY is not set')]);
    } finally {
      await anthropic.close();
    }
  });

  it('model: gpt-…, o3 or mistral-… without a key asks for OPENAI_API_KEY, not GEMINI_API_KEY (the built CLI)', async () => {
    for (const model of ['gpt-5', 'o3', 'mistral-large-latest']) {
      const { file, dir } = recipe(`model: ${model}\n`);
      const r = await cli(['run', file, '--out', path.join(dir, 'run')], { cwd: dir });
      expect({ model, code: r.code, stderr: r.stderr }).toEqual({ model, code: 41, stderr: expect.stringContaining('OPENAI_API_KEY is not set') });
    }
  });

  it('a named provider wins over the model: provider: gemini keeps a claude-… model on Gemini, and so does --provider', async () => {
    const gemini = await startFakeGemini([{ text: 'Done.' }, { text: 'Done.' }]);
    try {
      const env = { GEMINI_API_KEY: 'not-a-key', GOOGLE_GEMINI_BASE_URL: gemini.url };
      const named = recipe('provider: gemini\nmodel: claude-sonnet-4-5\n');
      const r = await cliInProcess(['run', named.file, '--out', path.join(named.dir, 'run')], { cwd: named.dir, env });
      expect([r.code, r.stdout]).toEqual([0, 'Done.']);
      const flag = recipe('model: claude-sonnet-4-5\n');
      const f = await cliInProcess(['run', flag.file, '--provider', 'gemini', '--model', 'gemini-2.5-pro', '--out', path.join(flag.dir, 'run')], { cwd: flag.dir, env });
      expect([f.code, f.stdout]).toEqual([0, 'Done.']);
      expect(gemini.requests.map((q) => q.model)).toEqual(['claude-sonnet-4-5', 'gemini-2.5-pro']);
    } finally {
      await gemini.close();
    }
  });

  it('provider: named by the vendor or server (claude, google, ollama) says which provider serves it', async () => {
    const said: Record<string, string> = {
      claude: ': Claude models are provider anthropic',
      google: ': Gemini models (the Gemini API and Vertex AI) are provider gemini',
      ollama: ': ollama is served through provider openai (any OpenAI-compatible endpoint), with its endpoint in base_url',
      anthropics: ": did you mean 'anthropic'?",
    };
    for (const [named, hint] of Object.entries(said)) {
      const { file, dir } = recipe(`provider: ${named}\n`);
      const r = await cliInProcess(['validate', file], { cwd: dir });
      expect([r.code, r.stderr.trim()]).toEqual([52, `${file}:6:11: 'provider' must be one of gemini, openai, anthropic, scripted (got "${named}")${hint}`]);
    }
  });

  it("validate checks provider_options against the model's provider", async () => {
    const fine = recipe('model: claude-sonnet-4-5\nprovider_options: { cache: false, thinking_budget: 2048 }\n');
    const ok = await cliInProcess(['validate', fine.file], { cwd: fine.dir });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const wrong = recipe('model: claude-sonnet-4-5\nprovider_options: { dialect: mistral }\n');
    const bad = await cliInProcess(['validate', wrong.file], { cwd: wrong.dir });
    expect(bad.code).toBe(52);
    expect(bad.stdout + bad.stderr).toContain('dialect applies to provider openai only (this recipe runs anthropic)');
  });

  it('validate warns that a recipe for provider openai without a model needs --model to run, as the run then says', async () => {
    const { file, dir } = recipe('provider: openai\n');
    const checked = await cliInProcess(['validate', file], { cwd: dir });
    const warning = "provider 'openai' has no default model: a run of this recipe needs --model NAME; set model: here to run it without";
    expect([checked.code, checked.stdout, checked.stderr]).toEqual([0, `ok ${file}`, `${file}: warning: ${warning}`]);
    const ran = await cliInProcess(['run', file, '--out', path.join(dir, 'run')], { cwd: dir, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect([ran.code, ran.stderr]).toEqual([42, expect.stringContaining("provider 'openai' needs a model")]);
    // A model named, or a provider with a default one: nothing to say.
    for (const body of ['provider: openai\nmodel: qwen3-coder\n', 'model: gpt-5\n', 'provider: anthropic\n', '']) {
      const other = recipe(body);
      const r = await cliInProcess(['validate', other.file], { cwd: other.dir });
      expect([r.code, r.stderr], body).toEqual([0, '']);
    }
  });

  it('validate names our key for an option written as the vendor API spells it', async () => {
    const { file, dir } = recipe('model: claude-sonnet-4-5\nprovider_options:\n  thinking: { type: enabled, budget_tokens: 2048 }\n  max_tokens: 4096\n');
    const r = await cliInProcess(['validate', file], { cwd: dir });
    expect([r.code, r.stderr.trim().split('\n')]).toEqual([52, [
      `${file}:8:3: unknown key 'thinking' in provider_options (the thinking budget is \`thinking_budget: TOKENS\`, at least 1024)`,
      `${file}:9:3: unknown key 'max_tokens' in provider_options (did you mean 'max_output_tokens'?)`,
    ]]);
  });
});
