// The pull request of a hand-off: after the branch is pushed, open one from it into the base
// branch, or, when one is already open for the same branch (an earlier run of the same recipe),
// update its title, body and labels. Never a duplicate; failures are data for the report.
import { RUN_PLACEHOLDERS, type PullRequestConfig } from '../recipe/types.js';
import type { PullRequestReport } from '../types/changes.js';
import { describeGitHubError, githubClient, type GitHub } from './github-client.js';
import { githubApiUrl, githubToken, NO_TOKEN, parseGitHubRemote } from './github-repo.js';
import { closeCutFence, containedMarkdown } from '../report/markdown-safe.js';

/** GitHub refuses a body over 65,536 characters. */
const MAX_BODY = 60_000;
/** GitHub refuses a title over 256 characters (422 Validation Failed). */
const MAX_TITLE = 256;

/** The values of `{{ run.* }}` in the title and body. */
export type RunFacts = Record<(typeof RUN_PLACEHOLDERS)[number], string>;

export interface PullRequestRequest {
  config: PullRequestConfig;
  branch: string;
  /** origin's URL: which repository the branch went to. */
  remoteUrl: string;
  facts: RunFacts;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export function fillRunPlaceholders(text: string, facts: RunFacts): string {
  return text.replace(/(\\?)\{\{\s*run\.([A-Za-z_]+)\s*\}\}/g, (whole, escape: string, name: string) => {
    if (escape) return whole.slice(1);
    return Object.hasOwn(facts, name) ? facts[name as keyof RunFacts] : whole;
  });
}

export async function openOrUpdatePullRequest(req: PullRequestRequest): Promise<PullRequestReport> {
  const repo = parseGitHubRemote(req.remoteUrl);
  const apiUrl = repo ? githubApiUrl(repo.host, req.env, repo.webOrigin) : null;
  const report: PullRequestReport = {
    repository: repo ? `${repo.owner}/${repo.name}` : null,
    api_url: apiUrl,
    action: null,
    number: null,
    url: null,
    base: req.config.base,
    head: req.branch,
    draft: req.config.draft,
    // Those added: a label GitHub refused is not on the pull request.
    labels: [],
    error: null,
  };
  if (!repo || !apiUrl) return { ...report, error: `origin (${req.remoteUrl}) is not a GitHub repository URL (https://HOST/OWNER/NAME or git@HOST:OWNER/NAME), so no pull request can be opened` };
  const token = githubToken(req.env);
  if (!token) return { ...report, error: NO_TOKEN };

  const title = titleLine(fillRunPlaceholders(req.config.title, req.facts)) || `unattended: ${req.facts.recipe}`;
  // The answer in the body is the model's Markdown, contained: it cannot hide what the template puts after it.
  let body = fillRunPlaceholders(req.config.body, { ...req.facts, summary: containedMarkdown(req.facts.summary) });
  if (body.length > MAX_BODY) body = `${closeCutFence(cutAtLine(body, MAX_BODY))}\n\n… (cut: GitHub takes at most 65,536 characters)`;
  const where = { owner: repo.owner, repo: repo.name };
  let doing = `reading ${report.repository}`;
  try {
    const gh = await githubClient(apiUrl, token, req.signal);
    const base = req.config.base ?? (await gh.rest.repos.get(where)).data.default_branch;
    report.base = base;
    doing = `looking for an open pull request from ${req.branch}`;
    const open = await gh.rest.pulls.list({ ...where, state: 'open', head: `${repo.owner}:${req.branch}`, per_page: 10 });
    // Filtered again here: an API that ignored `head` must not make us update someone else's pull request.
    const ours = (pr: ListedPull) => pr.head.ref === req.branch && sameRepository(pr, report.repository!);
    const update = async (existing: ListedPull) => {
      doing = `updating pull request #${existing.number}`;
      const updated = await gh.rest.pulls.update({ ...where, pull_number: existing.number, title, body, ...(req.config.base ? { base } : {}) });
      Object.assign(report, { action: 'updated', number: updated.data.number, url: updated.data.html_url, draft: updated.data.draft ?? existing.draft ?? false, base: updated.data.base.ref });
    };
    const existing = open.data.find(ours);
    if (existing) await update(existing);
    else {
      doing = `opening a pull request from ${req.branch} into ${base}`;
      try {
        const created = await gh.rest.pulls.create({ ...where, title, body, head: req.branch, base, draft: req.config.draft });
        Object.assign(report, { action: 'created', number: created.data.number, url: created.data.html_url, draft: created.data.draft ?? req.config.draft });
      } catch (error) {
        // GitHub says one is open from this branch that the `head` filter did not return: the owner
        // spelled in origin's URL in another case than GitHub's (the filter is exact), or another
        // run opened it meanwhile. Every re-run failed so (exit 58). It is looked for among all the
        // open pull requests, and updated.
        if (!alreadyExists(error)) throw error;
        doing = `looking for the open pull request from ${req.branch} that GitHub says exists`;
        const found = (await gh.paginate(gh.rest.pulls.list, { ...where, state: 'open', per_page: 100 })).find(ours);
        if (!found) throw error;
        await update(found);
      }
    }
    if (req.config.labels.length) {
      doing = `labelling pull request #${report.number}`;
      await addLabels(gh, where, report.number!, req.config.labels);
      report.labels = [...req.config.labels];
    }
    return report;
  } catch (error) {
    return { ...report, error: describeGitHubError(error, doing, apiUrl) };
  }
}

/**
 * A title is one line: `{{ run.summary }}` in it brought the answer's line breaks and length, and
 * GitHub refused the pull request (422) after the work was pushed. Whitespace runs become one
 * space; past GitHub's limit it is cut, with `…`.
 */
function titleLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_TITLE) return line;
  let head = line.slice(0, MAX_TITLE - 1);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head.trimEnd()}…`;
}

/** The start of `text` within `max` characters, at a line's end when one is near (never half a character). */
function cutAtLine(text: string, max: number): string {
  let head = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const lineEnd = head.lastIndexOf('\n');
  return lineEnd >= max - 2_000 ? head.slice(0, lineEnd) : head;
}

type ListedPull = Awaited<ReturnType<GitHub['rest']['pulls']['list']>>['data'][number];

/** From a branch of `repository` itself (a fork's branch of the same name is someone else's), however its name is cased. */
function sameRepository(pr: ListedPull, repository: string): boolean {
  const head = (pr.head.repo?.full_name ?? repository).toLowerCase();
  return head === repository.toLowerCase() || head === pr.base.repo?.full_name?.toLowerCase();
}

/** GitHub's 422 for a pull request from a head that already has an open one. */
function alreadyExists(error: unknown): boolean {
  const e = (error ?? {}) as { status?: number; response?: { data?: { errors?: Array<{ message?: string } | string> } } };
  return e.status === 422 && (e.response?.data?.errors ?? []).some((x) => /a pull request already exists/i.test(typeof x === 'string' ? x : (x.message ?? '')));
}

/** Adds (never removes: people label pull requests too); GitHub creates labels a repository lacks. */
async function addLabels(gh: GitHub, where: { owner: string; repo: string }, number: number, labels: string[]): Promise<void> {
  await gh.rest.issues.addLabels({ ...where, issue_number: number, labels });
}
