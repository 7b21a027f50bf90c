// The runner's step between the loop and the report: hand off only a run that succeeded, and let
// a failed hand-off fail the run (status handoff_failed, exit 58): a nightly job must not report
// success for work it left uncommitted, or committed but could not push.
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { stopOutcome } from '../loop/stop.js';
import type { GitHandoff, PullRequestConfig } from '../recipe/types.js';
import { NOT_PUSHED_FROM_COPY, type GitHandoffReport, type PullRequestReport } from '../types/changes.js';
import type { RunFacts } from './pull-request.js';
import { isStrictlyInside } from '../util/paths.js';

export interface HandoffStepInput {
  config: GitHandoff | null;
  outcome: RunOutcome;
  workspace: string;
  outDir: string;
  /** The workspace and origin when the run started (baselineForHandoff). */
  baseline: HandoffBaseline | null;
  /** The paths files_changed lists (workspace-relative). */
  reported?: readonly string[];
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** What `{{ run.* }}` says in a pull request's title and body (all but the commit). */
  facts?: () => Omit<RunFacts, 'commit'>;
}

export interface HandoffStepResult {
  outcome: RunOutcome;
  /** For report.git; null when the recipe asks for no hand-off. */
  report: GitHandoffReport | null;
}

export interface HandoffBaseline {
  /** The workspace as a tree; null when none could be taken. */
  tree: string | null;
  /** Where a push to origin goes (`git remote get-url --push --all origin`); null without an origin; absent when no push was asked. */
  origin?: string | null;
  /**
   * What git ignored and did not track when the run started (repository-relative; a directory
   * ends in `/`): a run that changes the ignore rules must not commit the person's files (a log,
   * a secret) that were there, hidden, all along. Absent when git could not list them.
   */
  ignoredBefore?: readonly string[];
  /** HEAD's commit when the run started (null: no commit yet); absent when git could not tell. */
  head?: string | null;
  /** When it was recorded (ms since the epoch): objects changed since are checked (rewritten-objects.ts). */
  since?: number;
  /** Why git cannot use the repository around the workspace (another user's, broken), when it cannot: the hand-off will fail. */
  refused?: string;
}

/** `{{ run.cost_usd }}`: dollars to 4 places, 6 under a cent (so a cheap run is not `$0.0000`), or `unknown`. */
export function costFact(cost: number | undefined | null): string {
  return typeof cost === 'number' ? `$${cost.toFixed(cost > 0 && cost < 0.01 ? 6 : 4)}` : 'unknown';
}

/** Records the workspace before any tool runs, so the hand-off commits only what the run changed, and where origin is (origin.ts). */
export async function baselineForHandoff(config: GitHandoff | null, workspace: string, outDir: string, env: NodeJS.ProcessEnv): Promise<HandoffBaseline | null> {
  if (!config) return null;
  const since = Date.now();
  const { snapshotTree, snapshotExcludes, batchOutputDirs, ignoredUntracked, inGitWorkTree } = await import('./snapshot.js');
  const { repositoryProblem } = await import('./refused-repository.js');
  const { git } = await import('./git-exec.js');
  const [tree, ignored, head] = await Promise.all([
    snapshotTree(workspace, snapshotExcludes(workspace, outDir, batchOutputDirs(env)), env),
    ignoredUntracked(workspace, env),
    git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: workspace, parentEnv: env }),
  ]);
  // rev-parse --verify --quiet exits 1 only when there is no commit yet (128: no repository).
  const known = { since, ...(ignored === null ? {} : { ignoredBefore: ignored }), ...(head.ok ? { head: head.stdout.trim() } : head.exitCode === 1 ? { head: null } : {}) };
  // Exit 128 where there is a repository: git refuses it (owned by another user, say), and every
  // git of the run and the hand-off will too. Said at the start, before the model spends anything.
  if (!head.ok && head.exitCode === 128 && inGitWorkTree(workspace)) Object.assign(known, { refused: repositoryProblem(workspace, head) });
  if (!config.push) return { tree, ...known };
  const { originUrls } = await import('./origin.js');
  return { tree, ...known, origin: await originUrls(workspace, env) };
}


export async function gitHandoffStep(input: HandoffStepInput): Promise<HandoffStepResult> {
  const { config, outcome } = input;
  if (!config) return { outcome, report: null };
  if (outcome.status !== 'success') {
    const skipped = `the run ended with status ${outcome.status}; nothing is committed`;
    return { outcome, report: { branch: config.branch, commit: null, pushed: false, skipped, error: null, push_error: null, files: [], left_out: [] } };
  }
  // workspace_mode: copy puts the workspace inside the run output: a dry run, whose branch stays
  // in the copy. Pushing it would publish what the recipe asked to keep away from the original.
  const onCopy = isStrictlyInside(input.outDir, input.workspace);
  // Loaded only for a hand-off: git runs through execa, which most runs never need at start-up.
  const { handOff } = await import('./handoff.js');
  const report = await handOff({
    config: onCopy ? { ...config, push: false } : config,
    workspace: input.workspace,
    outDir: input.outDir,
    baseline: input.baseline,
    ...(input.reported ? { reported: input.reported } : {}),
    signal: input.signal,
    env: input.env,
  });
  if (onCopy && config.push && report.commit) report.push_error = NOT_PUSHED_FROM_COPY;
  if (config.pullRequest && !onCopy && report.pushed && report.commit && !input.signal.aborted) {
    report.pull_request = await pullRequestFor(config.pullRequest, report.branch, report.commit, input);
  }
  // Stopped during the hand-off: cancelled, with the answer the run had (the work is done; its hand-off is not).
  if (input.signal.aborted) return { outcome: { ...stopOutcome(input.signal.reason), finalAnswer: outcome.finalAnswer }, report: { ...report, error: report.error ?? 'interrupted' } };
  // The run changed files, and none of it could be handed off (each change overlapped lines that were
  // uncommitted before the run): no branch, no pull request, so not the success the recipe asked for.
  const nothingHandedOff =
    report.commit === null && report.left_out.length > 0
      ? `nothing the run changed could be committed: ${report.left_out.map((f) => `${f.path} (${f.reason})`).join('; ')}`
      : null;
  const failure =
    report.error ??
    nothingHandedOff ??
    (report.push_error && !onCopy ? `git push of branch '${report.branch}' failed: ${report.push_error}; the commit ${report.commit} stays on the local branch` : null) ??
    (report.pull_request?.error ? `pull request: ${report.pull_request.error}` : null);
  if (failure) {
    return { outcome: { ...outcome, status: 'handoff_failed', exitCode: ExitCode.handoffFailed, error: `git hand-off: ${failure}`, errorKind: 'handoff' }, report };
  }
  return { outcome, report };
}

async function pullRequestFor(config: PullRequestConfig, branch: string, commit: string, input: HandoffStepInput): Promise<PullRequestReport> {
  const env = input.env ?? process.env;
  const { git } = await import('./git-exec.js');
  // The URL as configured (not as insteadOf rewrites it): the repository people named.
  const url = await git(['config', '--get', 'remote.origin.url'], { cwd: input.workspace, parentEnv: env });
  const { openOrUpdatePullRequest } = await import('./pull-request.js');
  return openOrUpdatePullRequest({
    config,
    branch,
    remoteUrl: url.stdout.trim(),
    facts: { ...(input.facts?.() ?? { summary: '', cost_usd: 'unknown', turns: '0', tool_calls: '0', files_changed: '0', run_id: '', recipe: '', model: '' }), commit },
    env,
    signal: input.signal,
  });
}
