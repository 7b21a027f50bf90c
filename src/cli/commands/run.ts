// `unattended run`: flags and stdin -> a RunRequest; the runner does the rest.
import type { RecipeOverrides } from '../../recipe/index.js';
import { executeRun } from '../../runner/execute-run.js';
import { holdSignals } from '../../runner/signals.js';
import { classifyError } from '../errors.js';
import { recipeFromArgs } from '../params.js';
import { readPipedStdin } from '../stdin.js';
import { writeTo } from '../stdio.js';
import { colorEnabled } from '../../util/terminal.js';
import type { RunArgs } from './run-options.js';

export async function runCommand(args: RunArgs): Promise<number> {
  // Held since the CLI started (main.ts): a signal while stdin is read still ends in a report.
  const stop = holdSignals();
  const stdinContext = args.stdin ? await readPipedStdin(undefined, stop) : null;
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
    sandbox: args.sandbox,
    script: args.script,
    baseUrl: args['base-url'],
    maxDenials: args['max-denials'],
    failOnDenial: args['fail-on-denial'],
    checks: args.check,
    requireChanges: args['require-changes'],
    checkRetries: args['check-retries'],
    checkTimeout: args['check-timeout'],
    stream: args.stream,
    maxCostUsd: args['max-cost-usd'],
  };
  const result = await executeRun({
    loadRecipe: () => recipeFromArgs(args.recipe, args.param, overrides),
    stdinContext,
    outDir: args.out ?? null,
    format: args['output-format'],
    record: args.record ?? null,
    env: process.env,
    streams: { stdout: (s) => writeTo(process.stdout, s), stderr: (s) => writeTo(process.stderr, s), color: colorEnabled(process.stderr, process.env) },
    classifySetupError: classifyError,
  });
  return result.exitCode;
}
