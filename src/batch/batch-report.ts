// batch-report.json: one row per target, totals, failures grouped by cause. Rewritten after every
// target (write to a temporary file, then rename), so a batch killed at any moment leaves a
// complete, parseable report whose unfinished rows say so.
import { roundUsd } from '../types/content.js';
import { ExitCode, type LimitName } from '../types/outcome.js';
import { UserFacingError } from '../types/errors.js';
import fs from 'node:fs';
import path from 'node:path';
import { renderBatchMarkdown } from './render-batch-markdown.js';
import { makeDirs } from '../util/make-dirs.js';

/**
 * What a row's outcome means for the fleet. `success`: the run exited 0 (as `unattended run` would
 * for it). `agent`: the run ended on its own terms but did not succeed (failed, limit, loop, denied
 * past its limit, checks failed). `handoff`: the work was done but the git hand-off failed (branch
 * exists, push rejected). `infrastructure`: the target never got a fair run (clone failed, endpoint
 * down or refusing the key, runner crashed). `configuration`: the recipe or its inputs were
 * refused. `cancelled`, `not_run` and `pending` are runs that did not happen or did not end.
 * `--resume` keeps the final categories and runs every other target again.
 */
export type RowCategory = 'success' | 'agent' | 'handoff' | 'infrastructure' | 'configuration' | 'cancelled' | 'not_run' | 'pending';

export const FINAL_CATEGORIES: ReadonlySet<RowCategory> = new Set(['success', 'agent', 'handoff']);

export interface BatchRow {
  index: number;
  target: string;
  slug: string;
  /** The run's status (success, failed, denied, limit, loop, cancelled, error), or pending, running, skipped. */
  status: string;
  category: RowCategory;
  /** Why it did not succeed, the key failures are grouped by; null on success. */
  cause: string | null;
  exit_code: number | null;
  turns: number;
  tool_calls: number;
  /** `estimated`: the endpoint sent no counts for some turn (providers/missing-usage.ts). */
  tokens: { input: number; output: number; total: number; estimated?: true };
  /** What the run's model calls cost in US dollars; null when no price was known (or it did not run). */
  cost_usd: number | null;
  files_changed: number;
  duration_ms: number;
  error: string | null;
  run_id: string | null;
  /** The run's report.json, relative to the batch directory. */
  report: string | null;
  git: { branch: string; commit: string | null; pushed: boolean } | null;
  /** The pull request the hand-off opened or updated (recipe `git.pull_request`); null otherwise. */
  pull_request: BatchPullRequest | null;
  /**
   * On a running target's row: its run's limits that are the batch's remainder (--timeout,
   * --max-tokens, --max-cost-usd) rather than the recipe's own. Should the batch be killed while
   * the run goes on, --resume reads from it that a run these stopped was cut short by the batch.
   */
  batch_limits?: BatchLimit[];
  /**
   * Set when a --resume pushed the run's commit again or opened its pull request again, its
   * hand-off having failed after the commit (resume-handoff.ts): the run's own report.json still
   * says handoff_failed, as it was when the run ended.
   */
  handoff_retried?: true;
}

/** The run limits a batch passes down from its own deadline and budgets. */
export type BatchLimit = Extract<LimitName, 'timeout' | 'max_tokens' | 'max_cost_usd'>;

export interface BatchPullRequest {
  url: string | null;
  number: number | null;
  /** `owner/name` */
  repository: string | null;
  /** The REST API that served it: `batch status` asks the same one. */
  api_url: string | null;
  action: 'created' | 'updated' | null;
  error: string | null;
}

export interface BatchInputs {
  recipe_file: string;
  /** sha256 of the recipe file's bytes. */
  recipe_sha256: string;
  /** `--param` values as given, sorted. */
  params: string[];
}

export interface BatchTotals {
  targets: number;
  by_category: Record<RowCategory, number>;
  turns: number;
  tool_calls: number;
  /** `estimated`: some row's are. */
  tokens: { input: number; output: number; total: number; estimated?: true };
  /** Sum of the known costs in US dollars; null when no run had a price. */
  cost_usd: number | null;
  files_changed: number;
  /** Sum of the runs' durations (not the batch's wall time). */
  duration_ms: number;
}

export interface FailureGroup {
  category: RowCategory;
  cause: string;
  targets: string[];
}

