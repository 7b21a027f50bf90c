// A batch: the recipe over many targets, N at a time (p-queue), under one deadline and one token
// budget, with the report rewritten after every start and finish.
import path from 'node:path';
import PQueue from 'p-queue';
import { BatchReportWriteError, emptyRow, FINAL_CATEGORIES, readBatchReport, withSummary, writeBatchReport, type BatchInputs, type BatchLimit, type BatchReport, type BatchRow } from './batch-report.js';
import { startBatchTelemetry } from './batch-telemetry.js';
import type { TelemetryDefaults } from '../telemetry/config.js';
import { saysUnanswered, UNANSWERED_ENV } from '../telemetry/unanswered.js';
import { rowFromRun } from './classify.js';
import type { RunLauncher } from './launch-run.js';
import type { BatchProgress } from './progress.js';
import { readRunReport, runTarget, targetDir } from './run-target.js';
import { formatShard, selectShard, shardSizes, type Shard } from './shard.js';
import { TokenBudget } from './token-budget.js';
import { shownTarget, type Target } from './targets.js';
import type { GitHandoff } from '../recipe/types.js';
import { handoffToRetry, retryHandoff, type HandoffToRetry } from './resume-handoff.js';
import { cloneCredentials, withCloneCredentials } from './clone-credentials.js';

export interface BatchOptions {
  /** Absolute path of the recipe, passed to every run. */
  recipe: string;
  recipeName: string;
  /** The recipe file's hash and the parameters, recorded in the report and checked by --resume. */
  inputs: BatchInputs;
  targetsFile: string;
  targets: readonly Target[];
  shard: Shard | null;
  concurrency: number;
  outDir: string;
  params: readonly string[];
  /** --allow-failures: a target that did not succeed does not fail the batch (nor its span). */
  allowFailures?: boolean;
  /** Skip targets whose earlier run reached a final status (success or an agent failure). */
  resume: boolean;
  /** The recipe's hand-off (`git:`): a --resume pushes again, or opens again the pull request of, a run whose hand-off failed after its commit. */
  handoff?: GitHandoff | null;
  /** The batch's wall-clock limit; each run gets what remains (or the recipe's own, if smaller). */
  timeoutMs: number | null;
  /** The batch's token budget; each run gets what remains (or the recipe's own, if smaller). */
  maxTokens: number | null;
  /** The batch's budget in US dollars, shared like the token budget. */
  maxCostUsd?: number | null;
  recipeLimits: { timeoutMs: number | null; maxTokens: number | null; maxCostUsd?: number | null };
  /** Starts each target's run (childProcessLauncher: the built CLI in a child process). */
  launch: RunLauncher;
  env: NodeJS.ProcessEnv;
  /** The recipe's `telemetry:` block: with the OTEL_* environment over it, whether the batch is a trace. */
  telemetry?: TelemetryDefaults | null;
  signal: AbortSignal;
  /** Made once the number of targets to run is known. */
  progress: (toRun: number) => BatchProgress;
  /** What stopped the batch, when the signal fired (SIGINT, SIGTERM). */
  interruptedBy?: () => string | null;
  /**
   * The process leaves right after this fires (a second signal): the report is written one last
   * time, synchronously, its running targets cancelled and its waiting ones not run.
   */
  leaving?: AbortSignal;
}

