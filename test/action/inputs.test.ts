// Inputs -> `unattended run` arguments and environment: the key only in the provider's variable.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ActionInputError, readInputs } from '../../src/action/inputs.js';
import { buildInvocation } from '../../src/action/invocation.js';
import { tempDir } from '../helpers/cli.js';

const KEY = 'k3y-value-for-inputs-test-0042';
const dir = tempDir('unattended-action-inputs-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function recipeNaming(provider: string): string {
  const file = path.join(dir, `${provider}.yaml`);
  fs.writeFileSync(file, `version: 1\nname: probe\nprompt: Probe.\nprovider: ${provider}\n`);
  return file;
}

function recipeWritten(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `version: 1\nname: probe\nprompt: Probe.\n${body}`);
  return file;
}

/** A goose recipe (no `version: 1`, a `title`) naming its provider and model under settings. */
function gooseRecipe(name: string, settings: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `title: Probe\ndescription: probe\nprompt: Probe.\nsettings:\n${settings}`);
  return file;
}

const paths = { cli: '/action/dist/cli/main.js', outDir: '/tmp/run' };

describe('readInputs', () => {
  it('reads every input, in either naming, with defaults for the unset ones', () => {
    const composite = readInputs({ INPUT_RECIPE: ' r.yaml ', INPUT_API_KEY: KEY, INPUT_MAX_TURNS: '7', INPUT_FAIL_ON_DENIAL: 'true' });
    const node = readInputs({ INPUT_RECIPE: 'r.yaml', 'INPUT_API-KEY': KEY, 'INPUT_MAX-TURNS': '7', 'INPUT_FAIL-ON-DENIAL': 'True' });
    expect(composite).toEqual(node);
    expect(composite).toMatchObject({ recipe: 'r.yaml', apiKey: KEY, maxTurns: 7, failOnDenial: true, provider: null, params: [] });
  });

  it('takes checks one command a line, and passes them and the other outcome inputs as flags', async () => {
    const inputs = readInputs({ INPUT_CHECKS: 'npm test\n\n# lint too\n  npx eslint . # fast  \r\n', INPUT_REQUIRE_CHANGES: 'true', INPUT_MAX_DENIALS: '0', INPUT_CHECK_RETRIES: '2', INPUT_FAIL_ON_DENIAL: 'true' });
    expect(inputs).toMatchObject({ checks: ['npm test', 'npx eslint . # fast'], requireChanges: true, maxDenials: 0, checkRetries: 2, failOnDenial: true });
    const { args } = await buildInvocation(inputs, {}, paths);
    expect(args).toEqual(expect.arrayContaining(['--check=npm test', '--check=npx eslint . # fast', '--require-changes', '--max-denials=0', '--check-retries=2', '--fail-on-denial']));
    const none = await buildInvocation(readInputs({}), {}, paths);
    expect(none.args.filter((a) => /check|require|denial/.test(a))).toEqual([]);
  });

  it('takes params one key=value a line, skipping blanks and comments, keeping = in values', () => {
    const inputs = readInputs({ INPUT_PARAMS: '\n  old=foo\n# a comment\nexpr = a=b \r\n\n' });
    expect(inputs.params).toEqual(['old=foo', 'expr=a=b']);
  });

  it.each([
    [{ INPUT_PARAMS: 'no equals sign' }, /params line 1: expected key=value/],
    [{ INPUT_PARAMS: 'a=1\n=2' }, /params line 2/],
    [{ INPUT_FAIL_ON_DENIAL: 'yes' }, /fail-on-denial: expected true or false/],
    [{ INPUT_UPLOAD_ARTIFACTS: '1' }, /upload-artifacts: expected true or false/],
    [{ INPUT_PROVIDER: 'claude' }, /provider: expected one of gemini, openai, anthropic, scripted/],
    [{ INPUT_APPROVAL: 'ask' }, /approval: expected one of auto-approve, deny, allowlist/],
    [{ INPUT_MAX_TURNS: '0' }, /max-turns: expected a positive whole number/],
    [{ INPUT_MAX_TURNS: '10 turns' }, /max-turns/],
    [{ INPUT_MAX_DENIALS: '-1' }, /max-denials: expected a whole number/],
    [{ INPUT_REQUIRE_CHANGES: 'sure' }, /require-changes: expected true or false/],
    [{ INPUT_CHECK_RETRIES: 'two' }, /check-retries: expected a whole number/],
    [{ INPUT_MAX_TOOL_CALLS: '0' }, /max-tool-calls: expected a positive whole number/],
    [{ INPUT_MAX_TOKENS: '1e6' }, /max-tokens: expected a positive whole number/],
    [{ INPUT_MAX_COST_USD: '0' }, /max-cost-usd: expected an amount in US dollars greater than 0/],
    [{ INPUT_MAX_COST_USD: '$2' }, /max-cost-usd/],
    [{ INPUT_COMMENT: 'please' }, /comment: expected true or false/],
    [{ INPUT_EXTRA_ARGS: '--append-system-prompt "unclosed' }, /extra-args: a double quote at character 24 is never closed/],
    [{ INPUT_EXTRA_ARGS: "--model 'x" }, /extra-args: a single quote at character 9 is never closed/],
    [{ INPUT_EXTRA_ARGS: '--max-turns 3 --out=/elsewhere' }, /extra-args: --out is set by the action itself/],
    [{ INPUT_EXTRA_ARGS: '--output-format json' }, /--output-format is set by the action/],
    [{ INPUT_EXTRA_ARGS: '--outputFormat json' }, /--output-format is set by the action/],
    [{ INPUT_EXTRA_ARGS: '--stdin' }, /--stdin is set by the action/],
    [{ INPUT_MAX_TURNS: '5', INPUT_EXTRA_ARGS: '--max-turns 9' }, /extra-args: --max-turns is also set by the max-turns input; set it in one place/],
    [{ INPUT_MODEL: 'a', INPUT_EXTRA_ARGS: '--model=b' }, /--model is also set by the model input/],
    [{ INPUT_MAX_COST_USD: '1', INPUT_EXTRA_ARGS: '--maxCostUsd 2' }, /--maxCostUsd is also set by the max-cost-usd input/],
    [{ INPUT_FAIL_ON_DENIAL: 'true', INPUT_EXTRA_ARGS: '--no-fail-on-denial' }, /--no-fail-on-denial is also set by the fail-on-denial input/],
  ])('refuses %j', (env, message) => {
    expect(() => readInputs(env)).toThrow(ActionInputError);
    expect(() => readInputs(env)).toThrow(message);
  });
});

