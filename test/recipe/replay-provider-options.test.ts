// A recipe that keeps recorded turns beside its live provider is replayed with --provider scripted
// (README: Recipes, `script`), and so is a --record of a live run. A recipe for Anthropic with
// extended thinking or caching was refused at that replay: "thinking_budget applies to provider
// anthropic only (this recipe runs scripted): remove it", exit 52, for a recipe validate said was
// ok. A replay reads no provider option; they stay checked against the live provider, and a flag
// that really moves the run to another provider is named as what to change.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

function anthropicRecipe(): { file: string; dir: string } {
  const dir = tempDir('unattended-replay-options-');
  fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Replayed.\n');
  const file = path.join(dir, 'think.yaml');
  fs.writeFileSync(
    file,
    [
      'version: 1',
      'prompt: Say done.',
      'provider: anthropic',
      'model: claude-sonnet-4-5',
      'provider_options: { thinking_budget: 2048, cache: false }',
      'script: turns.yaml',
      'workspace: .',
      'confirmation: { mode: deny }',
      '',
    ].join('\n'),
  );
  return { file, dir };
}

describe("a live provider's options under --provider scripted", () => {
  it('the recipe replays its recorded turns, as validate said it could', async () => {
    const { file, dir } = anthropicRecipe();
    const checked = await cliInProcess(['validate', file], { cwd: dir });
    expect(checked.code).toBe(0);
    const r = await cliInProcess(['run', file, '--provider', 'scripted', '--out', path.join(dir, 'replay')], { cwd: dir, env: {} });
    expect([r.code, r.stdout]).toEqual([0, 'Replayed.']);
  });

  it('a flag that sends the run to another live provider is refused naming the flag', async () => {
    const { file, dir } = anthropicRecipe();
    const r = await cliInProcess(['run', file, '--provider', 'openai', '--model', 'gpt-4o', '--out', path.join(dir, 'moved')], { cwd: dir, env: { OPENAI_API_KEY: 'not-a-key' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain("thinking_budget applies to provider anthropic only (--provider openai makes this run openai): remove it, or run the recipe's own provider, anthropic");
  });
});
