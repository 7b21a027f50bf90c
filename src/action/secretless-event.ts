// Events whose workflow runs get none of the repository's Actions secrets, so an `api-key:
// ${{ secrets.X }}` that is set is empty there: a pull request from a fork (on pull_request and its
// review events) and anything Dependabot triggered (it gets Dependabot secrets instead). A run that
// then fails for want of a key must say why, not tell the user to set an input they did set.
import fs from 'node:fs';

/** Pull-request events that run without secrets when the pull request comes from a fork. */
const FORK_SECRETLESS_EVENTS = ['pull_request', 'pull_request_review', 'pull_request_review_comment'];

/** Why this workflow run has no Actions secrets, or null when it has them (or cannot tell). */
export function secretlessReason(env: NodeJS.ProcessEnv): string | null {
  if (env.GITHUB_ACTOR === 'dependabot[bot]') {
    return 'Dependabot triggered this workflow run, and such runs get Dependabot secrets, not Actions secrets (add the key as a Dependabot secret too)';
  }
  if (!FORK_SECRETLESS_EVENTS.includes(env.GITHUB_EVENT_NAME ?? '')) return null;
  const head = readEvent(env.GITHUB_EVENT_PATH)?.pull_request?.head?.repo?.full_name;
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (typeof head !== 'string' || !repository || head.toLowerCase() === repository.toLowerCase()) return null;
  return `this pull request comes from the fork ${head}, and GitHub gives a ${env.GITHUB_EVENT_NAME} run from a fork no secrets (skip forks with if: github.event.pull_request.head.repo.full_name == github.repository)`;
}

function readEvent(file: string | undefined): Record<string, any> | null {
  if (!file) return null;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;
  } catch {
    return null;
  }
}
