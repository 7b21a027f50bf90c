import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adHocRecipe, InputError, loadRecipe, RecipeError, type RecipeOverrides } from '../../src/recipe/index.js';

let dir: string;
let recipeFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-overrides-'));
  mkdirSync(join(dir, 'repo'));
  mkdirSync(join(dir, 'other'));
  writeFileSync(join(dir, 'turns.yaml'), '- text: hi\n');
  recipeFile = join(dir, 'fix.yaml');
  writeFileSync(
    recipeFile,
    [
      'version: 1',
      'prompt: Fix the lint errors.',
      'provider: openai',
      'model: qwen3-coder-plus',
      'base_url: http://127.0.0.1:9/v1',
      'workspace: repo',
      'tools: [read_file, edit, shell]',
      'confirmation:',
      '  mode: allowlist',
      '  allow: [{shell: "npm run lint *"}]',
      '  deny: [{shell: "git push *"}]',
      'limits: {max_turns: 20, timeout: 5m}',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (overrides: RecipeOverrides) => loadRecipe(recipeFile, { params: {}, overrides, cwd: dir });

function inputError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('flags over a recipe', () => {
  it('beat the recipe field by field', () => {
    const recipe = load({
      prompt: 'Only fix src/.',
      model: 'qwen-max',
      approval: 'deny',
      maxTurns: 3,
      maxToolCalls: 7,
      maxTokens: 1000,
      timeout: '90s',
      workspace: 'other',
      baseUrl: 'https://dashscope.example.test/v1',
    });
    expect(recipe).toMatchObject({
      prompt: 'Only fix src/.',
      provider: 'openai',
      model: 'qwen-max',
      baseUrl: 'https://dashscope.example.test/v1',
      workspace: join(dir, 'other'),
      confirmation: { mode: 'deny' },
      limits: { maxTurns: 3, maxToolCalls: 7, maxTokens: 1000, timeoutMs: 90_000, toolTimeoutMs: 600_000 },
    });
    expect(Object.isFrozen(recipe.limits)).toBe(true);
  });

  it('add rules to the recipe rules; a flag can never drop a recipe deny rule', () => {
    const recipe = load({ allow: ['edit:README.md', 'read_file'], deny: ['shell:rm *'] });
    expect(recipe.confirmation.allow.map((r) => r.source)).toEqual(['shell: npm run lint *', 'edit: README.md', 'read_file']);
    expect(recipe.confirmation.deny).toEqual([
      { tool: 'shell', pattern: 'git push *', source: 'shell: git push *', position: { file: recipeFile, line: 11, col: 10 } },
      { tool: 'shell', pattern: 'rm *', source: 'shell: rm *' },
    ]);
  });

  it("switching provider drops the recipe's model and endpoint, which belong to the old one", () => {
    const recipe = load({ provider: 'gemini' });
    expect(recipe).toMatchObject({ provider: 'gemini', model: 'gemini-2.5-flash', baseUrl: null });
  });

  it('--provider scripted with --script (relative to the cwd) replays a recording', () => {
    const recipe = load({ provider: 'scripted', script: 'turns.yaml' });
    expect(recipe).toMatchObject({ provider: 'scripted', model: 'scripted', script: join(dir, 'turns.yaml') });
  });

  it('a flag that replaces a broken recipe field makes that problem moot', () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'version: 1\nprovider: scripted\nworkspace: gone\nconfirmation: {mode: deny}\n');
    expect(() => loadRecipe(broken, { params: {} })).toThrow(RecipeError);
    const recipe = loadRecipe(broken, { params: {}, overrides: { script: 'turns.yaml', workspace: 'repo' }, cwd: dir });
    expect(recipe).toMatchObject({ script: join(dir, 'turns.yaml'), workspace: join(dir, 'repo') });
  });

  it.each<[RecipeOverrides, string]>([
    [{ provider: 'scripted' }, 'the scripted provider replays recorded turns: pass --script FILE'],
    [{ script: 'missing.yaml' }, "--script: file 'missing.yaml' not found"],
    // A directory exists: "not found" sent users looking for something that is there.
    [{ script: '.' }, "--script: '.' is a directory (resolved to "],
    [{ workspace: 'nope' }, "--workspace 'nope' is not a directory"],
    [{ maxTurns: 0 }, '--max-turns must be a whole number of at least 1, got 0'],
    [{ maxToolCalls: 1.5 }, '--max-tool-calls must be a whole number of at least 1, got 1.5'],
    [{ maxTurns: Number.NaN }, '--max-turns must be a whole number of at least 1, got something that is not a number'],
    [{ checkRetries: Number.NaN }, '--check-retries must be a whole number of at least 0, got something that is not a number'],
    [{ checkRetries: 2 }, '--check-retries has no check to retry: add --check CMD or --require-changes (or checks: in the recipe)'],
    [{ timeout: 'soon' }, "--timeout: 'soon' is not a duration"],
    [{ timeout: '1000h' }, "--timeout: '1000h' is too long: a duration is at most 2147483s"],
    [{ checkTimeout: '2147484s' }, "--check-timeout: '2147484s' is too long"],
    [{ modelIdleTimeout: '1000h' }, "--model-idle-timeout: '1000h' is too long"],
    [{ approval: 'ask' as never }, '--approval must be one of auto-approve, deny, allowlist'],
    [{ provider: 'claude' as never }, '--provider must be one of gemini, openai, anthropic, scripted'],
    [{ baseUrl: 'localhost:8080' }, '--base-url must be an http or https URL'],
    [{ prompt: '  ' }, '--prompt is empty'],
    [{ allow: ['shel:ls'] }, "--allow 'shel:ls': unknown tool 'shel' (did you mean 'shell'?)"],
    [{ allow: ['write_file'] }, "--allow 'write_file': tool 'write_file' is not offered to the model by this recipe"],
    [{ allow: ['shell:git * diff'] }, "'*' may only be the last word"],
    [{ allow: [':ls'] }, "write 'tool:pattern' or a bare tool name"],
    // read_file never asks: a path on its allow rule would read as a limit that does not hold.
    [{ allow: ['read_file:docs/**'] }, "--allow 'read_file:docs/**': 'read_file' never asks for confirmation (it changes nothing), so an allow rule cannot limit it: every read_file call runs, whatever the pattern. To keep it from something, write a deny rule (--deny 'read_file:secrets/**')"],
    [{ allow: ['edit:/etc/passwd'] }, 'must be relative to the workspace'],
    [{ deny: ['shell:'] }, "rule 'shell' has an empty pattern"],
    [{ deny: ['web_fetch:https://evil.test'] }, 'is a URL'],
  ])('%j is an input error', (overrides, message) => {
    expect(inputError(() => load(overrides))).toContain(message);
  });

  it('--script naming a directory says so once, not also that the file is not found', () => {
    const message = inputError(() => load({ script: '.' }));
    expect(message).toMatch(/^--script: '\.' is a directory/);
    expect(message).not.toContain('not found');
  });

  it('every bad flag is named in one error', () => {
    expect(inputError(() => load({ maxTurns: -1, allow: ['nope'], timeout: 0 })).split('\n')).toHaveLength(3);
  });
});

