// The push of a hand-off's branch to origin: a lease on origin's tip when the branch replaces the
// hand-off's own earlier one (a pull request's re-run), never a branch someone else committed to.
// Shared by the run's hand-off and by `batch --resume`, which pushes again a branch whose push
// failed (a passing outage) without paying for the run's work a second time.
import type { GitHandoff } from '../recipe/types.js';
import { gitComplaint, type GitResult } from './git-exec.js';
import { localPushOptions } from './local-push.js';
import { uploadLfsObjects } from './lfs-objects.js';
import { remoteBranch } from './own-branch.js';

const PUSH_TIMEOUT_MS = 5 * 60_000;

type Git = (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<GitResult>;

export interface PushResult {
  pushed: boolean;
  push_error: string | null;
  /** origin's tip the push replaced (a re-run of a pull request's branch), when there was one. */
  replaced?: string;
  /** False when a stop came before the push began: origin surely has nothing of it. */
  started: boolean;
}

/** Pushes refs/heads/BRANCH to origin; `author` is the hand-off's identity, whose branch on origin may be replaced. */
export async function pushBranch(run: Git, config: Pick<GitHandoff, 'branch' | 'pullRequest'>, authorEmail: string, signal?: AbortSignal): Promise<PushResult> {
  let lease: string[] = [];
  let replaced: string | undefined;
  if (config.pullRequest) {
    const remote = await remoteBranch(run, config.branch, authorEmail);
    if (remote.problem) return { pushed: false, push_error: remote.problem, started: false };
    if (remote.tip) {
      lease = [`--force-with-lease=refs/heads/${config.branch}:${remote.tip}`];
      replaced = remote.tip;
    }
  }
  const base = { ...(replaced === undefined ? {} : { replaced }) };
  // The branch's LFS files' content first, as git-lfs's pre-push hook (which never runs here) would.
  const lfs = await uploadLfsObjects(run, config.branch);
  if (signal?.aborted) return { pushed: false, push_error: null, started: false, ...base };
  if (lfs) return { pushed: false, push_error: lfs, started: false, ...base };
  const local = await localPushOptions(run, 'origin');
  if (signal?.aborted) return { pushed: false, push_error: null, started: false, ...base };
  const push = await run(['push', '--no-verify', '--porcelain', ...local, ...lease, 'origin', `refs/heads/${config.branch}:refs/heads/${config.branch}`], {}, PUSH_TIMEOUT_MS);
  return push.ok ? { pushed: true, push_error: null, started: true, ...base } : { pushed: false, push_error: gitComplaint(push), started: true, ...base };
}
