// `batch --resume` and a target whose run did its work, committed it, and then could not hand it
// over: the push or the pull request failed (GitHub answering 502 past the retries, origin down).
// Running the target again would pay for the same work, and on a local target find its own branch
// in the way; keeping the row as final left the commit on a local branch no one would see. So a
// resume pushes that commit again and opens (or updates) the pull request, from the run's record,
// without the model. A failure the run itself caused (origin repointed during the run, the work on
// a copy of the workspace) is not tried again: it stays final, as before.
import path from 'node:path';
import type { Report } from '../report/report.js';
import { NOT_PUSHED_FROM_COPY } from '../types/changes.js';
import type { GitHandoff } from '../recipe/types.js';
import type { BatchPullRequest, BatchRow } from './batch-report.js';
import type { Target } from './targets.js';
import { readRunReport, targetDir } from './run-target.js';

/** A kept row's run whose hand-off --resume tries again, with where its branch is. */
export interface HandoffToRetry {
  report: Report;
  workspace: string;
}

/** Push failures the run itself caused: pushing again would do what the hand-off refused to. */
const NOT_RETRIED = [/^origin changed during the run/];

/** The run behind a kept `handoff` row when its hand-off failed after the commit, at the push or the pull request; else null. */
export function handoffToRetry(target: Target, row: BatchRow, batchDir: string, config: GitHandoff | null): HandoffToRetry | null {
  if (row.category !== 'handoff' || !config?.push || !row.report) return null;
  const report = readRunReport(path.join(batchDir, row.report));
  const git = report?.git;
  if (!report || report.status !== 'handoff_failed' || !git?.commit || git.error) return null;
  const pushFailed = !git.pushed && !!git.push_error && git.push_error !== NOT_PUSHED_FROM_COPY && !NOT_RETRIED.some((re) => re.test(git.push_error!));
  const pullRequestFailed = git.pushed && !!config.pullRequest && !!git.pull_request?.error;
  if (!pushFailed && !pullRequestFailed) return null;
  const workspace = target.kind === 'git' ? path.join(batchDir, 'checkouts', target.slug) : target.location;
  // The run's own directory is where its report is: a row pointing elsewhere is not this target's run.
  if (path.dirname(path.resolve(batchDir, row.report)) !== targetDir(batchDir, target)) return null;
  return { report, workspace };
}

/** Pushes the run's commit again (when its push failed) and opens or updates its pull request; the row as it now stands. */
export async function retryHandoff(row: BatchRow, retry: HandoffToRetry, config: GitHandoff, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<BatchRow> {
  const started = Date.now();
  const { report, workspace } = retry;
  const recorded = report.git!;
  const branch = recorded.branch;
  const commit = recorded.commit!;
  const { git, gitComplaint } = await import('../git/git-exec.js');
  const failed = (why: string, pushed: boolean, pull_request: BatchPullRequest | null = row.pull_request): BatchRow => ({
    ...row,
    error: `git hand-off tried again by --resume: ${why}`,
    git: { branch, commit, pushed },
    pull_request,
    handoff_retried: true,
    duration_ms: row.duration_ms + (Date.now() - started),
  });
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: workspace, parentEnv: env });
  if (!top.ok) return failed(`the workspace ${workspace} is no longer a git repository (${gitComplaint(top, 1)})`, recorded.pushed);
  const run = (args: string[], extra: Record<string, string> = {}, timeoutMs = 60_000) => git(args, { cwd: top.stdout.trim(), signal, timeoutMs, parentEnv: env, env: extra });
  // The branch must still hold the run's commit: what it holds now is no longer what the run did.
  const tip = await run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  if (tip.stdout.trim() !== commit) return failed(`branch '${branch}' ${tip.ok ? `is at ${tip.stdout.trim().slice(0, 12)} now` : 'is gone'}, not at the run's commit ${commit.slice(0, 12)}; nothing is pushed`, false);

  let pushed = recorded.pushed;
  if (!pushed) {
    const { pushBranch } = await import('../git/push-branch.js');
    const { DEFAULT_AUTHOR } = await import('../git/handoff.js');
    const push = await pushBranch(run, { branch, pullRequest: config.pullRequest }, (config.author ?? DEFAULT_AUTHOR).email, signal);
    if (!push.pushed) return failed(`git push of branch '${branch}' failed: ${push.push_error ?? 'the batch was stopped'}; the commit ${commit} stays on the local branch`, false);
    pushed = true;
  }
  let pullRequest = row.pull_request;
  if (config.pullRequest) {
    const { openOrUpdatePullRequest } = await import('../git/pull-request.js');
    const { costFact } = await import('../git/handoff-step.js');
    // The URL as configured (not as insteadOf rewrites it): the repository people named.
    const url = await run(['config', '--get', 'remote.origin.url']);
    const pr = await openOrUpdatePullRequest({
      config: config.pullRequest,
      branch,
      remoteUrl: url.stdout.trim(),
      facts: {
        summary: report.final_answer ?? '',
        cost_usd: costFact(report.usage.cost_usd),
        turns: String(report.turns),
        tool_calls: String(report.tool_calls.total),
        files_changed: String(report.files_changed.length),
        run_id: report.run_id,
        recipe: report.recipe.name,
        model: report.model,
        commit,
      },
      env,
      signal,
    });
    pullRequest = { url: pr.url, number: pr.number, repository: pr.repository, api_url: pr.api_url, action: pr.action, error: pr.error };
    if (pr.error) return failed(`pull request: ${pr.error}`, true, pullRequest);
  }
  return {
    ...row,
    status: 'success',
    category: 'success',
    cause: null,
    exit_code: 0,
    error: null,
    git: { branch, commit, pushed },
    pull_request: pullRequest,
    handoff_retried: true,
    duration_ms: row.duration_ms + (Date.now() - started),
  };
}
