import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRecipe, validateRecipeFile, type Recipe } from '../../src/recipe/index.js';

const FULL_DIR = resolve('test/fixtures/recipes/full');
const FULL = join(FULL_DIR, 'full.yaml');

describe('a valid full recipe', () => {
  it('validates with no problems', () => {
    expect(validateRecipeFile(FULL)).toEqual([]);
  });

  it('loads into the expected Recipe, every field filled', () => {
    const recipe = loadRecipe(FULL, { params: { old: 'fooBar', new: 'bazQux' }, cwd: '/somewhere/else' });
    const expected: Recipe = {
      file: FULL,
      version: 1,
      name: 'rename-everything',
      description: 'Rename a symbol across the repository.',
      prompt: 'Rename fooBar to bazQux in src.\nKeep {{ literal }} braces. Dry run: false, at most 20 files.\n',
      instructions: 'You are careful. Never touch src/vendor.',
      parameters: {
        old: { type: 'string', required: true, description: 'the current name' },
        new: { type: 'string', required: true },
        dir: { type: 'string', required: false, default: 'src' },
        dry_run: { type: 'boolean', required: false, default: false },
        max_files: { type: 'number', required: false, default: 20 },
        note: { type: 'string', required: false },
      },
      provider: 'openai',
      model: 'qwen3-coder-plus',
      script: join(FULL_DIR, 'turns.yaml'),
      baseUrl: 'http://127.0.0.1:8080/v1',
      providerOptions: { stream: true, dialect: null, maxOutputTokens: null, thinkingBudget: null, cache: true, images: null },
      pricing: null,
      workspace: join(FULL_DIR, 'repo'),
      workspaceMode: 'copy',
      // mode: plan adds exit_plan_mode, or the model could never leave plan mode
      tools: ['read_file', 'edit', 'grep', 'shell', 'web_fetch', 'save_memory', 'todo_write', 'exit_plan_mode'],
      confirmation: {
        mode: 'allowlist',
        allow: [
          { tool: 'read_file', pattern: null, source: 'read_file', position: { file: FULL, line: 36, col: 7 } },
          { tool: 'edit', pattern: 'src/**', source: 'edit: src/**', position: { file: FULL, line: 37, col: 7 } },
          { tool: 'shell', pattern: 'git diff *', source: 'shell: git diff *', position: { file: FULL, line: 38, col: 7 } },
          { tool: 'web_fetch', pattern: '*.python.org', source: 'web_fetch: *.python.org', position: { file: FULL, line: 39, col: 7 } },
          { tool: 'files__read_text_file', pattern: null, source: 'files__read_text_file', position: { file: FULL, line: 40, col: 7 } },
          { tool: 'probe', pattern: null, source: 'probe', position: { file: FULL, line: 41, col: 7 } },
        ],
        deny: [
          { tool: 'shell', pattern: 'git push *', source: 'shell: git push *', position: { file: FULL, line: 43, col: 7 } },
          { tool: 'write_file', pattern: null, source: 'write_file', position: { file: FULL, line: 44, col: 7 } },
        ],
      },
      limits: { maxTurns: 30, maxToolCalls: 200, timeoutMs: 900_000, maxTokens: 500_000, maxCostUsd: null, toolTimeoutMs: 90_000, modelIdleTimeoutMs: 45_000, modelRetries: 3, maxDenials: 0, contextTokens: null, compactAt: 0.7 },
      env: { pass: ['GITHUB_TOKEN', 'CI'] },
      mcpServers: [
        {
          alias: 'files',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
          env: { LOG_LEVEL: 'warn' },
          cwd: join(FULL_DIR, 'repo'),
          url: null,
          headers: {},
          timeoutMs: 20_000,
          includeTools: ['read_text_file', 'list_directory'],
          excludeTools: [],
          trust: true,
          required: true,
          sandbox: true,
        },
        {
          alias: 'issues',
          command: null,
          args: [],
          env: {},
          cwd: null,
          url: 'https://mcp.example.test/mcp',
          headers: { Authorization: 'Bearer token' },
          timeoutMs: 60_000,
          includeTools: null,
          excludeTools: ['delete_issue'],
          trust: false,
          required: false,
        },
      ],
      toolDiscovery: { command: './tools/discover.sh', callCommand: './tools/call.sh', timeoutMs: 500 },
      output: {
        schema: { type: 'object', required: ['renamed'], properties: { renamed: { type: 'integer' } } },
        maxAttempts: 2,
      },
      mode: 'plan',
      planOnly: false,
      memory: { file: join(FULL_DIR, 'notes/memory.md'), load: true },
      git: {
        section: 'git',
        branch: 'rename/fooBar-to-bazQux',
        commitMessage: 'Rename fooBar to bazQux',
        push: true,
        author: { name: 'Unattended Bot', email: 'bot@example.test' },
        pullRequest: null,
      },
      checks: { requireChanges: true, commands: ['npm test', 'git diff --check'], retries: 2, timeoutMs: 300_000 },
      failOnDenial: true,
      input: 'required',
      sandbox: {
        mode: 'required',
        network: ['registry.npmjs.org', '*.github.com'],
        writable: [join(FULL_DIR, 'cache'), '~/.npm'],
        hide: ['~/.config/secret-tool'],
      },
      context: { files: ['AGENTS.md'], maxBytes: 32768 },
      telemetry: null,
    };
    expect(recipe).toEqual(expected);
  });

  it('is deeply frozen: nothing downstream can loosen the policy mid-run', () => {
    const recipe = loadRecipe(FULL, { params: { old: 'a', new: 'b' } });
    expect(Object.isFrozen(recipe)).toBe(true);
    expect(() => (recipe.confirmation.allow as unknown[]).push({ tool: 'shell', pattern: null, source: 'shell' })).toThrow();
    expect(() => {
      (recipe.confirmation as { mode: string }).mode = 'auto-approve';
    }).toThrow();
    expect(() => {
      (recipe.output.schema as Record<string, unknown>).type = 'string';
    }).toThrow();
    expect(recipe.confirmation.mode).toBe('allowlist');
  });
});