export async function runBatch(opts: BatchOptions): Promise<BatchReport> {
  const startedAt = new Date();
  const deadline = opts.timeoutMs === null ? null : startedAt.getTime() + opts.timeoutMs;
  const selected = selectShard(opts.targets, opts.shard);
  const rows = new Map<number, BatchRow>();
  const toRun: Target[] = [];
  const kept = opts.resume ? rowsKeptByResume(selected, opts.outDir) : new Map<number, BatchRow>();
  const retries: Array<[Target, HandoffToRetry]> = [];
  for (const target of selected) {
    const earlier = kept.get(target.index);
    const retry = earlier ? handoffToRetry(target, earlier, opts.outDir, opts.handoff ?? null) : null;
    if (retry) retries.push([target, retry]);
    if (earlier) rows.set(target.index, earlier);
    else {
      rows.set(target.index, emptyRow(target));
      toRun.push(target);
    }
  }

  const snapshot = (finished: boolean): BatchReport =>
    withSummary({
      version: 1,
      recipe: opts.recipeName,
      targets_file: opts.targetsFile,
      shard: opts.shard ? formatShard(opts.shard) : null,
      ...(opts.shard ? { shard_targets: shardSizes(opts.targets, opts.shard.count) } : {}),
      started_at: startedAt.toISOString(),
      updated_at: new Date().toISOString(),
      finished,
      interrupted: opts.signal.aborted ? (opts.interruptedBy?.() ?? 'interrupted') : null,
      inputs: opts.inputs,
      rows: [...rows.values()],
    });
  // The first and the last report must be written (a batch that cannot keep its record starts
  // nothing, and does not end as if it had). One in between that fails (a full disk) is said, and
  // no target starts after it; the running ones finish, and the last write is tried all the same.
  let unwritten: BatchReportWriteError | null = null;
  let note: (message: string) => void = (message) => process.stderr.write(`unattended batch: ${message}\n`);
  const save = (finished = false) => {
    const report = snapshot(finished);
    try {
      writeBatchReport(opts.outDir, report);
    } catch (error) {
      if (!(error instanceof BatchReportWriteError)) throw error;
      if (!unwritten) note(`${error.message}: no further target starts`);
      unwritten = error;
    }
    return report;
  };
  writeBatchReport(opts.outDir, snapshot(false));
  // Stopped: the report says so at once, not only when the running targets have wound down.
  const onStop = () => save();
  const onLeave = () => {
    for (const [index, row] of rows) {
      if (row.category !== 'pending') continue;
      rows.set(index, row.status === 'running' ? { ...row, status: 'cancelled', category: 'cancelled', cause: 'batch interrupted' } : { ...row, status: 'skipped', category: 'not_run', cause: 'batch interrupted' });
    }
    save();
  };
  opts.signal.addEventListener('abort', onStop, { once: true });
  opts.leaving?.addEventListener('abort', onLeave, { once: true });

  const progress = opts.progress(toRun.length + retries.length);
  note = (message) => progress.note(message);
  // One trace for the batch: each target's run nests under its target span (TRACEPARENT in its environment).
  const batchTrace = await startBatchTelemetry(opts.env, opts.recipeName, (message) => progress.note(message), opts.telemetry ?? null);
  // A collector that does not answer costs one run its export timeout, not every run (telemetry/unanswered.ts).
  const collector = batchTrace?.collector ?? { unanswered: false };
  if (selected.length > toRun.length) {
    const again = retries.length ? `; ${retries.length} of them did their work but not its hand-off, which is tried again` : '';
    progress.note(`resuming: ${selected.length - toRun.length} of ${selected.length} targets already final, skipped${again}`);
  }
  const budget = new TokenBudget(opts.maxTokens, opts.concurrency, { integer: true }, toRun.length);
  const dollars = new TokenBudget(opts.maxCostUsd ?? null, opts.concurrency, { integer: false }, toRun.length);
  const queue = new PQueue({ concurrency: opts.concurrency });
  const notRun = (target: Target, cause: string): BatchRow => ({ ...emptyRow(target), status: 'skipped', category: 'not_run', cause });

  const runOne = async (target: Target): Promise<void> => {
    let row: BatchRow;
    const grant = opts.signal.aborted ? null : await budget.take(opts.recipeLimits.maxTokens);
    const costGrant = grant === null || opts.signal.aborted ? null : await dollars.take(opts.recipeLimits.maxCostUsd ?? null);
    const now = Date.now();
    if (opts.signal.aborted) row = notRun(target, 'batch interrupted');
    else if (unwritten) row = notRun(target, 'batch report not written');
    else if (deadline !== null && now >= deadline) row = notRun(target, 'batch deadline passed');
    else if (grant === null) row = notRun(target, 'batch token budget spent');
    else if (costGrant === null) row = notRun(target, 'batch cost budget spent');
    else {
      const timeLeft = deadline === null ? null : deadline - now;
      // What the run is given, against the recipe's own: a budget's grant is the run's share of the
      // remainder (runs overlap), which may be below the recipe's limit when the remainder is not.
      const batchLimits = batchLimitsOf({
        timeout: [timeLeft, opts.recipeLimits.timeoutMs],
        max_tokens: [grant.batchLeft === null ? null : grant.tokens, opts.recipeLimits.maxTokens],
        max_cost_usd: [costGrant.batchLeft === null ? null : costGrant.tokens, opts.recipeLimits.maxCostUsd ?? null],
      });
      // Recorded before the run starts: a batch killed while it runs has said which limits were its own.
      rows.set(target.index, { ...emptyRow(target), status: 'running', ...(batchLimits.length ? { batch_limits: batchLimits } : {}) });
      save();
      // Shown without the credentials a clone URL may carry: the progress is a CI log.
      progress.start(shownTarget(target.spec));
      const span = batchTrace?.target(target.spec, target.index);
      row = await runTarget(target, {
        launch: opts.launch,
        recipe: opts.recipe,
        params: opts.params,
        batchDir: opts.outDir,
        timeoutMs: smaller(opts.recipeLimits.timeoutMs, timeLeft),
        maxTokens: grant.tokens,
        maxCostUsd: costGrant.tokens,
        env: { ...opts.env, ...(span ? { TRACEPARENT: span.traceparent, TRACESTATE: span.tracestate } : {}), ...(collector.unanswered ? { [UNANSWERED_ENV]: '1' } : {}) },
        signal: opts.signal,
        onEvent: (event) => progress.event(shownTarget(target.spec), event),
        onReport: (report) => (collector.unanswered = saysUnanswered(report.warnings)),
      }).catch((error: unknown) => ({ ...emptyRow(target), status: 'error', category: 'infrastructure' as const, cause: 'batch error', error: String((error as Error)?.message ?? error) }));
      row = cutShortByBatch(row, batchLimits);
      span?.end(row);
    }
    // A target the batch never started is in its trace too, as an instant span saying why (a fleet's
    // owner reading the trace sees every target, not only those that ran).
    if (row.category === 'not_run') batchTrace?.target(target.spec, target.index).end(row);
    // Whatever happened, the reservations go back: a waiting run may now start.
    if (grant) budget.settle(grant, row.tokens.total);
    if (costGrant) dollars.settle(costGrant, row.cost_usd ?? 0);
    rows.set(target.index, row);
    save();
    progress.finish({ ...row, target: shownTarget(row.target) });
  };

  // No model call, no budget: the run's commit pushed again, its pull request opened again.
  const retryOne = async (target: Target, retry: HandoffToRetry): Promise<void> => {
    if (opts.signal.aborted || unwritten) return;
    const earlier = rows.get(target.index)!;
    progress.start(shownTarget(target.spec));
    // Its span, as a run's: the push and the pull request take seconds against GitHub, and may fail again.
    const span = batchTrace?.target(target.spec, target.index);
    const row = await retryHandoff(earlier, retry, opts.handoff!, withCloneCredentials(opts.env, target.kind === 'git' ? cloneCredentials(target.location) : null), opts.signal).catch((error: unknown) => ({ ...earlier, error: `git hand-off tried again by --resume: ${String((error as Error)?.message ?? error)}` }));
    span?.end(row);
    rows.set(target.index, row);
    save();
    progress.finish({ ...row, target: shownTarget(row.target) });
  };
  for (const [target, retry] of retries) void queue.add(() => retryOne(target, retry));
  for (const target of toRun) void queue.add(() => runOne(target));
  await queue.onIdle();
  opts.signal.removeEventListener('abort', onStop);
  opts.leaving?.removeEventListener('abort', onLeave);
  const failed = opts.allowFailures ? 0 : [...rows.values()].filter((row) => row.category !== 'success').length;
  const summary = { targets: toRun.length + retries.length, interrupted: opts.signal.aborted ? (opts.interruptedBy?.() ?? 'interrupted') : null, failed, of: rows.size };
  for (const message of (await batchTrace?.shutdown(summary)) ?? []) progress.note(message);
  progress.close();
  const report = snapshot(!opts.signal.aborted);
  writeBatchReport(opts.outDir, report);
  return report;
}

