// `unattended policy check`: the decision the runner would make for one call, with no model.
// Runs the loop's own prepareCall (lookup, validation, confirmation, policy): one code path.
import { prepareCall } from '../../loop/prepare.js';
import { ExitCode } from '../../types/outcome.js';
import { Redactor } from '../../report/redact.js';
import { InputError, type RecipeOverrides } from '../../recipe/index.js';
import type { ConfirmationMode } from '../../recipe/types.js';
import { buildRegistry, builtinRegistry, createJudge, describeOnlyExtras } from '../../runner/session.js';
import { DEFAULT_RUNS_DIR } from '../../runner/runner-paths.js';
import { isBuiltinToolName } from '../../tools/names.js';
import { toolEnvironment } from '../../tools/tool-env.js';
import { openToolsWorkspace } from '../../sandbox/credentials-inside.js';
import { recipeFromArgs } from '../params.js';
import { unknownToolHint } from '../unknown-tool-hint.js';

export interface PolicyCheckArgs {
  /** Null: the recipe a run given no recipe makes from its flags (params.ts recipeFromArgs). */
  recipe: string | null;
  tool: string;
  args: string;
  params: string[];
  workspace: string | null;
  approval: ConfirmationMode | null;
  allow: string[];
  deny: string[];
}

const warn = (message: string) => process.stderr.write(`unattended: ${message}\n`);

export async function policyCheckCommand(a: PolicyCheckArgs): Promise<number> {
  let callArgs: unknown;
  try {
    callArgs = JSON.parse(a.args);
  } catch (error) {
    throw new InputError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (!callArgs || typeof callArgs !== 'object' || Array.isArray(callArgs)) throw new InputError('--args must be a JSON object, e.g. \'{"command":"git status"}\'');
  const overrides: RecipeOverrides = { allow: a.allow, deny: a.deny };
  if (a.workspace) overrides.workspace = a.workspace;
  if (a.approval) overrides.approval = a.approval;
  const recipe = recipeFromArgs(a.recipe, a.params, overrides);
  const workspace = openToolsWorkspace(recipe.workspace, process.env, recipe.sandbox.hide);
  const toolEnv = toolEnvironment(process.env, recipe.env.pass);
  const closers: Array<() => Promise<void>> = [];
  try {
    // MCP and discovered tools exist only once their servers and command have run, as in a run.
    const registry = isBuiltinToolName(a.tool)
      ? builtinRegistry(recipe, workspace, toolEnv)
      : await buildRegistry(recipe, workspace, toolEnv, describeOnlyExtras(recipe), { signal: AbortSignal.timeout(60_000), onWarning: warn }, closers);
    // Protects what a run without --out would (the whole .unattended), with the same function.
    const judge = createJudge(recipe, workspace, DEFAULT_RUNS_DIR);
    const prepared = await prepareCall({ name: a.tool, args: callArgs as Record<string, unknown> }, registry, judge, AbortSignal.timeout(10_000));
    const unknown = !prepared.ok && prepared.errorType === 'unknown_tool' ? unknownToolHint(a.tool, registry.names()) : null;
    // A peer's name (`Bash`) or a typo gets the hint --tools, --allow and validate give, on stderr as theirs do.
    if (unknown) warn(`--tool '${a.tool}': ${unknown}`);
    const refusal = prepared.ok ? '' : unknown ? `${prepared.message} (${unknown})` : prepared.message;
    const decision = prepared.decision ?? { decision: 'deny' as const, reason: refusal, rule: null };
    // The second layer: whether the call's process would be contained, and how.
    const { sandboxForCall } = await import('../../sandbox/describe.js');
    const sandbox = sandboxForCall(recipe, a.tool, workspace.root);
    // The reason quotes the call, which may carry a token: redacted as a run's transcript is.
    const redactor = Redactor.fromEnv(process.env);
    process.stdout.write(`${redactor.redact(JSON.stringify({ ...decision, sandbox }))}\n`);
    return ExitCode.success;
  } finally {
    await Promise.allSettled(closers.map((close) => close()));
  }
}
