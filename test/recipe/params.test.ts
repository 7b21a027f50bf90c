import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, loadRecipe, validateRecipeFile } from '../../src/recipe/index.js';
import { parseParamPairs } from '../../src/recipe/params.js';

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-params-'));
  file = join(dir, 'rename.yaml');
  writeFileSync(
    file,
    [
      'version: 1',
      'prompt: "Rename {{old}} to {{ new }} ({{  old  }} again); limit {{ limit }}, dry {{ dry }}, tag [{{ tag }}]"',
      'instructions: "Work on {{ new }}. Literal: \\\\{{ new }}"',
      'parameters:',
      '  old: {description: the current name}',
      '  new: {type: string, required: true}',
      '  limit: {type: number, default: 10}',
      '  dry: {type: boolean, default: true}',
      '  tag: {required: false}',
      'git: {branch: "rename/{{ new }}", commit_message: "Rename {{ old }}"}',
      'confirmation: {mode: deny}',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (params: Record<string, string>) => loadRecipe(file, { params, cwd: dir });

function inputError(params: Record<string, string>): string {
  try {
    load(params);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).exitCode).toBe(42);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('parameter substitution', () => {
  it('fills every placeholder, whitespace inside the braces or not, and uses defaults', () => {
    const recipe = load({ old: 'foo', new: 'bar' });
    expect(recipe.prompt).toBe('Rename foo to bar (foo again); limit 10, dry true, tag []');
    expect(recipe.instructions).toBe('Work on bar. Literal: {{ new }}');
    expect(recipe.git).toMatchObject({ branch: 'rename/bar', commitMessage: 'Rename foo' });
  });

  it('coerces given values to the declared type', () => {
    const recipe = load({ old: 'a', new: 'b', limit: '2.5', dry: 'FALSE', tag: 'x' });
    expect(recipe.prompt).toBe('Rename a to b (a again); limit 2.5, dry false, tag [x]');
  });

  it('records the parameter specs, required unless a default is given', () => {
    expect(load({ old: 'a', new: 'b' }).parameters).toEqual({
      old: { type: 'string', required: true, description: 'the current name' },
      new: { type: 'string', required: true },
      limit: { type: 'number', required: false, default: 10 },
      dry: { type: 'boolean', required: false, default: true },
      tag: { type: 'string', required: false },
    });
  });

  it('keeps a number as typed up to what a double holds exactly', () => {
    expect(load({ old: 'a', new: 'b', limit: '9007199254740991' }).prompt).toContain('limit 9007199254740991, dry');
    expect(load({ old: 'a', new: 'b', limit: '-2.5e3' }).prompt).toContain('limit -2500, dry');
  });

  it('inserts values verbatim: a value that looks like a placeholder is not expanded again', () => {
    expect(load({ old: '{{ new }}', new: 'b' }).prompt).toContain('Rename {{ new }} to b');
  });
});

describe('parameter errors (exit 42)', () => {
  it.each([
    [{ new: 'b' }, "missing required parameter 'old' (the current name): pass --param old=VALUE"],
    [{ old: 'a', new: 'b', nwe: 'c' }, "unknown parameter 'nwe': this recipe declares old, new, limit, dry, tag (did you mean 'new'?)"],
    [{ old: 'a', new: 'b', limit: 'ten' }, "parameter 'limit' must be a number, got 'ten': pass e.g. --param limit=3"],
    [{ old: 'a', new: 'b', limit: '' }, "parameter 'limit' must be a number, got ''"],
    // Number() would read these as 16, 3 and 8: the prompt would hold a number nobody typed.
    [{ old: 'a', new: 'b', limit: '0x10' }, "parameter 'limit' must be a number, got '0x10' (hexadecimal, binary and octal forms are not read: write it in decimal, or declare the parameter type: string to keep it as written)"],
    [{ old: 'a', new: 'b', limit: '0b11' }, "parameter 'limit' must be a number, got '0b11' (hexadecimal"],
    [{ old: 'a', new: 'b', limit: '0o10' }, "parameter 'limit' must be a number, got '0o10' (hexadecimal"],
    [{ old: 'a', new: 'b', limit: 'Infinity' }, "parameter 'limit' must be a number, got 'Infinity': pass e.g. --param limit=3"],
    [{ old: 'a', new: 'b', dry: 'maybe' }, "parameter 'dry' must be true or false, got 'maybe'"],
    // Past what a double holds: the prompt would say Infinity, or an id with its last digits zeroed.
    [{ old: 'a', new: 'b', limit: '1e999' }, "parameter 'limit' is a number too large to keep as written ('1e999' would reach the prompt as Infinity): declare the parameter type: string"],
    [{ old: 'a', new: 'b', limit: '12345678901234567891' }, "('12345678901234567891' would reach the prompt as 12345678901234567000)"],
  ])('%j -> %s', (params, message) => {
    expect(inputError(params)).toContain(message);
  });

  it('names every bad parameter in one message', () => {
    const lines = inputError({ limit: 'x', bogus: '1' }).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.join('\n')).toMatch(/unknown parameter 'bogus'[\s\S]*'old'[\s\S]*'new'[\s\S]*'limit'/);
  });

  it('a branch made invalid by a parameter value is an input error, not a bad recipe', () => {
    expect(inputError({ old: 'a', new: 'has space' })).toContain("git.branch after substituting parameters: 'rename/has space'");
  });

  it('--param on a recipe that declares none names the fix', () => {
    const bare = join(dir, 'bare.yaml');
    writeFileSync(bare, 'version: 1\nconfirmation: {mode: deny}\n');
    expect(() => loadRecipe(bare, { params: { x: '1' } })).toThrow("unknown parameter 'x': this recipe declares no parameters");
  });
});

describe('parameter names that are also names of every JavaScript object', () => {
  it('--param given twice is refused, not the last one kept', () => {
    expect(() => parseParamPairs(['who=alice', 'who=bob'])).toThrow('--param who is given twice (who=alice and who=bob): give each parameter once');
    expect(parseParamPairs(['a=1', 'b=x=y'])).toEqual({ a: '1', b: 'x=y' });
  });

  it('__proto__ and constructor are unknown parameters when undeclared, and plain parameters when declared', () => {
    expect(inputError(parseParamPairs(['old=a', 'new=b', '__proto__=x']))).toContain("unknown parameter '__proto__'");
    expect(inputError(parseParamPairs(['old=a', 'new=b', 'constructor=x']))).toContain("unknown parameter 'constructor'");
    const f = join(dir, 'proto.yaml');
    writeFileSync(f, 'version: 1\nparameters:\n  __proto__: {type: string, required: true}\n  constructor: {required: false}\nprompt: "say {{ __proto__ }} [{{ constructor }}]"\nconfirmation: {mode: deny}\n');
    expect(validateRecipeFile(f)).toEqual([]);
    expect(() => loadRecipe(f, { params: {} })).toThrow("missing required parameter '__proto__'");
    const recipe = loadRecipe(f, { params: parseParamPairs(['__proto__=hello']) });
    expect(recipe.prompt).toBe('say hello []');
    expect(Object.keys(recipe.parameters)).toEqual(['__proto__', 'constructor']);
  });
});

describe('parameter declarations checked in the recipe', () => {
  it.each([
    ['  n: {type: number, required: false}', '3:6', "optional number parameter 'n' needs a default"],
    ['  s: {type: string, default: 3}', '3:30', `must be a string (the parameter's type), not 3: quote it, "3"`],
    ['  s: {required: true, default: x}', '3:17', "parameter 's' is required and has a default"],
    ['  1bad: {}', '3:3', "'1bad' is not a valid name"],
  ])('%s', (line, at, fragment) => {
    const f = join(dir, 'decl.yaml');
    writeFileSync(f, `version: 1\nparameters:\n${line}\nconfirmation: {mode: deny}\n`);
    const problems = validateRecipeFile(f);
    expect(problems).toHaveLength(1);
    expect(`${problems[0]!.line}:${problems[0]!.col}`).toBe(at);
    expect(problems[0]!.message).toContain(fragment);
  });
});
