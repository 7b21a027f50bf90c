// `unattended run`: flags and stdin -> a RunRequest; the runner does the rest.
import { adHocRecipe, InputError, loadRecipe, type RecipeOverrides } from '../../recipe/index.js';
import { executeRun } from '../../runner/execute-run.js';
import { classifyError } from '../errors.js';
import { parseParams } from '../params.js';
import { readPipedStdin } from '../stdin.js';
import type { RunArgs } from './run-options.js';

export async function runCommand(args: RunArgs): Promise<number> {
  const stdinContext = args.stdin ? await readPipedStdin() : null;
  const overrides: RecipeOverrides = {
    prompt: args.prompt,
    provider: args.provider,
    model: args.model,
    approval: args.approval,
    allow: args.allow,
    deny: args.deny,
    workspace: args.workspace,
    maxTurns: args['max-turns'],
    maxToolCalls: args['max-tool-calls'],
    maxTokens: args['max-tokens'],
    timeout: args.timeout,
    modelIdleTimeout: args['model-idle-timeout'],
    modelRetries: args['model-retries'],
    script: args.script,
    baseUrl: args['base-url'],
  };
  const result = await executeRun({
    loadRecipe: () => {
      const params = parseParams(args.param);
      if (args.recipe) return loadRecipe(args.recipe, { params, overrides });
      if (Object.keys(params).length) throw new InputError('--param needs a recipe that declares parameters');
      return adHocRecipe(overrides, process.cwd());
    },
    stdinContext,
    outDir: args.out ?? null,
    format: args['output-format'],
    record: args.record ?? null,
    env: process.env,
    streams: { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
    classifySetupError: classifyError,
  });
  return result.exitCode;
}
