// `unattended batch RECIPE --targets FILE`: checks everything it can before the first run (recipe,
// parameters, targets, flags), then runs the batch and maps its outcome to an exit code: 0 when
// every target succeeded (or --allow-failures), 1 otherwise, 130/143 when stopped by a signal.
import fs from 'node:fs';
import path from 'node:path';
import { childProcessLauncher } from '../../batch/launch-run.js';
import { rowsKeptByResume, runBatch } from '../../batch/run-batch.js';
import { allSucceeded, readBatchReport, type BatchInputs } from '../../batch/batch-report.js';
import { createHash } from 'node:crypto';
import { createProgress, type BatchProgress } from '../../batch/progress.js';
import { formatShard, parseShard, selectShard } from '../../batch/shard.js';
import { collectTargets, readTargetSources } from '../../batch/collect-targets.js';
import { claimBatchDir } from '../../batch/batch-lock.js';
import { refuseSharedRepositories } from '../../batch/shared-repositories.js';
import { moveEarlierBatchAside, planMoveAside, refuseEarlierBatch } from '../../batch/earlier-batch.js';
import { ExitCode } from '../../types/outcome.js';
import { appendJobSummary } from '../../batch/job-summary.js';
import { InputError, loadRecipe } from '../../recipe/index.js';
import { AuthError } from '../../types/errors.js';
import { githubToken, NO_TOKEN } from '../../git/github-repo.js';
import { tryParseDuration } from '../../recipe/duration.js';
import { parseParams } from '../params.js';
import { numberFlag } from './run-options.js';
import { refuseLinkedRunsDir } from '../../runner/out-dir.js';
import type { CliIo } from '../cli.js';
import { noteHangUp } from '../../util/hung-up-terminal.js';
import type { BatchArgs } from './batch-options.js';

const MAX_CONCURRENCY = 64;