describe('ad-hoc recipes (no recipe file)', () => {
  it('default to gemini, the core tools and deny', () => {
    const recipe = adHocRecipe({}, dir);
    expect(recipe).toMatchObject({
      file: null,
      name: 'ad-hoc',
      prompt: null,
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      workspace: dir,
      tools: ['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files', 'shell'],
      confirmation: { mode: 'deny', allow: [], deny: [] },
      limits: { maxTurns: 500, toolTimeoutMs: 600_000 },
    });
    expect(Object.isFrozen(recipe.tools)).toBe(true);
  });

  it('take everything from the flags', () => {
    const recipe = adHocRecipe(
      {
        prompt: 'Fix the typo in README.md',
        approval: 'allowlist',
        allow: ['edit:README.md', 'shell:git diff *'],
        deny: ['web_fetch:localhost:8080'],
        provider: 'openai',
        model: 'llama3',
        workspace: 'repo',
      },
      dir,
    );
    expect(recipe).toMatchObject({ prompt: 'Fix the typo in README.md', provider: 'openai', model: 'llama3', workspace: join(dir, 'repo') });
    expect(recipe.confirmation.mode).toBe('allowlist');
    expect(recipe.confirmation.allow).toEqual([
      { tool: 'edit', pattern: 'README.md', source: 'edit: README.md' },
      { tool: 'shell', pattern: 'git diff *', source: 'shell: git diff *' },
    ]);
    // split on the first ':' only, so a host keeps its port
    expect(recipe.confirmation.deny).toEqual([{ tool: 'web_fetch', pattern: 'localhost:8080', source: 'web_fetch: localhost:8080' }]);
  });

  it('openai needs a model named', () => {
    expect(inputError(() => adHocRecipe({ provider: 'openai' }, dir))).toBe("provider 'openai' needs a model: pass --model NAME (OPENAI_MODEL, Qwen Code's setting, is not read here)");
  });

  it('an --allow rule that could change nothing in the run\'s mode is refused, naming the mode and the fix', () => {
    expect(inputError(() => adHocRecipe({ allow: ['edit:README.md'] }, dir))).toBe(
      "--allow 'edit:README.md': allow rules count only in allowlist mode, and this run's mode is deny (a run without a recipe is in deny mode unless --approval says otherwise): every call that asks for confirmation is denied, so the rule would change nothing. Add --approval allowlist to approve only what the --allow rules name",
    );
    expect(inputError(() => adHocRecipe({ approval: 'deny', allow: ['shell:ls'] }, dir))).toContain("this run's mode is deny (--approval deny)");
    expect(inputError(() => adHocRecipe({ approval: 'auto-approve', allow: ['shell:ls'] }, dir))).toContain('every call is approved already');
    expect(inputError(() => load({ approval: 'deny', allow: ['edit:src/**'] }))).toContain("this run's mode is deny (--approval deny)");
    // A recipe's own allow rules under mode deny count once --approval allowlist is given.
    const denyWithAllow = join(dir, 'deny-with-allow.yaml');
    writeFileSync(denyWithAllow, 'version: 1\nprompt: p\nconfirmation: {mode: deny, allow: [{edit: README.md}]}\n');
    expect(() => loadRecipe(denyWithAllow, { params: {}, cwd: dir })).toThrow(RecipeError);
    expect(loadRecipe(denyWithAllow, { params: {}, overrides: { approval: 'allowlist' }, cwd: dir }).confirmation.mode).toBe('allowlist');
    // Under auto-approve a path rule still counts: it may name a protected path, which only an allow rule opens.
    expect(adHocRecipe({ approval: 'auto-approve', allow: ['edit:.github/workflows/**'] }, dir).confirmation.allow).toHaveLength(1);
  });

  it('an allow rule for a tool outside the default set is refused', () => {
    expect(inputError(() => adHocRecipe({ allow: ['web_fetch:docs.python.org'] }, dir))).toContain('is not offered');
  });
});
