// `batch merge`: the reports of the jobs a fleet fanned out to, combined into one. A target that
// appears in several reports (a job rerun, overlapping runs) keeps its most conclusive row: a
// final one (success, agent failure) over one that did not finish, then the most recent.
import { InputError } from '../types/errors.js';
import fs from 'node:fs';
import path from 'node:path';
import { earlierBatchEntry } from './earlier-batch.js';
import { FINAL_CATEGORIES, readBatchReport, withSummary, type BatchReport, type BatchRow } from './batch-report.js';

export interface MergeInput {
  dir: string;
  report: BatchReport;
}

/**
 * One input per directory: the same shard named twice (`shard-1 shard-*`, `s1 ./s1/`) was merged
 * as two reports, said as 'N reports' and listed twice in merged_from. `repeated` gets the ones left out.
 */
function distinctDirs(dirs: readonly string[], repeated: string[]): string[] {
  const seen = new Set<string>();
  return dirs.filter((dir) => {
    let key = path.resolve(dir);
    try {
      key = fs.realpathSync(key);
    } catch {
      // A directory that is not there is said by readMergeInputs.
    }
    if (!seen.has(key)) return seen.add(key);
    repeated.push(dir);
    return false;
  });
}

/** `repeated` gets the directories named more than once (each is read once). */
export function readMergeInputs(dirs: readonly string[], repeated: string[] = []): MergeInput[] {
  return distinctDirs(dirs, repeated).map((dir) => {
    try {
      return { dir, report: readBatchReport(dir) };
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new MergeError(
        `cannot read ${path.join(dir, 'batch-report.json')}: ${missing ? 'there is no batch report there' : (error as Error).message}`,
        missing
          ? "give each shard's batch directory (its --out, which holds batch-report.json); to merge without a shard whose job left none, leave it out and add --allow-partial"
          : "it is not a batch report unattended wrote: give each shard's batch directory (its --out), or run that shard again with --resume to rewrite it",
      );
    }
  });
}

export class MergeError extends InputError {}

/**
 * The merged report goes where a batch's own record is (a shard's directory named as --out, or a
 * working directory a batch ran in): it would replace that batch's report, and refused it is,
 * before anything is written. A directory holding an earlier merge is rewritten: a merge is
 * derived from its inputs, and rerunning one into the same place is how a fleet's report is
 * brought up to date.
 */
export function refuseBatchRecord(outDir: string): void {
  const found = earlierBatchEntry(outDir);
  if (!found) return;
  const runsThere = fs.existsSync(path.join(outDir, 'targets')) || fs.existsSync(path.join(outDir, 'checkouts'));
  if (!runsThere && mergedReportAt(outDir)) return;
  throw new MergeError(
    `${outDir} holds a batch's own record (its ${found}), which the merged report would replace`,
    'give the merge its own --out (a new directory, or one an earlier merge wrote)',
  );
}

/** The report in `dir` is a merge's (it names what it was merged from); false when there is none, or it cannot be read. */
function mergedReportAt(dir: string): boolean {
  try {
    return Array.isArray(readBatchReport(dir).merged_from);
  } catch {
    return false;
  }
}

/** Rows' report paths are rewritten relative to `outDir`, where the merged report is written. */
export function mergeReports(inputs: readonly MergeInput[], outDir: string): BatchReport {
  if (!inputs.length) throw new MergeError('nothing to merge: name one or more batch output directories');
  const recipes = new Set(inputs.map((i) => i.report.recipe));
  if (recipes.size > 1) throw new MergeError(`the reports are of different recipes (${[...recipes].join(', ')}); merge one recipe's reports at a time`);
  // The same recipe name run with other --param values (or another version of the file) is another
  // batch: its rows are not this one's, as --resume holds too. Reports from before inputs were recorded say nothing.
  const recorded = inputs.filter((i) => i.report.inputs !== undefined);
  const ran = new Set(recorded.map((i) => JSON.stringify({ sha: i.report.inputs!.recipe_sha256, params: i.report.inputs!.params })));
  if (ran.size > 1) {
    const each = recorded.map((i) => `${i.dir}: ${i.report.inputs!.params.length ? i.report.inputs!.params.join(' ') : 'no --param'}, recipe sha256 ${i.report.inputs!.recipe_sha256.slice(0, 12)}`);
    throw new MergeError(`the reports ran the recipe differently (${each.join('; ')}); merge the reports of one recipe file and one set of --param values`);
  }
  const best = new Map<string, { row: BatchRow; updated: string }>();
  for (const { dir, report } of inputs) {
    for (const row of report.rows) {
      const candidate = { row: { ...row, report: row.report && path.relative(outDir, path.resolve(dir, row.report)) }, updated: report.updated_at };
      const current = best.get(row.target);
      if (!current || better(candidate, current)) best.set(row.target, candidate);
    }
  }
  const first = inputs[0]!.report;
  const missing = missingShards(inputs);
  return withSummary({
    version: 1,
    recipe: first.recipe,
    targets_file: first.targets_file,
    shard: null,
    started_at: inputs.map((i) => i.report.started_at).sort()[0]!,
    updated_at: inputs.map((i) => i.report.updated_at).sort().at(-1)!,
    finished: inputs.every((i) => i.report.finished) && missing.length === 0,
    interrupted: inputs.map((i) => i.report.interrupted).find((x) => x) ?? null,
    ...(recorded[0] ? { inputs: recorded[0].report.inputs } : {}),
    merged_from: inputs.map((i) => path.resolve(i.dir)),
    missing_shards: missing,
    rows: [...best.values()].map((b) => b.row),
  });
}

/**
 * The shards of the fleet no report covers. Shard reports say `i/n`; all must split the fleet the
 * same n ways. Reports of a whole batch (no shard) cover everything. A shard the hash left empty
 * (the matrix lists no job for it) is not missing: each report records how many targets every
 * shard has; reports from before that was recorded expect all n.
 */
function missingShards(inputs: readonly MergeInput[]): string[] {
  const shards = inputs.map((i) => i.report.shard);
  if (shards.some((s) => s === null)) return [];
  const parsed = shards.map((s) => s!.split('/').map(Number) as [number, number]);
  const counts = new Set(parsed.map(([, n]) => n));
  if (counts.size > 1) throw new MergeError(`the reports split the fleet differently (${[...new Set(shards)].join(', ')}); merge the shards of one split`);
  const [count] = [...counts] as [number];
  const present = new Set(parsed.map(([i]) => i));
  const sizes = inputs.map((i) => i.report.shard_targets).filter((s): s is number[] => Array.isArray(s) && s.length === count);
  // Should the jobs have read different targets files, a shard any of them saw targets in is expected.
  const expected = (i: number) => sizes.length === 0 || sizes.some((s) => (s[i - 1] ?? 0) > 0);
  return Array.from({ length: count }, (_, k) => k + 1).filter((i) => expected(i) && !present.has(i)).map((i) => `${i}/${count}`);
}

function better(a: { row: BatchRow; updated: string }, b: { row: BatchRow; updated: string }): boolean {
  const finalA = FINAL_CATEGORIES.has(a.row.category);
  const finalB = FINAL_CATEGORIES.has(b.row.category);
  if (finalA !== finalB) return finalA;
  return a.updated > b.updated;
}
