// What the hand-off says when git cannot use the workspace's repository. "Not inside a git
// repository" is right only when there is none: a repository owned by another user (a checkout
// bind-mounted into a container, git's safe.directory check) is there, and git refuses it, and
// saying otherwise sent the user looking for a .git that was in plain sight.
import { gitComplaint, type GitResult } from './git-exec.js';
import { inGitWorkTree } from './snapshot.js';

export function repositoryProblem(workspace: string, failed: GitResult): string {
  if (!inGitWorkTree(workspace)) return `the workspace ${workspace} is not inside a git repository (${gitComplaint(failed, 1)})`;
  // git's own words say why and what to do (for another user's: the safe.directory line to run).
  return `git cannot use the repository of the workspace ${workspace}: ${gitComplaint(failed)}`;
}
