// A flag given a value outside its choices is told as the recipe's checks tell the same mistake
// (what is allowed, what was given, what was probably meant), with exit 42 and nothing run; yargs
// alone said "Invalid values: Argument: provider, Given: "claude", Choices: …". The first cases run
// the built CLI (what ships, where a plain `run` line takes its own fast path first).
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('a flag value outside its choices', () => {
  it.each([
    [['run', '--provider', 'claude', '-p', 'hi'], '--provider must be one of gemini, openai, anthropic, scripted (got "claude"): Claude models are provider anthropic'],
    [['run', '-p', 'hi', '--provider=ollama'], '--provider must be one of gemini, openai, anthropic, scripted (got "ollama"): ollama is served through provider openai (any OpenAI-compatible endpoint), with its endpoint in --base-url'],
    [['run', '--sandbox', 'requried', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "requried"): did you mean \'required\'?'],
  ])('the built CLI: %j', async (argv, message) => {
    const r = await cli(argv, { cwd: tempDir() });
    expect([r.code, r.stderr.split('\n')[0], r.stdout]).toEqual([42, `unattended: ${message}`, '']);
  });

  it.each([
    [['run', '--approval', 'yes', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "yes")'],
    [['run', '--output-format', 'yaml', '-p', 'hi'], '--output-format must be one of text, json, stream-json (got "yaml")'],
    [['run', '--provider', 'gemni', '-p', 'hi'], '--provider must be one of gemini, openai, anthropic, scripted (got "gemni"): did you mean \'gemini\'?'],
    [['report', 'run-dir', '--format', 'html'], '--format must be one of md, json (got "html")'],
    // Codex's --sandbox and the peers' approval modes, typed with the flag of the same name here.
    [['run', '--sandbox', 'workspace-write', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "workspace-write"): Codex\'s sandbox mode; here the sandbox lets tools write the workspace alone: --sandbox auto (required: refuse to run without one)'],
    [['run', '--sandbox', 'danger-full-access', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "danger-full-access"): Codex\'s sandbox mode; here that is --sandbox off'],
    [['run', '--sandbox', 'read-only', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "read-only"): Codex\'s sandbox mode; here read-only is the policy\'s: --approval deny (read-only tools run, edits and commands are denied)'],
    [['run', '--approval', 'yolo', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "yolo"): here that is --approval auto-approve'],
    [['run', '--approval', 'bypassPermissions', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "bypassPermissions"): here that is --approval auto-approve'],
    [['run', '--sandbox', 'constructor', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "constructor")'],
    [['run', '--approval', 'never', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "never"): Codex asks nobody and runs every call; here that is --approval auto-approve (or allowlist with --allow rules)'],
  ])('%j', async (argv, message) => {
    const r = await cliInProcess(argv, { cwd: tempDir() });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([42, `unattended: ${message}`]);
  });
});