describe('budgets, rules and extra-args', () => {
  it('pass as flags: one --allow/--deny a rule line, the budgets as numbers', async () => {
    const inputs = readInputs({
      INPUT_ALLOW: 'shell:npm test\n# the docs too\nedit:docs/**\n\ndocs__*',
      INPUT_DENY: 'shell:git push *',
      INPUT_MAX_TOOL_CALLS: '40',
      INPUT_MAX_TOKENS: '200000',
      INPUT_MAX_COST_USD: '0.50',
    });
    const { args } = await buildInvocation(inputs, {}, paths);
    expect(args).toEqual(
      expect.arrayContaining(['--allow=shell:npm test', '--allow=edit:docs/**', '--allow=docs__*', '--deny=shell:git push *', '--max-tool-calls=40', '--max-tokens=200000', '--max-cost-usd=0.5']),
    );
  });

  it('extra-args are split like a shell line, nothing expanded, and passed after the inputs', async () => {
    const inputs = readInputs({
      INPUT_MAX_TOOL_CALLS: '5',
      INPUT_EXTRA_ARGS: `--max-turns 9 --append-system-prompt "Answer in \\"French\\", briefly" \\
  --tools 'read_file,grep' --model=$HOME \`id\` a\\ b *.ts`,
    });
    expect(inputs.extraArgs).toEqual(['--max-turns', '9', '--append-system-prompt', 'Answer in "French", briefly', '--tools', 'read_file,grep', '--model=$HOME', '`id`', 'a b', '*.ts']);
    const { args } = await buildInvocation(inputs, {}, paths);
    expect(args.slice(-10)).toEqual(inputs.extraArgs);
    expect(args.indexOf('--max-tool-calls=5')).toBeLessThan(args.indexOf('--max-turns'));
    expect(readInputs({ INPUT_EXTRA_ARGS: '  \n ' }).extraArgs).toEqual([]);
    expect(readInputs({ INPUT_EXTRA_ARGS: `--prompt ''` }).extraArgs).toEqual(['--prompt', '']);
  });
});