export async function batchCommand(args: BatchArgs, io: CliIo = {}): Promise<number> {
  const params = parseParams(args.param);
  const recipeFile = path.resolve(args.recipe);
  // Every target's run reads the recipe again: a pipe (`<(cat r.yaml)`) gives its text only once.
  const kind = fs.statSync(recipeFile, { throwIfNoEntry: false });
  if (kind && !kind.isFile() && !kind.isDirectory()) {
    throw new InputError(`${args.recipe} is not a regular file: a batch reads its recipe once for every target, and a pipe can be read only once`, 'write the recipe to a file and give that');
  }
  // Once, before any target: a bad recipe is one clear error, not the same failure N times.
  const recipe = loadRecipe(recipeFile, { params, overrides: { workspace: process.cwd() } });
  const shard = args.shard === undefined ? null : parseShard(args.shard);
  // Its default is yargs' ('2'); a bare `--concurrency` (`--concurrency $N`, N unset) is refused before (misread-flags.ts).
  const given = numberFlag(args.concurrency);
  if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > MAX_CONCURRENCY) {
    const got = String(given ?? '').trim() === '' ? 'no value (give one after the flag)' : `'${given}'`;
    throw new InputError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${got}`);
  }
  const concurrency = given;
  // Read as words, so a word that is no number is echoed back (yargs' number type made it NaN).
  const maxTokens = numberFlag(args['max-tokens']) ?? null;
  if (maxTokens !== null && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) throw new InputError(`--max-tokens must be a positive whole number, got '${maxTokens}'`);
  const maxCostUsd = numberFlag(args['max-cost-usd']) ?? null;
  if (maxCostUsd !== null && !(typeof maxCostUsd === 'number' && Number.isFinite(maxCostUsd) && maxCostUsd > 0)) throw new InputError(`--max-cost-usd must be a number of dollars above 0, got '${maxCostUsd}'`);
  let timeoutMs: number | null = null;
  if (args.timeout !== undefined) {
    const parsed = tryParseDuration(args.timeout);
    if (typeof parsed === 'string') throw new InputError(`--timeout: ${parsed}`);
    timeoutMs = parsed;
  }
  // What names the targets is a usage error (exit 42), told before the key and price checks (41).
  const query = { org: args.org ?? null, topics: args.topic ?? [], search: args.search ?? null };
  const fromFile = readTargetSources(args.targets ?? null, query);
  // A budget in dollars needs the model's price: without one every run would refuse to start.
  if (maxCostUsd !== null || recipe.limits.maxCostUsd !== null) {
    const { requireKnownPrice } = await import('../../providers/create.js');
    const what = maxCostUsd !== null ? 'batch --max-cost-usd' : 'limits.max_cost_usd';
    await requireKnownPrice({ name: recipe.provider, model: recipe.model, baseUrl: recipe.baseUrl, env: process.env, pricing: recipe.pricing }, what);
  }
  // The recipe's provider must have its key: without one every run would fail the same way (exit 41).
  const { createProvider } = await import('../../providers/create.js');
  await createProvider({ name: recipe.provider, model: recipe.model, script: recipe.script, baseUrl: recipe.baseUrl, env: process.env, workspaceRoot: process.cwd(), options: recipe.providerOptions, pricing: recipe.pricing });
  // Pull requests need a GitHub token: without one every target would do (and pay for) its work,
  // push, and end handoff_failed, a final row that --resume keeps. Once, before any target.
  if (recipe.git?.pullRequest && !githubToken(process.env)) {
    throw new AuthError(`the recipe opens pull requests (${recipe.git.section ?? 'git'}.pull_request), and ${NO_TOKEN}`, 'without one, every target would do its work and then fail its hand-off (exit 58)');
  }
  // As a run's default (runner/out-dir.ts): never through a link the work tree holds.
  if (args.out === undefined) refuseLinkedRunsDir(process.cwd(), path.join('.unattended', 'batches'));
  const outDir = path.resolve(args.out ?? defaultOutDir(recipe.name, shard && formatShard(shard)));
  const inputs = batchInputs(recipeFile, args.param);
  // The default directory's earlier batch is moved aside once every check has passed; a named --out's is refused.
  let movesAsideTo: string | null = null;
  if (args.resume) {
    if (!args.force) checkResumable(outDir, inputs);
  } else if (args.out !== undefined) refuseEarlierBatch(outDir);
  else movesAsideTo = planMoveAside(outDir, recipe.name);
  // Last of the checks: listing GitHub's repositories is the slow one.
  const { targets, warnings, source } = await collectTargets(args.targets ?? null, query, process.env, undefined, fromFile);
  for (const warning of warnings) process.stderr.write(`unattended batch: ${args.targets}: ${warning}\n`);
  if (recipe.git) refuseSharedRepositories(targets);
  if (args['dry-run']) {
    const { renderDryRun } = await import('../../batch/dry-run.js');
    const batchLimits = { timeoutMs, maxTokens, maxCostUsd };
    const selected = selectShard(targets, shard);
    const kept = args.resume ? rowsKeptByResume(selected, outDir) : undefined;
    process.stdout.write(renderDryRun({ recipe, targets, selected, shard: shard && formatShard(shard), source, outDir, movesAsideTo, concurrency, batchLimits, env: process.env, ...(kept ? { kept } : {}) }));
    return ExitCode.success;
  }
  if (movesAsideTo !== null) {
    const movedTo = moveEarlierBatchAside(outDir, recipe.name);
    if (movedTo) process.stderr.write(`unattended batch: the earlier batch in ${outDir} was moved to ${movedTo} (continue it with --resume --out ${movedTo})\n`);
  }
  // One batch at a time in a directory: a --resume fired while the batch still runs is refused.
  const release = claimBatchDir(outDir);

  const controller = new AbortController();
  const leaving = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  // The live block on a terminal; whatever way the process leaves, it is taken off the screen.
  let progress: BatchProgress | null = null;
  const clearProgress = () => progress?.clear();
  const onSignal = (signal: NodeJS.Signals) => () => {
    if (signal === 'SIGHUP') noteHangUp();
    // The first signal stops new starts and lets running targets wind down (they get SIGTERM and
    // write their reports); a second one leaves at once, the report written a last time first
    // (its running targets cancelled: they have had their SIGTERM).
    if (stoppedBy) {
      leaving.abort();
      clearProgress();
      process.exit(exitFor(stoppedBy));
    }
    stoppedBy = signal;
    const message = `${signal}: stopping; running targets are being stopped`;
    if (progress) progress.note(message);
    else process.stderr.write(`\nunattended batch: ${message}\n`);
    controller.abort();
  };
  // SIGHUP too: a closed terminal or ssh session stops the batch as SIGTERM would.
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((name) => [name, onSignal(name)] as const);
  for (const [name, handler] of handlers) process.on(name, handler);
  process.on('exit', clearProgress);
  try {
    const report = await runBatch({
      recipe: recipeFile,
      recipeName: recipe.name,
      inputs,
      targetsFile: source,
      targets,
      shard,
      concurrency,
      outDir,
      params: args.param,
      resume: args.resume,
      allowFailures: args['allow-failures'] === true,
      handoff: recipe.git,
      timeoutMs,
      maxTokens,
      maxCostUsd,
      recipeLimits: { timeoutMs: recipe.limits.timeoutMs, maxTokens: recipe.limits.maxTokens, maxCostUsd: recipe.limits.maxCostUsd },
      launch: io.launchRun ?? childProcessLauncher(cliEntry()),
      env: process.env,
      telemetry: recipe.telemetry,
      signal: controller.signal,
      leaving: leaving.signal,
      progress: (toRun) => (progress = createProgress({ sink: process.stderr, total: toRun, concurrency, githubActions: process.env.GITHUB_ACTIONS === 'true' })),
      interruptedBy: () => stoppedBy,
    });
    appendJobSummary(outDir, process.env.GITHUB_STEP_SUMMARY, 'batch');
    const t = report.totals;
    process.stderr.write(`unattended batch: ${t.by_category.success}/${t.targets} succeeded; report ${path.join(outDir, 'batch-report.md')}\n`);
    if (stoppedBy) return exitFor(stoppedBy);
    return allSucceeded(report) || args['allow-failures'] ? ExitCode.success : ExitCode.failed;
  } finally {
    release();
    clearProgress();
    for (const [name, handler] of handlers) process.off(name, handler);
    process.off('exit', clearProgress);
  }
}

function batchInputs(recipeFile: string, params: readonly string[]): BatchInputs {
  const sha = createHash('sha256').update(fs.readFileSync(recipeFile)).digest('hex');
  return { recipe_file: recipeFile, recipe_sha256: sha, params: [...params].sort() };
}

/**
 * Resuming mixes the rows of two runs into one report: only honest when both ran the same recipe
 * with the same parameters. A batch directory without a report (or from before inputs were
 * recorded) has nothing to contradict.
 */
function checkResumable(outDir: string, now: BatchInputs): void {
  let earlier: BatchInputs | undefined;
  try {
    earlier = readBatchReport(outDir).inputs;
  } catch {
    return;
  }
  if (!earlier) return;
  const differences: string[] = [];
  if (earlier.recipe_sha256 !== now.recipe_sha256) {
    differences.push(earlier.recipe_file === now.recipe_file ? `the recipe ${now.recipe_file} changed since` : `the recipe was ${earlier.recipe_file}, now ${now.recipe_file}`);
  }
  if (JSON.stringify(earlier.params) !== JSON.stringify(now.params)) {
    differences.push(`the parameters were ${earlier.params.join(' ') || '(none)'}, now ${now.params.join(' ') || '(none)'}`);
  }
  if (differences.length) {
    throw new InputError(
      `cannot resume the batch in ${outDir}: ${differences.join('; ')}. Its finished rows would not be this batch's: run with the same recipe and --param values, choose another --out, or pass --force to resume anyway`,
    );
  }
}

function defaultOutDir(recipeName: string, shard: string | null): string {
  const name = recipeName.replace(/[^A-Za-z0-9._-]+/g, '-') || 'batch';
  return path.join('.unattended', 'batches', shard ? `${name}-shard-${shard.replace('/', '-of-')}` : name);
}

/** The CLI this process runs (dist/cli/unattended.cjs, or main.js): each target runs it again in a child. */
function cliEntry(): string {
  const entry = process.argv[1];
  if (!entry) throw new Error('cannot tell which script is running; start unattended with node');
  return fs.realpathSync(entry);
}

function exitFor(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? ExitCode.sigterm : signal === 'SIGHUP' ? ExitCode.sighup : ExitCode.sigint;
}
