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
  // Without a pull request the branch is new: an empty lease makes origin refuse it when it has a
  // branch of that name at all, even one the run's commit would merely fast-forward (someone's
  // branch that happens to point at the commit the run started from).
  let lease: string[] = config.pullRequest ? [] : [`--force-with-lease=refs/heads/${config.branch}:`];
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
  return push.ok ? { pushed: true, push_error: null, started: true, ...base } : { pushed: false, push_error: pushRefusal(push, config.branch, !config.pullRequest), started: true, ...base };
}

/**
 * Why origin did not take the branch, from the porcelain status line (`!\tSRC:DST\t[rejected] (fetch
 * first)`). git's own words for a branch origin already has are a hint to `git pull` and integrate,
 * written for a person's checkout: the hand-off's branch is new, so the one on origin is another's
 * (or an earlier run's), and what to do is delete it or name another branch.
 */
export function pushRefusal(push: GitResult, branch: string, mustBeNew = false): string {
  const status = /^!\t[^\t]*\t\[(rejected|remote rejected)\] \((.*)\)$/m.exec(push.stdout);
  if (!status) return gitComplaint(push);
  const [, kind, reason] = status;
  if (kind === 'remote rejected') {
    // The server's own lines (a protected branch's rule, a hook's message) say why.
    const said = push.stderr.split('\n').filter((l) => l.startsWith('remote:')).map((l) => l.slice('remote:'.length).trim()).filter(Boolean).slice(0, 3).join(' / ');
    return `origin refused branch '${branch}' (${reason})${said ? `: ${said}` : ''}`;
  }
  if (reason === 'stale info' && mustBeNew) {
    return `origin already has a branch '${branch}': the hand-off's branch is new, so one on origin is neither overwritten nor added to; delete it on origin, or name another branch in the recipe's hand-off section (branch:)`;
  }
  if (reason === 'stale info') return `origin's branch '${branch}' changed while the hand-off pushed (someone pushed to it): it is not overwritten; look at it before you run again`;
  if (reason === 'fetch first' || reason === 'non-fast-forward') {
    return `origin already has a branch '${branch}' with commits this one does not hold (rejected: ${reason}): it is not overwritten; delete it on origin, or name another branch in the recipe's hand-off section (branch:)`;
  }
  return `origin rejected branch '${branch}' (${reason})`;
}