/** True when the batch's remainder or share, not the recipe's own limit, was the one passed down. */
function stricter(batchGives: number | null, recipeLimit: number | null): boolean {
  return batchGives !== null && (recipeLimit === null || batchGives < recipeLimit);
}

/** The run's limits that are the batch's rather than the recipe's own: [what the batch gives, the recipe's limit] each. */
function batchLimitsOf(limits: Record<BatchLimit, [number | null, number | null]>): BatchLimit[] {
  return (Object.keys(limits) as BatchLimit[]).filter((name) => stricter(...limits[name]));
}

const CUT_SHORT_BY: Record<BatchLimit, string> = { timeout: 'batch deadline reached', max_tokens: 'batch token budget spent', max_cost_usd: 'batch cost budget spent' };

/**
 * A run stopped by the batch's deadline or budget, not by its recipe's limits, did not have its
 * fair run: it is not final, so --resume runs it again (with a new deadline or budget).
 */
function cutShortByBatch(row: BatchRow, batchLimits: readonly BatchLimit[]): BatchRow {
  if (row.status !== 'limit') return row;
  const limit = batchLimits.find((name) => row.cause === `limit: ${name}`);
  return limit ? { ...row, category: 'cancelled', cause: CUT_SHORT_BY[limit] } : row;
}

