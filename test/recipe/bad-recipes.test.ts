import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe, RecipeError, validateRecipeFile } from '../../src/recipe/index.js';

const BAD = 'test/fixtures/recipes/bad';

// Each fixture has exactly one problem; its first line says what it is.
const CASES: [file: string, at: string, fragment: string][] = [
  ['yaml-syntax.yaml', '5:1', 'YAML syntax error'],
  ['duplicate-key.yaml', '6:1', "duplicate key 'prompt'"],
  ['unknown-key.yaml', '7:3', "unknown key 'max_turn' in limits (did you mean 'max_turns'?)"],
  ['missing-confirmation.yaml', '2:1', "missing required key 'confirmation'"],
  ['missing-mode.yaml', '5:3', "missing required key 'mode' in confirmation"],
  ['bad-mode.yaml', '5:9', "'confirmation.mode' must be one of auto-approve, deny, allowlist (got \"ask\")"],
  ['bad-version.yaml', '2:10', "'version' must be 1"],
  ['unknown-tool.yaml', '4:24', "unknown tool 'shel' (did you mean 'shell'?)"],
  ['unknown-mcp-alias.yaml', '6:5', "MCP server 'github', which mcp_servers does not declare"],
  ['rule-not-offered.yaml', '8:7', "allow rule for 'edit', which is not offered"],
  ['bad-shell-pattern.yaml', '7:14', '`*` may only be the last word'],
  ['rule-as-string.yaml', '7:7', 'write - shell: "git status"'],
  ['rule-without-pattern.yaml', '7:13', "rule 'shell' has no pattern"],
  ['auto-approve-with-allow.yaml', '7:5', 'allow rules apply only in allowlist mode'],
  ['undeclared-placeholder.yaml', '6:13', "placeholder '{{ target }}' names no declared parameter"],
  ['default-wrong-type.yaml', '7:14', "default of parameter 'count' must be a number"],
  ['scripted-without-script.yaml', '4:11', 'add `script: FILE`'],
  ['script-missing.yaml', '5:9', "script file 'turns/nowhere.yaml' not found"],
  ['limit-not-positive.yaml', '7:14', "'limits.max_turns' must be at least 1 (got 0)"],
  ['bad-duration.yaml', '7:12', "'10 minutes' is not a duration: use e.g. 30s, 10m, 1h"],
  ['wrong-type.yaml', '4:8', "'tools' must be a list, not the string \"shell\""],
  ['mcp-no-transport.yaml', '8:5', "MCP server 'files' needs either command (stdio) or url (HTTP)"],
  ['plan-only-without-plan.yaml', '4:12', 'plan_only needs `mode: plan`'],
  ['bad-output-schema.yaml', '10:22', "output.schema is not a valid JSON Schema: 'properties.labels.type'"],
  ['bad-branch.yaml', '7:11', "'fix lint' is not a valid branch name"],
  ['unsupported-tag.yaml', '3:9', 'unsupported tag: !include'],
  ['not-a-map.yaml', '2:1', 'a recipe is a map of keys'],
  ['empty.yaml', '1:1', 'the recipe is empty'],
];

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

  it('a missing file is one problem, not a crash', () => {
    expect(validateRecipeFile(join(BAD, 'no-such.yaml'))).toEqual([
      { file: join(BAD, 'no-such.yaml'), line: 1, col: 1, message: 'cannot read recipe: no such file' },
    ]);
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
