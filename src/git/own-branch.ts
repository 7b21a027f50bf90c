// Re-running a recipe that opens a pull request replaces the branch of its earlier run (and so
// updates that pull request), but only a branch that is the hand-off's own: its tip committed by
// the hand-off's identity. A branch someone else committed to is never overwritten, here or on
// origin, and the push is a lease on the tip that was checked: a push in between makes it fail.
import type { GitResult } from './git-exec.js';

type Git = (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<GitResult>;

const FETCH_TIMEOUT_MS = 5 * 60_000;

/** Why the local branch cannot be replaced, or null when it can. */
export async function localBranchProblem(run: Git, branch: string, tip: string, email: string): Promise<string | null> {
  const head = await run(['symbolic-ref', '--quiet', 'HEAD']);
  if (head.ok && head.stdout.trim() === `refs/heads/${branch}`) return `branch '${branch}' is checked out; the changes are left uncommitted in the workspace`;
  // Checked out in another work tree (`git worktree add ../review BRANCH` to look at the last run's
  // work): moved under it, that checkout's index and files would read as the reverse of the new
  // commit, staged. git refuses to move such a branch too.
  const elsewhere = await checkedOutAt(run, branch);
  if (elsewhere) return `branch '${branch}' is checked out in the work tree at ${elsewhere}; it is not replaced under it (the changes are left uncommitted in the workspace): switch that work tree to another branch, or remove it (git worktree remove)`;
  return committerProblem(run, branch, tip, email, 'already exists');
}

/** The work tree (of those `git worktree list` knows) that has `branch` checked out, or null. */
async function checkedOutAt(run: Git, branch: string): Promise<string | null> {
  const listed = await run(['worktree', 'list', '--porcelain', '-z']);
  if (!listed.ok) return null;
  // Records of NUL-ended lines (`worktree PATH`, `HEAD SHA`, `branch REF`), each record ended by an empty one.
  let path: string | null = null;
  for (const line of listed.stdout.split('\0')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}`) return path;
  }
  return null;
}

export interface RemoteBranch {
  /** The remote tip the push may replace (the lease), or null when origin has no such branch. */
  tip: string | null;
  problem: string | null;
}

/** origin's tip of the branch, and whether the hand-off may replace it. */
export async function remoteBranch(run: Git, branch: string, email: string): Promise<RemoteBranch> {
  const listed = await run(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`], {}, FETCH_TIMEOUT_MS);
  if (!listed.ok) return { tip: null, problem: `cannot read origin's branches: ${listed.stderr.trim().split('\n')[0]}` };
  const tip = listed.stdout.split('\n').find((line) => line.endsWith(`\trefs/heads/${branch}`))?.split('\t')[0] ?? null;
  if (!tip) return { tip: null, problem: null };
  const known = await run(['cat-file', '-e', `${tip}^{commit}`]);
  if (!known.ok) {
    // A shallow clone (a batch's checkout) fetches the one commit; a full one, what it lacks of the branch.
    const shallow = (await run(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    const fetched = await run(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', ...(shallow ? ['--depth=1'] : []), 'origin', `refs/heads/${branch}`], {}, FETCH_TIMEOUT_MS);
    if (!fetched.ok) return { tip, problem: `cannot fetch origin's branch '${branch}' to see whose it is: ${fetched.stderr.trim().split('\n')[0]}` };
  }
  return { tip, problem: await committerProblem(run, branch, tip, email, 'exists on origin') };
}

async function committerProblem(run: Git, branch: string, tip: string, email: string, where: string): Promise<string | null> {
  const who = await run(['log', '-1', '--format=%ce', tip]);
  const committer = who.stdout.trim();
  if (who.ok && committer.toLowerCase() === email.toLowerCase()) return null;
  return `branch '${branch}' ${where} and its last commit (${tip.slice(0, 12)}) is by ${committer || 'someone unknown'}, not by the hand-off's author ${email}: it is not overwritten; merge or close its pull request, delete the branch, or name another one in the recipe's hand-off section (branch:)`;
}