describe('buildInvocation', () => {
  it('maps every input to a flag, values kept whole even when they start with a dash', async () => {
    const inputs = readInputs({
      INPUT_RECIPE: '-odd.yaml',
      INPUT_PROMPT: '--help me',
      INPUT_PARAMS: 'a=1\nb=two words',
      INPUT_PROVIDER: 'openai',
      INPUT_MODEL: 'qwen3-coder',
      INPUT_BASE_URL: 'http://127.0.0.1:9/v1',
      INPUT_APPROVAL: 'deny',
      INPUT_WORKSPACE: 'ws',
      INPUT_MAX_TURNS: '5',
      INPUT_TIMEOUT: '90s',
    });
    const { args } = await buildInvocation(inputs, {}, paths);
    expect(args).toEqual([
      paths.cli,
      'run',
      './-odd.yaml',
      '--prompt=--help me',
      '--param=a=1',
      '--param=b=two words',
      '--provider=openai',
      '--model=qwen3-coder',
      '--base-url=http://127.0.0.1:9/v1',
      '--approval=deny',
      '--workspace=ws',
      '--max-turns=5',
      '--timeout=90s',
      '--out=/tmp/run',
      '--output-format=text',
      '--no-stdin',
    ]);
  });

  it('reads stdin only when stdin-file is given', async () => {
    const { args } = await buildInvocation(readInputs({ INPUT_PROMPT: 'p', INPUT_STDIN_FILE: '/tmp/diff' }), {}, paths);
    expect(args).not.toContain('--no-stdin');
  });

  it.each([
    ['the provider input', { INPUT_PROVIDER: 'openai' }, 'OPENAI_API_KEY'],
    ['the provider input', { INPUT_PROVIDER: 'gemini' }, 'GEMINI_API_KEY'],
    ["the recipe's provider", { INPUT_RECIPE: recipeNaming('openai') }, 'OPENAI_API_KEY'],
    ["the recipe's provider, overridden", { INPUT_RECIPE: recipeNaming('openai'), INPUT_PROVIDER: 'gemini' }, 'GEMINI_API_KEY'],
    ['the default provider', { INPUT_PROMPT: 'p' }, 'GEMINI_API_KEY'],
    ['a scripted run (no key at all)', { INPUT_RECIPE: recipeNaming('scripted') }, null],
    // No provider named: the model's name says which, as the CLI settles it.
    ["the recipe's model", { INPUT_RECIPE: recipeWritten('claude.yaml', 'model: claude-sonnet-4-5\n') }, 'ANTHROPIC_API_KEY'],
    ['the model input', { INPUT_PROMPT: 'p', INPUT_MODEL: 'gpt-5' }, 'OPENAI_API_KEY'],
    ["the model input over the recipe's", { INPUT_RECIPE: recipeWritten('claude.yaml', 'model: claude-sonnet-4-5\n'), INPUT_MODEL: 'o3' }, 'OPENAI_API_KEY'],
    ["the recipe's provider over the model", { INPUT_RECIPE: recipeWritten('named.yaml', 'provider: gemini\nmodel: claude-sonnet-4-5\n') }, 'GEMINI_API_KEY'],
    // A goose recipe names them under settings, as the CLI converts it.
    ["a goose recipe's goose_provider", { INPUT_RECIPE: gooseRecipe('goose-anthropic.yaml', '  goose_provider: anthropic\n') }, 'ANTHROPIC_API_KEY'],
    ["a goose recipe's goose_provider ollama", { INPUT_RECIPE: gooseRecipe('goose-ollama.yaml', '  goose_provider: ollama\n  goose_model: qwen3\n') }, 'OPENAI_API_KEY'],
    ["a goose recipe's goose_model", { INPUT_RECIPE: gooseRecipe('goose-model.yaml', '  goose_model: gpt-5\n') }, 'OPENAI_API_KEY'],
    // extra-args names them the way the CLI reads them.
    ['--provider in extra-args', { INPUT_PROMPT: 'p', INPUT_EXTRA_ARGS: '--provider anthropic' }, 'ANTHROPIC_API_KEY'],
    ['--provider= in extra-args, over the recipe', { INPUT_RECIPE: recipeNaming('gemini'), INPUT_EXTRA_ARGS: '--provider=openai' }, 'OPENAI_API_KEY'],
    ['-m in extra-args', { INPUT_PROMPT: 'p', INPUT_EXTRA_ARGS: '--max-turns 3 -m claude-sonnet-4-5' }, 'ANTHROPIC_API_KEY'],
    ["--model= in extra-args, over the recipe's model", { INPUT_RECIPE: recipeWritten('claude2.yaml', 'model: claude-sonnet-4-5\n'), INPUT_EXTRA_ARGS: '--model=gpt-5' }, 'OPENAI_API_KEY'],
  ])('gives the key to the variable of %s', async (_, env, variable) => {
    const parent = { PATH: '/usr/bin', GITHUB_TOKEN: 'ghs_token', INPUT_API_KEY: KEY, 'INPUT_API-KEY': KEY, INPUT_OTHER: 'x', ...env };
    const invocation = await buildInvocation(readInputs(parent), parent, paths);
    const holders = Object.entries(invocation.env)
      .filter(([, v]) => v === KEY)
      .map(([k]) => k);
    expect(holders).toEqual(variable ? [variable] : []);
    expect(invocation.args.join(' ')).not.toContain(KEY);
    expect(Object.keys(invocation.env).filter((k) => k.startsWith('INPUT_'))).toEqual([]);
    // The CLI itself needs the rest of the environment (it strips tool environments itself).
    expect(invocation.env).toMatchObject({ PATH: '/usr/bin', GITHUB_TOKEN: 'ghs_token' });
  });
});
