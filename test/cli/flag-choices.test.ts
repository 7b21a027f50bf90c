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
    // JSON lines (Codex's --json, jq's jsonl and ndjson) is stream-json: "did you mean 'json'?" sent them to one report at the end.
    [['run', '--output-format', 'jsonl', '-p', 'hi'], '--output-format must be one of text, json, stream-json (got "jsonl"): JSON lines, an event a line as it happens, is --output-format stream-json here (json prints the report once, at the end)'],
    [['run', '--output-format=ndjson', '-p', 'hi'], '--output-format must be one of text, json, stream-json (got "ndjson"): JSON lines, an event a line as it happens, is --output-format stream-json here (json prints the report once, at the end)'],
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
    // Codex's modes that ask a person, Claude Code's plan and dontAsk, the peers' default; Gemini CLI's sandbox switch and kinds.
    [['run', '--approval', 'on-request', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "on-request"): that mode asks the person at the keyboard, and nobody is here: --approval allowlist approves what --allow rules name, --approval deny refuses every call that would ask'],
    [['run', '--approval', 'untrusted', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "untrusted"): that mode asks the person at the keyboard, and nobody is here: --approval allowlist approves what --allow rules name, --approval deny refuses every call that would ask'],
    [['run', '--approval', 'default', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "default"): that mode asks the person at the keyboard, and nobody is here: --approval allowlist approves what --allow rules name, --approval deny refuses every call that would ask'],
    [['run', '--approval', 'plan', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "plan"): here plan mode is a recipe\'s `mode: plan` (read-only tools until the model calls exit_plan_mode); --approval deny keeps a run read-only'],
    [['run', '--approval', 'dontAsk', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "dontAsk"): Claude Code\'s dontAsk refuses what its allow rules do not name; here that is --approval allowlist with --allow rules'],
    [['run', '--approval', 'auto-edit', '-p', 'hi'], '--approval must be one of auto-approve, deny, allowlist (got "auto-edit"): here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file'],
    [['run', '--sandbox', 'docker', '-p', 'hi'], '--sandbox must be one of auto, required, off (got "docker"): here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: --sandbox auto, or required to refuse to run without one'],
    [['run', '-p', 'hi', '--sandbox'], '--sandbox needs a value, one of auto, required, off: here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: --sandbox auto, or required to refuse to run without one'],
  ])('%j', async (argv, message) => {
    const r = await cliInProcess(argv, { cwd: tempDir() });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([42, `unattended: ${message}`]);
  });
});
