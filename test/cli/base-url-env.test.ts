// A provider's base URL from the environment that is no http(s) URL (OPENAI_BASE_URL=localhost:8000,
// a scheme forgotten) is the user's setting to fix, as --base-url and a recipe's base_url are: exit
// 42, status error, naming the variable; not exit 1 "failed" as if a model call had failed.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('a base URL in the environment that is no URL', () => {
  it.each([
    ['OPENAI_BASE_URL', { OPENAI_API_KEY: 'k' }, ['-m', 'gpt-4o']],
    ['ANTHROPIC_BASE_URL', { ANTHROPIC_API_KEY: 'k' }, ['-m', 'claude-sonnet-4-5']],
    ['GOOGLE_GEMINI_BASE_URL', { GEMINI_API_KEY: 'k' }, ['-m', 'gemini-2.5-flash']],
  ])('%s=localhost:8000: exit 42 naming the variable, the report says error', async (variable, keys, flags) => {
    const dir = tempDir();
    const out = path.join(dir, 'run');
    const r = await cli(['-p', 'hi', ...flags, '--workspace', dir, '--out', out], { env: { ...keys, [variable]: 'localhost:8000' }, cwd: dir });
    expect(r.stderr).toContain(`invalid ${variable} 'localhost:8000': expected`);
    expect(r.code).toBe(42);
    const run = readRun(out);
    expect(run.report.status).toBe('error');
    expect(run.report.exit_code).toBe(42);
  });
});
