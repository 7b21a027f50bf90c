// The flags of `unattended batch`, `batch matrix` and `batch merge`.
import type { Argv } from 'yargs';

export function batchOptions<T>(y: Argv<T>) {
  return y
    .positional('recipe', { type: 'string', demandOption: true, describe: 'Recipe file (YAML) run on every target' })
    .option('targets', { type: 'string', describe: 'File with one target a line: a directory or a git URL (# comments)' })
    .option('org', { type: 'string', describe: 'Targets: the repositories of a GitHub organisation (or user); not archived, not forks' })
    .option('topic', { type: 'string', array: true, describe: 'Targets: GitHub repositories with this topic (repeatable; with --org, a filter)' })
    .option('search', { type: 'string', describe: "Targets: a GitHub repository search, e.g. 'org:acme language:go'" })
    .option('dry-run', { type: 'boolean', default: false, describe: 'Print the targets, recipe, policy, sandbox and hand-off; run nothing' })
    .option('concurrency', { alias: ['jobs', 'j'], type: 'string', default: '2', describe: 'Targets run at the same time' })
    .option('out', { type: 'string', describe: 'Batch directory (default .unattended/batches/<recipe>[-shard-i-of-n])' })
    .option('param', { type: 'string', array: true, default: [] as string[], describe: 'Recipe parameter k=v for every run (repeatable)' })
    .option('resume', { type: 'boolean', default: false, describe: 'Keep targets whose earlier run reached a final status; run the others (outages, crashes, cancelled) again' })
    .option('force', { type: 'boolean', default: false, describe: 'With --resume: continue even though the recipe or --param values differ from the earlier run' })
    .option('shard', { type: 'string', describe: 'Run only slice i of n (i/n): by a stable hash of each target line' })
    .option('allow-failures', { type: 'boolean', default: false, describe: 'Exit 0 even when targets failed' })
    .option('timeout', { type: 'string', describe: 'Wall-clock limit for the whole batch, e.g. 2h; runs get what remains' })
    .option('max-tokens', { type: 'string', describe: 'Token budget for the whole batch; no new target starts once it is spent' })
    .option('max-cost-usd', { type: 'string', describe: 'Budget in US dollars for the whole batch; no new target starts once it is spent' });
}

export type BatchArgs = ReturnType<typeof batchOptions>['argv'] extends infer A ? Awaited<A> : never;

export function matrixOptions<T>(y: Argv<T>) {
  return y
    .option('targets', { type: 'string', demandOption: true, describe: 'The targets file the batch jobs will use' })
    .option('shards', { type: 'number', demandOption: true, describe: 'Number of shards (jobs), at most 256' });
}

export function statusOptions<T>(y: Argv<T>) {
  return y
    .positional('dir', { type: 'string', demandOption: true, describe: 'A batch directory (with batch-report.json)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of a table' });
}

export function mergeOptions<T>(y: Argv<T>) {
  return y
    .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'Batch directories (each with a batch-report.json)' })
    .option('out', { type: 'string', describe: 'Where to write the merged batch-report.json and .md (default: the current directory)' })
    .option('allow-partial', { type: 'boolean', default: false, describe: 'Exit 0 even when shards are missing or did not finish' })
    .option('allow-failures', { type: 'boolean', default: false, describe: 'Exit 0 even when targets failed' });
}