function smaller(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/** The rows the earlier batch in this directory recorded, by target; none when it left no report. */
/** The rows a --resume of the batch in `batchDir` keeps, by target index: the final ones; the others run again. */
export function rowsKeptByResume(targets: readonly Target[], batchDir: string): Map<number, BatchRow> {
  const recorded = recordedRows(batchDir);
  const kept = new Map<number, BatchRow>();
  for (const target of targets) {
    const earlier = earlierRow(target, batchDir, recorded.get(target.spec));
    if (earlier && FINAL_CATEGORIES.has(earlier.category)) kept.set(target.index, earlier);
  }
  return kept;
}

function recordedRows(batchDir: string): Map<string, BatchRow> {
  try {
    return new Map(readBatchReport(batchDir).rows.map((row) => [row.target, row]));
  } catch {
    return new Map();
  }
}

/**
 * The row an earlier run of this batch left for the target. The batch's own row is the verdict:
 * only it knows that the batch's deadline or budget, not the recipe, stopped the run (the run's
 * report says just `limit`). A row the batch never concluded (it was killed while the target ran)
 * is judged from the run's own report, which a run outliving its batch still writes, with the
 * limits the batch recorded as its own when it started the run: a run they stopped is run again,
 * as it would be had the batch lived to conclude its row.
 */
function earlierRow(target: Target, batchDir: string, recorded: BatchRow | undefined): BatchRow | null {
  if (recorded && recorded.category !== 'pending') return recorded;
  const file = path.join(targetDir(batchDir, target), 'report.json');
  const report = readRunReport(file);
  if (!report) return null;
  const row = rowFromRun(emptyRow(target), report, { exitCode: report.exit_code, signal: null, stderrTail: '' }, path.relative(batchDir, file), report.duration_ms);
  return cutShortByBatch(row, recorded?.batch_limits ?? []);
}
