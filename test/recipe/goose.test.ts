// goose recipes load as recipes of ours: recognised by their shape, converted field by field, every
// ignored or changed field a warning, problems reported at the goose file's own lines, and the
// fail-closed default policy (mode deny) unless --approval says otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertRecipeFile, inspectRecipeFile, loadRecipe, RecipeError, validateRecipeFile, type Recipe } from '../../src/recipe/index.js';
import { ROOT, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const FIXTURES = path.join(ROOT, 'test/fixtures/goose');
const REVIEW = path.join(FIXTURES, 'code-review.yaml');
const RELEASE = path.join(FIXTURES, 'release-notes.json');

function load(file: string, params: Record<string, string> = {}, overrides = {}): Recipe {
  return loadRecipe(file, { params, overrides, cwd: ROOT });
}

function gooseFile(body: string): string {
  const file = path.join(tempDir(), 'recipe.yaml');
  fs.writeFileSync(file, body);
  return file;
}

const REVIEW_PARAMS = { language: 'TypeScript', checklist: 'CHECKLIST.md', reviewer: 'Ada' };

describe('a goose recipe in the CLI format', () => {
  const recipe = load(REVIEW, REVIEW_PARAMS);

  it('keeps title, description, instructions and prompt, with goose templating turned into ours', () => {
    expect(recipe.name).toBe('Code Review Assistant');
    expect(recipe.description).toBe('Review code for a focus area and report findings as JSON');
    expect(recipe.instructions).toContain('You are a careful TypeScript code reviewer. Focus on best practices.');
    expect(recipe.instructions).toContain('Review at most 10 files. Strict mode: false.');
    // {{'{{TICKET}}'}} is goose's literal braces; {{ recipe_dir }} its built-in variable.
    expect(recipe.instructions).toContain('like {{TICKET}}.');
    expect(recipe.instructions).toContain(`The style guide is ${FIXTURES}/style-guide.md.`);
    // The indent filter is dropped, the value kept.
    expect(recipe.prompt).toContain('Checklist:\n  CHECKLIST.md\nOutput format: json. Reviewer: Ada.');
  });

  it('turns list-form parameters into typed ones: goose\u2019s string defaults become numbers and booleans', () => {
    expect(recipe.parameters).toMatchObject({
      language: { type: 'string', required: true, description: 'Programming language to review' },
      focus: { type: 'string', required: false, default: 'best practices' },
      max_files: { type: 'number', required: false, default: 10 },
      strict: { type: 'boolean', required: false, default: false },
      output_format: { type: 'string', required: false, default: 'json' },
      checklist: { type: 'string', required: true },
      reviewer: { type: 'string', required: true },
    });
    // A user_prompt parameter has nobody to ask: without --param it is missing, as a required one is.
    expect(() => load(REVIEW, { language: 'Go', checklist: 'c.md' })).toThrow(/missing required parameter 'reviewer'/);
    expect(load(REVIEW, { ...REVIEW_PARAMS, max_files: '3' }).instructions).toContain('Review at most 3 files.');
  });

  it('maps developer to the built-in tools, stdio and HTTP extensions to MCP servers, todo to todo_write', () => {
    expect(recipe.tools).toEqual(['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files', 'shell', 'todo_write']);
    expect(recipe.mcpServers).toEqual([
      expect.objectContaining({ alias: 'filesystem', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { LOG_LEVEL: 'warn' }, timeoutMs: 120_000, includeTools: ['read_text_file', 'list_directory'], url: null }),
      expect.objectContaining({ alias: 'Issue-Tracker', url: 'http://127.0.0.1:8931/mcp', headers: { 'X-Team': 'platform' }, timeoutMs: 60_000, command: null }),
    ]);
    expect(recipe.env.pass).toEqual(['FS_TOKEN']);
  });

  it('maps settings to provider, model and turn limit; response to output.schema; retry to checks', () => {
    expect([recipe.provider, recipe.model, recipe.limits.maxTurns]).toEqual(['anthropic', 'claude-sonnet-4-5', 40]);
    expect(recipe.output.schema).toMatchObject({ type: 'object', required: ['summary', 'findings'] });
    expect(recipe.checks).toMatchObject({ commands: ['test -f REVIEW.md'], retries: 2, timeoutMs: 30_000 });
  });

  it('fails closed: mode deny, unless --approval says otherwise', () => {
    expect(recipe.confirmation).toMatchObject({ mode: 'deny', allow: [], deny: [] });
    const approved = load(REVIEW, REVIEW_PARAMS, { approval: 'allowlist', allow: ['shell:npm test'] });
    expect(approved.confirmation.mode).toBe('allowlist');
    expect(approved.confirmation.allow.map((r) => r.source)).toEqual(['shell: npm test']);
    expect(approved.conversion!.warnings.some((w) => w.includes('confirmation'))).toBe(false);
  });

  it('warns once for every field it ignores or changes', () => {
    const fields = recipe.conversion!.warnings.map((w) => /^goose recipe: (.*?): /.exec(w)![1]);
    expect(fields).toEqual([
      'activities',
      'author',
      'settings.temperature',
      'prompt',
      "parameters 'output_format'",
      "parameters 'checklist'",
      "parameters 'reviewer'",
      "extensions[1] 'filesystem'.env_keys",
      "extensions[2] 'Issue Tracker'",
      "extensions[4] 'computercontroller'",
      "extensions[5] 'stats'",
      'confirmation',
      'retry.on_failure',
      'retry',
    ]);
    expect(recipe.conversion!.warnings.find((w) => w.includes("parameters 'checklist'"))).toMatch(/goose inserts the file's content; here the value given \(the path\)/);
  });
});

describe('a goose Desktop recipe (JSON) with sub-recipes', () => {
  const recipe = load(RELEASE, { version_tag: '2.1.0' });

  it('unwraps the recipe, and offers the sub-recipes as tasks for sub-agents in the instructions', () => {
    expect(recipe.name).toBe('Release notes');
    expect(recipe.prompt).toBe('Draft the release notes for version 2.1.0: run the changelog sub-recipe, then the lint sub-recipe on the result.');
    expect(recipe.tools).toContain('task');
    const text = recipe.instructions!;
    expect(text).toContain('### changelog');
    // `values` filled in (naming the parent's parameter), a default used, an open value left to the caller.
    expect(text).toContain('List the user-visible changes since v2.1.0 for <audience>, one line each, grouped by component.');
    expect(text).toContain('Values to fill in:\n- <audience>: Who reads the notes');
    expect(text).toContain('### lint\n\nCheck Markdown style\n\nCheck the Markdown files for heading levels');
  });

  it('says what it ignored: Desktop metadata, the sub-recipes\u2019 own settings and extensions', () => {
    expect(recipe.conversion!.warnings).toEqual([
      'goose recipe: name, isGlobal, lastModified, isArchived: goose Desktop metadata; ignored',
      "goose recipe: sub_recipes[0] 'changelog': its extensions ignored: a sub-agent shares the run's tools, model and policy",
      "goose recipe: sub_recipes[1] 'lint'.sequential_when_repeated: ignored: sub-agents run one at a time here",
      "goose recipe: sub_recipes[1] 'lint': its settings ignored: a sub-agent shares the run's tools, model and policy",
      expect.stringMatching(/^goose recipe: confirmation: goose recipes have no confirmation policy, so this one runs with mode deny/),
    ]);
  });
});

describe('goose templates', () => {
  it('keep what has a plain equivalent and warn about filters and statements', () => {
    const file = gooseFile(
      [
        'title: Templates',
        'description: d',
        'parameters:',
        '  - {key: name, input_type: string, requirement: required, description: who}',
        'prompt: |',
        '  Hello {{ name | upper }}{# a comment #}.',
        '  {% if name %}Named.{% endif %}',
        '  Literal: {{ "{{name}}" }} and {{ name }}.',
      ].join('\n'),
    );
    const recipe = load(file, { name: 'Ada' });
    expect(recipe.prompt).toBe('Hello Ada.\n{% if name %}Named.{% endif %}\nLiteral: {{name}} and Ada.\n');
    expect(recipe.conversion!.warnings).toEqual([
      "goose recipe: prompt: the filter '| upper' on 'name' is not applied (the value is inserted as it is)",
      "goose recipe: prompt: the template statement '{% if name %}' is not evaluated (it stays in the text as written)",
      "goose recipe: prompt: the template statement '{% endif %}' is not evaluated (it stays in the text as written)",
      expect.stringMatching(/^goose recipe: confirmation: /),
    ]);
  });
});

describe('goose templates outside the prompt', () => {
  it('resolve recipe_dir in extension commands and check commands; a parameter there is reported, not filled', () => {
    const file = gooseFile(
      [
        'title: Companion files',
        'description: d',
        'prompt: Go',
        'parameters:',
        '  - {key: token, input_type: string, requirement: optional, default: x, description: t}',
        'extensions:',
        '  - {type: stdio, name: local, cmd: python3, args: ["{{ recipe_dir }}/server.py", "--token={{ token }}"]}',
        'retry:',
        '  max_retries: 1',
        '  checks: [{type: shell, command: "{{ recipe_dir }}/check.sh"}]',
      ].join('\n'),
    );
    const recipe = load(file);
    const dir = path.dirname(file);
    expect(recipe.mcpServers[0]).toMatchObject({ command: 'python3', args: [`${dir}/server.py`, '--token={{ token }}'] });
    expect(recipe.checks.commands).toEqual([`${dir}/check.sh`]);
    expect(recipe.conversion!.warnings).toContain(
      "goose recipe: extensions[0] 'local'.args: '{{ token }}' is not filled in here (parameters fill the prompt and instructions only); it stays as written",
    );
  });
});

describe('problems in a goose recipe', () => {
  it('are reported at the goose file\u2019s lines', () => {
    const file = gooseFile(
      [
        'version: "1.0.0"',
        'title: Broken',
        'description: x',
        'prompt: "Fix {{ file_name }}"',
        'extensions:',
        '  - type: stdio',
        '    name: tools',
        '    args: [serve]',
        'settings:',
        '  max_turns: 0',
        'sub_recipes:',
        '  - name: missing',
        '    path: ./nowhere.yaml',
        'retry:',
        '  max_retries: 2',
        '  checks: []',
      ].join('\n'),
    );
    const problems = validateRecipeFile(file).map((p) => `${p.line}:${p.col}: ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(/^4:14: placeholder '\{\{ file_name \}\}' names no declared parameter/),
      "6:5: extension 'tools' needs either cmd (type: stdio) or uri (type: streamable_http)",
      "10:14: 'settings.max_turns' must be at least 1 (got 0)",
      expect.stringMatching(/^13:11: sub-recipe 'missing': cannot read .*nowhere\.yaml: no such file/),
      '15:16: retry.max_retries has no check to retry: add retry.checks: [{type: shell, command: …}]',
    ]);
  });

  it("name the goose file's fields, not those of the recipe it converts to", () => {
    const file = gooseFile(
      [
        'version: "1.0.0"',
        'title: Broken',
        'prompt: go',
        'settings:',
        '  goose_model: 7',
        'retry:',
        '  max_retries: "x"',
        '  checks: [{type: shell, command: "npm test"}]',
        'response:',
        '  json_schema: {type: objectt}',
        'extensions:',
        '  - {type: stdio, name: gh, cmd: ""}',
        '  - {type: streamable_http, name: web, uri: "ftp://x"}',
      ].join('\n'),
    );
    const problems = validateRecipeFile(file).map((p) => `${p.line}:${p.col}: ${p.message}`);
    expect(problems).toEqual([
      `7:16: 'retry.max_retries' must be a whole number, not the string "x"`,
      "10:23: response.json_schema is not a valid JSON Schema: 'type' must be equal to one of the allowed values",
      "12:34: 'extensions[0].cmd' must not be empty",
      "13:45: 'extensions[1].uri' must be an http or https URL, got 'ftp://x'",
    ]);
  });

  it('a malformed field is never dropped in silence: an error where losing it changes what runs, else a warning', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'child.yaml'), 'version: 1.0.0\ntitle: child\ndescription: c\ninstructions: polish {{ thing }}\n');
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(
      file,
      [
        'version: "1.0.0"',
        'title: Malformed',
        'description: x',
        'prompt: go',
        'settings: {goose_model: 5}',
        'extensions:',
        '  - {type: stdio, name: srv, cmd: npx, args: "not-a-list", envs: "x", timeout: abc, env_keys: KEY, env: {A: b}}',
        '  - {type: stdio, name: two, cmd: node, args: [s.js, {a: 1}], available_tools: read}',
        '  - {type: builtin, name: developer, available_tools: shell}',
        'retry: {max_retries: 1, timeout_seconds: abc, checks: [{type: shell, command: "true"}]}',
        'sub_recipes:',
        '  - {name: child, path: child.yaml, values: {bogus: 1, thing: widget}}',
        '  - {name: other, path: child.yaml, values: "zz"}',
      ].join('\n'),
    );
    expect(validateRecipeFile(file).map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      expect.stringMatching(/^7:46: extensions\[0\] 'srv'\.args must be a list of arguments .*got "not-a-list"/),
      expect.stringMatching(/^8:47: extensions\[1\] 'two'\.args must be a list of arguments .*got a list holding a map$/),
      expect.stringMatching(/^8:80: extensions\[1\] 'two'\.available_tools must be a list of tool names, got "read"/),
      expect.stringMatching(/^9:55: extensions\[2\] 'developer'\.available_tools must be a list of tool names, got "shell"/),
    ]);
    const { warnings } = inspectRecipeFile(file);
    for (const warning of [
      "settings.goose_model: must be a model name, got 5; ignored",
      "extensions[0] 'srv'.envs: must be a map of names to text, got \"x\"; ignored",
      "extensions[0] 'srv'.timeout: must be a number of seconds above 0, got \"abc\"; ignored",
      "extensions[0] 'srv'.env_keys: must be a list of variable names, got \"KEY\"; ignored",
      "extensions[0] 'srv'.env: not a goose extension field; ignored",
      'retry.timeout_seconds: must be a number of seconds above 0, got "abc"; ignored',
      "sub_recipes[0] 'child'.values.bogus: the sub-recipe has no parameter 'bogus' and its text never uses it; ignored",
      "sub_recipes[1] 'other'.values: must be a map of the sub-recipe's parameters to values, got \"zz\"; ignored",
    ]) {
      expect(warnings.some((w) => w.startsWith(`goose recipe: ${warning}`)), warning).toBe(true);
    }
    expect(warnings.some((w) => w.includes("'child'.values.thing"))).toBe(false);
  });

  it('a default that is not of its parameter\'s type is one problem, at the default', () => {
    const file = gooseFile(
      ['version: "1.0.0"', 'title: t', 'description: d', 'prompt: "{{ n }} {{ b }}"', 'parameters:', '  - {key: n, input_type: number, requirement: optional, description: x, default: abc}', '  - {key: b, input_type: boolean, requirement: user_prompt, description: x, default: maybe}'].join('\n'),
    );
    expect(validateRecipeFile(file).map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      `6:82: default of parameter 'n' must be a number (the parameter's type), not "abc"`,
      `7:86: default of parameter 'b' must be a boolean (the parameter's type), not "maybe"`,
    ]);
  });

  it('an optional parameter with no default is a problem, as goose makes it: the text would lose the words where it stands', () => {
    const file = gooseFile(['version: "1.0.0"', 'title: t', 'description: d', 'prompt: "Say hello to {{ who }} in English."', 'parameters:', '  - {key: who, input_type: string, requirement: optional, description: x}'].join('\n'));
    expect(validateRecipeFile(file).map((p) => `${p.line}: ${p.message}`)).toEqual([
      "6: optional parameter 'who' has no default (goose requires one): add default: VALUE, or make it requirement: required",
    ]);
    expect(() => load(file)).toThrow(RecipeError);
  });

  it('a sub-recipe is read as a recipe is: UTF-8, not a directory', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from('title: x\ninstructions: caf\xe9\n', 'latin1'));
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(file, 'version: 1.0.0\ntitle: t\ndescription: d\nprompt: hi\nsub_recipes:\n  - {name: a, path: latin1.yaml}\n  - {name: b, path: .}\n');
    expect(validateRecipeFile(file).map((p) => `${p.line}: ${p.message}`)).toEqual([
      `6: sub-recipe 'a': cannot read ${dir}/latin1.yaml: it is not UTF-8 text: byte 0xe9 at line 2, column 18 is not valid UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8`,
      `7: sub-recipe 'b': cannot read ${dir}: ${dir} is a directory: name a recipe file in it (${dir}/NAME.yaml)`,
    ]);
  });

  it('a run refuses them before any model call (RecipeError, exit 52)', () => {
    const file = gooseFile('title: t\ndescription: d\nprompt: p\nparameters: {a: 1}\n');
    expect(() => load(file)).toThrow(RecipeError);
    const empty = gooseFile('version: "1.0.0"\ntitle: Nothing to do\ndescription: d\n');
    expect(validateRecipeFile(empty).map((p) => p.message)).toEqual(['a goose recipe needs instructions or prompt (or both)']);
  });
});

describe('convertRecipeFile', () => {
  it('refuses a recipe already in our format', () => {
    expect(() => convertRecipeFile(path.join(ROOT, 'recipes/demo.yaml'))).toThrow(/not a goose recipe .* already in unattended's format/);
  });

  it('is not fooled by a recipe of ours: no title, version 1', () => {
    const problems = validateRecipeFile(path.join(ROOT, 'recipes/rename-symbol.yaml'));
    expect(problems).toEqual([]);
  });
});
