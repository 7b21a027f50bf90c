// Claude Code users of a gateway or an Anthropic-compatible API (z.ai, Kimi, DeepSeek, LiteLLM) set
// ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN, as those services' guides say: the run was refused,
// exit 41, "ANTHROPIC_API_KEY is not set", with no word of the token it had. The token is sent as
// Claude Code and the SDK send it (Authorization: Bearer), and, like the key, never reaches a tool.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

describe('ANTHROPIC_AUTH_TOKEN', () => {
  it('alone, it is the bearer token of every request, and a tool never sees it, even named in env.pass', async () => {
    const cwd = tempDir();
    fs.writeFileSync(
      path.join(cwd, 'r.yaml'),
      'version: 1\nprompt: Show the token\nprovider: anthropic\nmodel: claude-sonnet-4-5\ntools: [shell]\nenv: {pass: [ANTHROPIC_AUTH_TOKEN]}\nconfirmation: {mode: auto-approve}\nsandbox: {mode: "off"}\n',
    );
    const fake = await startFakeAnthropic([{ toolCalls: [{ name: 'shell', input: { command: 'echo "token=[$ANTHROPIC_AUTH_TOKEN]"' } }] }, { text: 'Done.' }]);
    try {
      const r = await cliInProcess(['run', 'r.yaml'], { cwd, env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_AUTH_TOKEN: 'gw-token-0123456789' } });
      expect([r.code, r.stdout]).toEqual([0, 'Done.']);
      expect(fake.requests).toHaveLength(2);
      for (const request of fake.requests) {
        expect(request.headers.authorization).toBe('Bearer gw-token-0123456789');
        expect(request.headers['x-api-key']).toBeUndefined();
      }
      expect(JSON.stringify(fake.requests[1]!.body)).toContain('token=[]');
    } finally {
      await fake.close();
    }
  });

  it('neither set: the refusal names both variables', async () => {
    const r = await cliInProcess(['-p', 'Fix it', '-m', 'claude-sonnet-4-5'], { cwd: tempDir(), env: {} });
    expect(r.code).toBe(41);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY is not set');
    expect(r.stderr).toContain('ANTHROPIC_AUTH_TOKEN');
  });
});

describe("a run that names no provider, with another provider's key set", () => {
  it('is told GEMINI_API_KEY is missing and that the key it has works here, with the flag that uses it', async () => {
    const claude = await cliInProcess(['-p', 'Fix it'], { cwd: tempDir(), env: { ANTHROPIC_API_KEY: 'sk-ant-0123456789' } });
    expect(claude.code).toBe(41);
    expect(claude.stderr).toContain('GEMINI_API_KEY is not set');
    expect(claude.stderr).toContain('ANTHROPIC_API_KEY is set: for Claude, --provider anthropic (or -m claude-sonnet-4-5)');
    const codex = await cliInProcess(['-p', 'Fix it'], { cwd: tempDir(), env: { OPENAI_API_KEY: 'sk-0123456789' } });
    expect(codex.code).toBe(41);
    expect(codex.stderr).toContain('OPENAI_API_KEY is set: for OpenAI, -m gpt-5');
    expect(codex.stderr).not.toContain('ANTHROPIC');
  });
});
