// `batch matrix` and `batch merge`: fanning a batch out across CI jobs and gathering it back.
import path from 'node:path';
import { writeBatchReport } from '../../batch/batch-report.js';
import { mergeReports, readMergeInputs } from '../../batch/merge.js';
import { shardMatrix } from '../../batch/shard.js';
import { readTargetsFile } from '../../batch/targets.js';
import { ExitCode } from '../../types/outcome.js';

/** Prints `{"include":[{"shard":"1/N"},...]}` for `strategy.matrix` (via fromJSON). */
export function matrixCommand(args: { targets: string; shards: number }): number {
  const { targets } = readTargetsFile(args.targets);
  process.stdout.write(`${JSON.stringify(shardMatrix(targets, args.shards))}\n`);
  return ExitCode.success;
}

export function mergeCommand(args: { dirs: string[]; out?: string }): number {
  const outDir = path.resolve(args.out ?? '.');
  const merged = mergeReports(readMergeInputs(args.dirs), outDir);
  writeBatchReport(outDir, merged);
  const t = merged.totals;
  process.stderr.write(`unattended batch merge: ${args.dirs.length} reports, ${t.by_category.success}/${t.targets} succeeded; report ${path.join(outDir, 'batch-report.md')}\n`);
  return ExitCode.success;
}
