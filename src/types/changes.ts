// What a run changed, as the runner records it in events (files_changed, git_handoff) and the
// report shows it. Declared below report/ so that events can carry them.

export interface ChangedFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  diff: string;
}

/**
 * What git saw change between the workspace before the first shell, MCP or discovered tool call
 * and now (runner/untracked-changes.ts), and the files whose file-tool view that replaces: a file
 * tool first changed them after that snapshot, so its "before" may already hold a command's change,
 * while the snapshot holds the file as the run found it.
 */
export interface GitSeen {
  files: ChangedFile[];
  replaces: ReadonlySet<string>;
}

export const NOTHING_GIT_SAW: GitSeen = { files: [], replaces: new Set() };

/**
 * `push_error` of a run on a copy of the workspace (workspace_mode: copy): nothing was pushed on
 * purpose, and the run has not failed. Every other push_error failed the run's hand-off.
 */
export const NOT_PUSHED_FROM_COPY = 'not pushed: the run worked on a copy of the workspace (workspace_mode: copy)';

/** Whether the hand-off this report describes failed the run (status handoff_failed), as handoff-step.ts decides. */
export function handoffFailed(git: Pick<GitHandoffReport, 'error' | 'push_error' | 'commit' | 'left_out' | 'pull_request'>): boolean {
  return git.error !== null || (git.commit === null && git.left_out.length > 0) || (git.push_error !== null && git.push_error !== NOT_PUSHED_FROM_COPY) || !!git.pull_request?.error;
}

export interface GitHandoffReport {
  branch: string;
  /** The commit's sha; null when nothing was committed. */
  commit: string | null;
  pushed: boolean;
  /** Why nothing was committed though the recipe asks for it (the run did not succeed, nothing changed). */
  skipped: string | null;
  /** The hand-off failed (the branch exists, the commit was refused): the run fails with it. */
  error: string | null;
  /** The push failed: a warning; the commit stays on the local branch. */
  push_error: string | null;
  /** Committed paths, relative to the repository root. */
  files: string[];
  /** Files the run changed that are not in the commit, and why (they had uncommitted changes before the run that clash). */
  left_out: Array<{ path: string; reason: string }>;
  /** The remote branch this hand-off replaced (a re-run updating its own pull request), else absent. */
  replaced?: string | null;
  /** Recipe `git.pull_request`: what was opened or updated, or why not; absent when not asked. */
  pull_request?: PullRequestReport;
}

export interface PullRequestReport {
  /** `owner/name`, from the remote's URL. */
  repository: string | null;
  /** The REST API the request went to: the remote host's (GITHUB_API_URL where it serves that host). */
  api_url: string | null;
  /** `created` a new one, `updated` the open one for the same branch; null when neither happened. */
  action: 'created' | 'updated' | null;
  number: number | null;
  url: string | null;
  base: string | null;
  head: string;
  draft: boolean;
  /** The labels this hand-off added (none when adding them failed; others the pull request has are not listed). */
  labels: string[];
  /** Why no pull request was opened or updated: the hand-off failed with it (exit 58). */
  error: string | null;
}

export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}
