// Two targets in one git repository (two packages of a monorepo, a repository and one of its own
// worktrees) hand their work off to the same branch of the same repository: the second run's
// commit replaced the first's (the branch is the run's own, so the check that keeps a person's
// commits passed), and both rows said success with one pull request. A batch whose recipe hands
// off refuses such targets before anything runs.
import { InputError } from '../recipe/index.js';
import { commonDirOf, findGitDir } from '../util/git-config-sources.js';
import { canonicalPath } from '../util/paths.js';
import type { Target } from './targets.js';

export function refuseSharedRepositories(targets: readonly Target[]): void {
  const first = new Map<string, Target>();
  for (const target of targets) {
    if (target.kind !== 'path') continue;
    const repository = repositoryOf(target.location);
    if (repository === null) continue;
    const earlier = first.get(repository);
    if (earlier) {
      throw new InputError(
        `targets '${earlier.spec}' and '${target.spec}' are in one git repository (${repository}): the recipe hands each run's work off to its branch there, and one run's commit would replace the other's`,
        'name the repository once (one run can work on all of it), or run them as batches of their own with different branches',
      );
    }
    first.set(repository, target);
  }
}

/** The directory git keeps a repository's refs in (its common directory), or null outside one. */
function repositoryOf(dir: string): string | null {
  const gitDir = findGitDir(dir);
  return gitDir === null ? null : canonicalPath(commonDirOf(gitDir));
}
