import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe, RecipeError, validateRecipeFile } from '../../src/recipe/index.js';
import { BAD, CASES } from '../fixtures/recipes/bad-cases.js';


describe('malformed recipes', () => {
  it.each(CASES)('%s: %s', (file, at, fragment) => {
    const problems = validateRecipeFile(join(BAD, file));
    expect(problems.map(formatProblem)).toEqual([expect.stringContaining(`${BAD}/${file}:${at}: `)]);
    expect(problems[0]!.message).toContain(fragment);
  });

  it('loadRecipe refuses each of them with a RecipeError carrying the same problem', () => {
    for (const [file, at] of CASES) {
      const error = catchError(() => loadRecipe(join(BAD, file), { params: {} }));
      expect(error, file).toBeInstanceOf(RecipeError);
      expect((error as RecipeError).exitCode).toBe(52);
      expect((error as RecipeError).message).toContain(`${file}:${at}: `);
    }
  });

  it('every fixture in the directory is in the table', () => {
    expect(readdirSync(BAD).sort()).toEqual(CASES.map(([f]) => f).sort());
  });
});

describe('an allow rule for an MCP tool the server filters out', () => {
  // The tool exists but mcp_servers' include_tools/exclude_tools keep it from the model, so the
  // fix is there: "add it to tools" sent users to a list MCP tools do not go in.
  it.each([
    ['include_tools: [read_text_file]', 'docs__write_file', "12:7 'docs__write_file' is not offered to the model: mcp_servers.docs.include_tools does not list 'write_file' (add it there, or drop this rule)"],
    ['exclude_tools: [write_file]', 'docs__write_file', "12:7 'docs__write_file' is not offered to the model: mcp_servers.docs.exclude_tools lists 'write_file' (remove it there, or drop this rule)"],
    ['include_tools: [a]\n    exclude_tools: [a]', 'docs__*', "13:7 'docs__*' matches no tool: every tool mcp_servers.docs.include_tools names is in mcp_servers.docs.exclude_tools"],
    ['include_tools: []', 'docs__*', "12:7 'docs__*' matches no tool: mcp_servers.docs.include_tools is empty"],
  ])('%s, allow %s', (filter, rule, expected) => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-mcp-filter-'));
    try {
      const file = join(dir, 'mcp.yaml');
      const lines = ['version: 1', 'prompt: x', 'tools: [read_file]', 'mcp_servers:', '  docs:', '    command: node', '    args: [server.js]'];
      writeFileSync(file, [...lines, `    ${filter}`, 'confirmation:', '  mode: allowlist', '  allow:', `    - ${rule}`, ''].join('\n'));
      expect(validateRecipeFile(file).map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([expected]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a script that is a directory', () => {
  it('is named as one, not as a file not found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-script-dir-'));
    try {
      const file = join(dir, 'r.yaml');
      writeFileSync(file, 'version: 1\nprompt: x\nprovider: scripted\nscript: .\nconfirmation: {mode: deny}\n');
      expect(validateRecipeFile(file).map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
        `4:9 script '.' is a directory (resolved to ${dir}): name the file of recorded turns in it`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('one recipe with many problems', () => {
  it('reports every problem at once, in file order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-many-'));
    try {
      const file = join(dir, 'many.yaml');
      writeFileSync(
        file,
        [
          'version: 1',
          'prompt: Hello {{ who }}',
          'tools: [read_file, grepp]',
          'confirmation:',
          '  mode: allowlist',
          '  allow:',
          '    - shell: "rm *"',
          'limits: {max_turns: -1, timeout: soon}',
          'colour: blue',
        ].join('\n'),
      );
      const lines = validateRecipeFile(file).map((p) => `${p.line}:${p.col} ${p.message.split(':')[0]}`);
      expect(lines).toEqual([
        "2:15 placeholder '{{ who }}' names no declared parameter",
        "3:20 unknown tool 'grepp' (did you mean 'grep'?)",
        "7:7 allow rule for 'shell', which is not offered to the model",
        "8:21 'limits.max_turns' must be at least 1 (got -1)",
        "8:34 'limits.timeout'",
        "9:1 unknown key 'colour'",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a recipe larger than any model reads is refused before it is parsed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-big-'));
    try {
      const file = join(dir, 'big.yaml');
      writeFileSync(file, `version: 1\nconfirmation: {mode: deny}\nprompt: "${'x'.repeat(16 * 1024 * 1024)}"\n`);
      const started = Date.now();
      expect(validateRecipeFile(file)).toEqual([{ file, line: 1, col: 1, message: expect.stringContaining('the recipe is larger than 16 MB, far more than a model reads') }]);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a directory is one problem that says what to give instead', () => {
    expect(validateRecipeFile(BAD)).toEqual([
      { file: BAD, line: 1, col: 1, message: `cannot read recipe: ${BAD} is a directory: name a recipe file in it (${BAD}/NAME.yaml)` },
    ]);
  });

  it('a missing file is one problem, not a crash', () => {
    expect(validateRecipeFile(join(BAD, 'no-such.yaml'))).toEqual([
      { file: join(BAD, 'no-such.yaml'), line: 1, col: 1, message: 'cannot read recipe: no such file' },
    ]);
  });
});

describe('placeholders outside the fields parameters fill', () => {
  it('are problems wherever they would stay literal text, but not in descriptions nor another tool\'s template', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-literal-'));
    try {
      const file = join(dir, 'r.yaml');
      writeFileSync(
        file,
        [
          'version: 1',
          'description: Says {{ who }} hello',
          'parameters:',
          '  who: {type: string, required: true, description: "goes into {{ who }}"}',
          'prompt: say {{ who }}',
          'model: "{{ model }}"',
          'mcp_servers:',
          '  x: {command: node, args: ["--repo", "{{ who }}"], env: {TOKEN: "{{who}}"}}',
          'checks:',
          `  commands: ["docker inspect -f '{{ json .Config }}' x", "gh pr view --template '{{.title}}'", 'echo \\{{ who }}']`,
          'confirmation: {mode: deny}',
        ].join('\n'),
      );
      expect(validateRecipeFile(file).map((p) => `${p.line}:${p.col} ${p.message.split(' is not')[0]}`)).toEqual([
        "6:9 '{{ model }}' in model",
        "8:40 '{{ who }}' in mcp_servers.x.args[1]",
        "8:67 '{{who}}' in mcp_servers.x.env.TOKEN",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

describe('output.schema', () => {
  it('a schema with an $id can be checked again (the checker forgets each schema)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-output-'));
    try {
      const file = join(dir, 'triage.yaml');
      writeFileSync(file, 'version: 1\nconfirmation: {mode: deny}\noutput:\n  schema: {$id: "https://example.test/triage.json", type: object}\n');
      expect(validateRecipeFile(file)).toEqual([]);
      expect(validateRecipeFile(file)).toEqual([]);
      writeFileSync(file, 'version: 1\nconfirmation: {mode: deny}\noutput:\n  schema:\n    $ref: "#/definitions/nowhere"\n');
      expect(validateRecipeFile(file)).toEqual([
        expect.objectContaining({ line: 5, col: 5, message: expect.stringContaining("can't resolve reference #/definitions/nowhere") }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