describe('a minimal recipe', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writeRecipe(name: string, text: string): string {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  }

  it('gets the documented defaults', () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-min-'));
    const file = writeRecipe('summarize.yaml', 'version: 1\nconfirmation: {mode: deny}\n');
    const recipe = loadRecipe(file, { params: {}, cwd: dir });
    expect(recipe).toMatchObject({
      name: 'summarize',
      description: '',
      prompt: null,
      instructions: null,
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      script: null,
      baseUrl: null,
      workspace: dir,
      workspaceMode: 'in-place',
      tools: ['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files', 'shell'],
      confirmation: { mode: 'deny', allow: [], deny: [] },
      limits: { maxTurns: 500, maxToolCalls: null, timeoutMs: null, maxTokens: null, toolTimeoutMs: 600_000, modelIdleTimeoutMs: 60_000, modelRetries: 5 },
      env: { pass: [] },
      mcpServers: [],
      toolDiscovery: null,
      output: { schema: null, maxAttempts: 3 },
      mode: 'default',
      planOnly: false,
      memory: { file: null, load: false },
      git: null,
      sandbox: { mode: 'auto', network: false, writable: [], hide: [] },
      context: { files: ['AGENTS.md'], maxBytes: 32768 },
      telemetry: null,
    });
  });

  it('resolves workspace, script, memory file and MCP cwd against the recipe directory, not the cwd', () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-paths-'));
    mkdirSync(join(dir, 'recipes/turns'), { recursive: true });
    mkdirSync(join(dir, 'repo'));
    writeFileSync(join(dir, 'recipes/turns/demo.yaml'), '- text: hi\n');
    const file = join(dir, 'recipes/demo.yaml');
    writeFileSync(
      file,
      [
        'version: 1',
        'provider: scripted',
        'script: turns/demo.yaml',
        'workspace: ../repo',
        'memory: {file: ../state/memory.md}',
        'mcp_servers: {fs: {command: server, cwd: ..}}',
        'confirmation: {mode: deny}',
      ].join('\n'),
    );
    const recipe = loadRecipe(file, { params: {}, cwd: '/' });
    expect(recipe.script).toBe(join(dir, 'recipes/turns/demo.yaml'));
    expect(recipe.workspace).toBe(join(dir, 'repo'));
    expect(recipe.memory.file).toBe(join(dir, 'state/memory.md'));
    expect(recipe.mcpServers[0]!.cwd).toBe(dir);
    expect(recipe.model).toBe('scripted');
  });

  it('a relative recipe path still gives an absolute file and paths', () => {
    const recipe = loadRecipe('test/fixtures/recipes/full/full.yaml', { params: { old: 'a', new: 'b' } });
    expect(recipe.file).toBe(FULL);
    expect(recipe.workspace).toBe(join(FULL_DIR, 'repo'));
  });
});
