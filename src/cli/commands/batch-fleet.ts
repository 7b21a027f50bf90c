// `batch matrix`, `batch merge` and `batch status`: fanning a batch out across CI jobs, gathering
// it back, and following its pull requests.
import fs from 'node:fs';
import path from 'node:path';
import { allSucceeded, readBatchReport, writeBatchReport } from '../../batch/batch-report.js';
import { InputError } from '../../recipe/index.js';
import { mergeReports, readMergeInputs, refuseBatchRecord } from '../../batch/merge.js';
import { appendJobSummary } from '../../batch/job-summary.js';
import { shardMatrix } from '../../batch/shard.js';
import { readTargetsFile, shownTarget } from '../../batch/targets.js';
import { ExitCode } from '../../types/outcome.js';

/** Prints `{"include":[{"shard":"1/N"},...]}` for `strategy.matrix` (via fromJSON). */
export function matrixCommand(args: { targets: string; shards: number }): number {
  const { targets } = readTargetsFile(args.targets);
  process.stdout.write(`${JSON.stringify(shardMatrix(targets, args.shards))}\n`);
  return ExitCode.success;
}

export function mergeCommand(args: { dirs: string[]; out?: string; allowPartial?: boolean; allowFailures?: boolean }): number {
  const outDir = path.resolve(args.out ?? '.');
  const repeated: string[] = [];
  const inputs = readMergeInputs(args.dirs, repeated);
  if (repeated.length) process.stderr.write(`unattended batch merge: ${repeated.join(', ')} named more than once; each report is merged once\n`);
  refuseBatchRecord(outDir);
  const merged = mergeReports(inputs, outDir);
  try {
    writeBatchReport(outDir, merged);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new InputError(`cannot write the merged report to ${outDir} (${code})`, 'choose a writable directory with --out DIR');
  }
  // A sharded fleet's merge job is where the fleet is seen whole: its summary is the merged report, as a batch's is its own.
  appendJobSummary(outDir, process.env.GITHUB_STEP_SUMMARY, 'batch merge');
  const t = merged.totals;
  const where = path.join(outDir, 'batch-report.md');
  process.stderr.write(`unattended batch merge: ${inputs.length} report${inputs.length === 1 ? '' : 's'}, ${t.by_category.success}/${t.targets} succeeded; report ${where}\n`);
  // A merge of part of a fleet must not pass for the whole: say what is missing, and fail.
  const unfinished = inputs.filter((i) => !i.report.finished).map((i) => i.dir);
  const gaps = [
    ...(merged.missing_shards?.length ? [`shard${merged.missing_shards.length === 1 ? '' : 's'} ${merged.missing_shards.join(', ')} missing`] : []),
    ...(unfinished.length ? [`${unfinished.length} report${unfinished.length === 1 ? '' : 's'} did not finish (${unfinished.join(', ')})`] : []),
  ];
  if (gaps.length > 0) {
    process.stderr.write(`unattended batch merge: the merged report is partial: ${gaps.join('; ')}${args.allowPartial ? '' : ' (--allow-partial accepts a partial merge)'}\n`);
    if (!args.allowPartial) return ExitCode.failed;
  }
  // As the batch of these targets would have ended: a CI job that gates on the merge must not
  // pass a fleet whose targets failed (the shards' own jobs often run with --allow-failures).
  if (!allSucceeded(merged) && !args.allowFailures) {
    process.stderr.write(`unattended batch merge: ${t.targets - t.by_category.success} of ${t.targets} targets did not succeed (--allow-failures exits 0 all the same)\n`);
    return ExitCode.failed;
  }
  return ExitCode.success;
}

/** Each target's pull request as GitHub has it now; exit 1 when GitHub could not be asked for one, or for its checks. */
export async function statusCommand(args: { dir: string; json?: boolean }): Promise<number> {
  let report;
  try {
    report = readBatchReport(path.resolve(args.dir));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const dir = path.resolve(args.dir);
    // Not a batch's directory, but one of its runs' (targets/SLUG) or a lone run's: said, with the command that reads it.
    const run = missing && fs.existsSync(path.join(dir, 'report.json')) && fs.existsSync(path.join(dir, 'transcript.jsonl'));
    const why = !missing ? ((error as NodeJS.ErrnoException).code ?? (error as Error).message) : run ? "it is a run's directory (report.json), not a batch's" : 'there is none there (no batch-report.json)';
    throw new InputError(
      `cannot read the batch report in ${args.dir}: ${why}`,
      run
        ? `\`unattended report ${args.dir}\` shows that run (its pull request is the report's git.pull_request); batch status takes the batch's directory, its --out (.unattended/batches/RECIPE-NAME by default)`
        : "give a batch's directory: its --out, or .unattended/batches/RECIPE-NAME by default",
    );
  }
  const { pullRequestStatuses, renderStatusTable } = await import('../../batch/pr-status.js');
  const statuses = await pullRequestStatuses(report, process.env);
  // Printed, so without a clone URL's credentials (batch-report.json keeps the line as written).
  process.stdout.write(args.json ? `${JSON.stringify(statuses.map((s) => ({ ...s, target: shownTarget(s.target) })), null, 2)}\n` : renderStatusTable(statuses));
  return statuses.some((s) => s.state === 'unknown' || s.checks === 'unknown') ? ExitCode.failed : ExitCode.success;
}
