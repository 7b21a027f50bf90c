// `unattended tools RECIPE` lists what a run would offer: discovered and MCP tools too (started,
// listed, closed), with --param for recipes that need parameters.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cleanupTempDirs, workspace, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

describe('unattended tools', () => {
  it('lists the tools of an MCP server beside the built-ins, and ends', async () => {
    const r = await cli(['tools', 'recipes/style-check.yaml', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const names = JSON.parse(r.stdout).map((d: { name: string }) => d.name);
    expect(names.sort()).toEqual(['edit', 'guide__list_directory', 'guide__read_text_file', 'read_file']);
  });

  it('lists discovered tools', async () => {
    const ws = await workspace('rename');
    const script = path.join(ROOT, 'test/fixtures/discovery');
    const { file } = writeRecipe({
      prompt: 'x',
      workspace: ws,
      tools: ['read_file'],
      confirmation: { mode: 'deny' },
      tool_discovery: { command: `bash ${script}/discover.sh snake-wrapper`, call_command: `bash ${script}/call.sh` },
    });
    const r = await cliInProcess(['tools', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^read_file\{absolute_path, offset\?, limit\?\}/m);
    expect(r.stdout).toMatch(/^word_count\{text\?\}  \[other\]\n  Counts words$/m);
    expect(r.stdout).toMatch(/^2 tools, \d+ bytes of declarations per request$/m);
  });

  it('takes --param for a recipe with required parameters', async () => {
    const missing = await cliInProcess(['tools', 'recipes/nightly-refactor.yaml']);
    expect(missing.code).toBe(42);
    expect(missing.stderr).toMatch(/deprecated/);
    const r = await cliInProcess(['tools', 'recipes/nightly-refactor.yaml', '--param', 'deprecated=a', '--param', 'replacement=b']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^todo_write\{todos\}  \[think\]$/m);
  });

  it.each([
    ['gemini', true],
    ['openai', false],
  ])('web_search with the %s provider: offered %s', async (provider, offered) => {
    const { file } = writeRecipe({ prompt: 'x', provider, model: 'm', tools: ['web_search', 'web_fetch'], confirmation: { mode: 'deny' } });
    const r = await cliInProcess(['tools', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.includes('web_search{query}')).toBe(offered);
    expect(r.stderr.includes('web_search is not offered')).toBe(!offered);
  });
});
