// Targets from GitHub instead of (or besides) a targets file: an organisation's repositories
// (`--org`), repositories with a topic (`--topic`), or any repository search (`--search`), as
// clone URLs. Archived repositories and forks are left out: a fleet change goes to the source.
import { describeGitHubError, githubClient } from '../git/github-client.js';
import { githubApiUrl, githubToken } from '../git/github-repo.js';
import { InputError } from '../recipe/index.js';

export interface GitHubTargetQuery {
  org: string | null;
  /** Every topic must be on the repository. */
  topics: string[];
  /** A GitHub repository search (`language:go stars:>10`). */
  search: string | null;
}

/** GitHub's search returns at most 1,000 results; more would be silently cut. */
const SEARCH_CAP = 1000;

interface ListedRepo {
  full_name: string;
  clone_url?: string;
  archived?: boolean;
  disabled?: boolean;
  fork?: boolean;
  topics?: string[];
}

export function hasGitHubQuery(q: GitHubTargetQuery): boolean {
  return q.org !== null || q.topics.length > 0 || q.search !== null;
}

/** How the query reads in reports and `--dry-run`: `--org acme --topic fleet`. */
export function describeQuery(q: GitHubTargetQuery): string {
  return [q.org !== null ? `--org ${q.org}` : '', ...q.topics.map((t) => `--topic ${t}`), q.search !== null ? `--search '${q.search}'` : ''].filter(Boolean).join(' ');
}

/** Clone URLs, sorted by `owner/name` so that a target's place (and shard) does not depend on the API's order. */
export async function listGitHubTargets(q: GitHubTargetQuery, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string[]> {
  const apiUrl = githubApiUrl(null, env);
  const token = githubToken(env);
  const gh = await githubClient(apiUrl, token, signal);
  let repos: ListedRepo[];
  let doing = '';
  try {
    if (q.org !== null && q.search === null) {
      doing = `listing the repositories of ${q.org}`;
      // Organisations first; a user account has the same listing under /users.
      repos = await gh.paginate(gh.rest.repos.listForOrg, { org: q.org, type: 'all', per_page: 100 }).catch(async (error: { status?: number }) => {
        if (error?.status !== 404) throw error;
        doing = `listing the repositories of ${q.org} (no organisation of that name; as a user)`;
        // /users/NAME/repos lists public repositories only, even the token's own account's: a fleet
        // of one's private repositories came out partial (or empty) without a word. The token's own
        // account is listed with all it owns.
        const me = token ? await gh.rest.users.getAuthenticated().then((r) => r.data.login, () => null) : null;
        if (me !== null && me.toLowerCase() === q.org!.toLowerCase()) return gh.paginate(gh.rest.repos.listForAuthenticatedUser, { affiliation: 'owner', visibility: 'all', per_page: 100 });
        return gh.paginate(gh.rest.repos.listForUser, { username: q.org!, type: 'owner', per_page: 100 });
      });
      repos = repos.filter((r) => q.topics.every((t) => (r.topics ?? []).includes(t.toLowerCase())));
    } else {
      const terms = [q.search ?? '', ...q.topics.map((t) => `topic:${t}`), q.org !== null ? `org:${q.org}` : ''].filter(Boolean);
      const query = terms.join(' ');
      doing = `searching repositories for '${query}'`;
      // A search that ran out of time on GitHub's side answers with part of its hits and
      // incomplete_results: a fleet run on it would leave repositories out without a word.
      let incomplete = false;
      let total = 0;
      const found = await gh.paginate(gh.rest.search.repos, { q: query, per_page: 100 }, (response, done) => {
        const page = response.data as unknown as { incomplete_results?: boolean; total_count?: number };
        incomplete ||= page.incomplete_results === true;
        total = Math.max(total, page.total_count ?? 0);
        if (total >= SEARCH_CAP) done();
        return response.data;
      });
      if (total >= SEARCH_CAP || found.length >= SEARCH_CAP) throw new InputError(`the search '${query}' finds ${SEARCH_CAP} or more repositories, more than GitHub returns: narrow it (add org:, topic: or language:)`);
      if (incomplete) throw new InputError(`the search '${query}' timed out on GitHub's side and listed only some of its repositories (incomplete_results): run the batch again, or narrow the search`);
      repos = found as ListedRepo[];
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(describeGitHubError(error, doing, apiUrl));
  }
  const kept = repos.filter((r) => !r.archived && !r.disabled && !r.fork && r.clone_url);
  if (!kept.length) throw new InputError(`GitHub lists no repository for ${describeQuery(q)} (archived repositories and forks are left out)`);
  return kept.sort((a, b) => a.full_name.localeCompare(b.full_name)).map((r) => r.clone_url!);
}