export interface BatchReport {
  version: 1;
  recipe: string;
  /** The targets file, the GitHub query (`--org acme --topic fleet`), or both joined by ` + `. */
  targets_file: string | null;
  shard: string | null;
  /**
   * With `shard`: how many targets each shard of the split has (index 0: shard 1). `batch merge`
   * expects a report from exactly the shards that have targets.
   */
  shard_targets?: number[];
  started_at: string;
  updated_at: string;
  /** False while running, and in the report a killed batch leaves behind. */
  finished: boolean;
  /** Set when the batch was stopped (SIGINT, SIGTERM) before every target ran. */
  interrupted: string | null;
  /** What the batch ran: `--resume` refuses to continue a batch whose recipe or parameters differ. */
  inputs?: BatchInputs;
  /** Directories whose reports `batch merge` combined. */
  merged_from?: string[];
  /** Shards (`i/n`) of the fleet that no merged report covers; empty or absent when complete. */
  missing_shards?: string[];
  totals: BatchTotals;
  failures: FailureGroup[];
  rows: BatchRow[];
}

export function emptyRow(target: { index: number; spec: string; slug: string }): BatchRow {
  return {
    index: target.index,
    target: target.spec,
    slug: target.slug,
    status: 'pending',
    category: 'pending',
    cause: null,
    exit_code: null,
    turns: 0,
    tool_calls: 0,
    tokens: { input: 0, output: 0, total: 0 },
    cost_usd: null,
    files_changed: 0,
    duration_ms: 0,
    error: null,
    run_id: null,
    report: null,
    git: null,
    pull_request: null,
  };
}

export function totalsOf(rows: readonly BatchRow[]): BatchTotals {
  const by_category: Record<RowCategory, number> = { success: 0, agent: 0, handoff: 0, infrastructure: 0, configuration: 0, cancelled: 0, not_run: 0, pending: 0 };
  const totals: BatchTotals = { targets: rows.length, by_category, turns: 0, tool_calls: 0, tokens: { input: 0, output: 0, total: 0 }, cost_usd: null, files_changed: 0, duration_ms: 0 };
  for (const row of rows) {
    by_category[row.category]++;
    totals.turns += row.turns;
    totals.tool_calls += row.tool_calls;
    totals.tokens.input += row.tokens.input;
    totals.tokens.output += row.tokens.output;
    totals.tokens.total += row.tokens.total;
    if (row.tokens.estimated) totals.tokens.estimated = true;
    // Rows written before costs were recorded have none.
    if (typeof row.cost_usd === 'number') totals.cost_usd = roundUsd((totals.cost_usd ?? 0) + row.cost_usd);
    totals.files_changed += row.files_changed;
    totals.duration_ms += row.duration_ms;
  }
  return totals;
}

/** Failures grouped by category and cause, the largest group first. */
export function failureGroups(rows: readonly BatchRow[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const row of rows) {
    if (row.category === 'success' || row.category === 'pending') continue;
    const cause = row.cause ?? row.status;
    const key = `${row.category}\0${cause}`;
    const group = groups.get(key) ?? { category: row.category, cause, targets: [] };
    group.targets.push(row.target);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.targets.length - a.targets.length || a.cause.localeCompare(b.cause));
}

export function withSummary(report: Omit<BatchReport, 'totals' | 'failures'>): BatchReport {
  const rows = [...report.rows].sort((a, b) => a.index - b.index);
  return { ...report, rows, totals: totalsOf(rows), failures: failureGroups(rows) };
}

/** True when every row succeeded: the batch's exit code is 0. */
export function allSucceeded(report: BatchReport): boolean {
  return report.rows.every((row) => row.category === 'success');
}

export function writeBatchReport(dir: string, report: BatchReport): void {
  makeDirs(dir);
  writeAtomically(path.join(dir, 'batch-report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeAtomically(path.join(dir, 'batch-report.md'), renderBatchMarkdown(report));
}

export function readBatchReport(dir: string): BatchReport {
  const file = path.join(dir, 'batch-report.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as BatchReport;
  if (data?.version !== 1 || !Array.isArray(data.rows)) throw new Error(`${file} is not a batch report`);
  return data;
}

/** The batch's own record cannot be written (a full disk): exit 54, as for a run's transcript. */
export class BatchReportWriteError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(file: string, cause: unknown) {
    super(
      `cannot write the batch report ${file}: ${(cause as Error)?.message ?? String(cause)}`,
      'free space there, then go on with the same command and --resume (rows already final are kept), or choose another --out DIR',
    );
  }
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (error) {
    // The earlier report stays whole; no cut temporary file is left beside it.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do: the error below names the report.
    }
    throw new BatchReportWriteError(file, error);
  }
}
