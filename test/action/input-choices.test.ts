// An input outside its choices names what was meant, as the CLI does for the same flag: a peer's
// approval or sandbox mode (`yolo`, `workspace-write`), a provider named by vendor, a typo.
import { afterAll, describe, expect, it } from 'vitest';
import { ActionInputError, readInputs } from '../../src/action/inputs.js';
import { removeTempDirs } from '../helpers/cli.js';
import { commandLines, removeScratch, runActionEntry } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeScratch);

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    readInputs(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ActionInputError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('an action input outside its choices', () => {
  it('refuses `approval: yolo` (exit 42) and says to write `approval: auto-approve`', async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', approval: 'yolo', 'api-key': 'k3y-choices-test-0001' });
    expect(run.code).toBe(42);
    const errors = commandLines(run.stdout).filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/approval: expected one of auto-approve, deny, allowlist, got "yolo": .*`approval: auto-approve`/);
  });

  it.each([
    ['APPROVAL', 'bypassPermissions', /`approval: auto-approve`/],
    ['APPROVAL', 'never', /`approval: auto-approve`/],
    ['APPROVAL', 'acceptEdits', /`approval: allowlist` with the lines edit and write_file in the `allow` input/],
    ['APPROVAL', 'on-request', /nobody is here: `approval: allowlist`.*`approval: deny`/],
    ['APPROVAL', 'plan', /recipe's `mode: plan`.*`approval: deny` keeps a run read-only/],
    ['SANDBOX', 'workspace-write', /`sandbox: auto`/],
    ['SANDBOX', 'danger-full-access', /`sandbox: off`/],
    ['SANDBOX', 'read-only', /`approval: deny`/],
    ['SANDBOX', 'true', /on by default: `sandbox: auto`/],
    ['SANDBOX', 'docker', /on by default: `sandbox: auto`/],
  ])('%s %s names what to write as an input', (input, value, hint) => {
    const message = refusal({ [`INPUT_${input}`]: value });
    expect(message).toMatch(new RegExp(`^${input.toLowerCase()}: expected one of .*, got "${value}": `));
    expect(message).toMatch(hint);
    // Told in the action's words, never as a flag or a recipe key.
    expect(message).not.toMatch(/--approval|--sandbox|confirmation:/);
  });

  it('names the provider for a vendor, and the nearest choice for a typo', () => {
    expect(refusal({ INPUT_PROVIDER: 'claude' })).toMatch(/got "claude": Claude models are provider anthropic/);
    expect(refusal({ INPUT_PROVIDER: 'ollama' })).toMatch(/provider openai .* endpoint in the base-url input/);
    expect(refusal({ INPUT_APPROVAL: 'auto-aprove' })).toMatch(/got "auto-aprove": did you mean 'auto-approve'\?/);
    expect(refusal({ INPUT_SANDBOX: 'requried' })).toMatch(/did you mean 'required'\?/);
  });

  it('says nothing more for a value no peer gives and nothing resembles', () => {
    expect(refusal({ INPUT_APPROVAL: 'constructor' })).toBe('approval: expected one of auto-approve, deny, allowlist, got "constructor"');
    expect(refusal({ INPUT_SANDBOX: 'xyzzy-quux' })).toBe('sandbox: expected one of auto, required, off, got "xyzzy-quux"');
  });
});
