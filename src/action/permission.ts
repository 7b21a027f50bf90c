// Who may start a run. Anyone who can comment on a public repository can write the words that
// reach the model, and a run spends the repository's model budget under its token; so before the
// model runs, every person who triggered the event must have write access to the repository
// (permission admin, maintain or write), as claude-code-action and codex-action require. Asked of
// GitHub: GET /repos/{owner}/{repo}/collaborators/{username}/permission. The `allow-users` input
// widens the rule: named logins, or `*` for anyone.
import { GitHubApiError, type GitHubApi } from './github-api.js';

/** Only people with write access can cause these events: nothing to check. */
export const WRITERS_ONLY_EVENTS = ['push', 'schedule', 'workflow_dispatch', 'repository_dispatch', 'merge_group'];

const WRITE_LEVELS = ['admin', 'maintain', 'write'];
const ROLES = ['admin', 'maintain', 'write', 'triage', 'read'];

export type Verdict = { allowed: true; reason: string } | { allowed: false; reason: string };

export interface GateContext {
  eventName: string;
  /** The webhook payload ($GITHUB_EVENT_PATH), or {} when there is none. */
  event: Record<string, any>;
  repository: string;
  actor: string;
  triggeringActor: string;
  /** The `allow-users` input: logins (any case), or `*`. */
  allowUsers: string[];
}

/** The people whose action started this run: the author of the comment or review, and the actors. */
export function triggeringPeople(ctx: Pick<GateContext, 'event' | 'actor' | 'triggeringActor'>): string[] {
  const author = ctx.event.comment?.user?.login ?? ctx.event.review?.user?.login;
  const people = [author, ctx.actor, ctx.triggeringActor].filter((p): p is string => typeof p === 'string' && p !== '');
  return [...new Map(people.map((p) => [p.toLowerCase(), p])).values()];
}

export function parseAllowUsers(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((u) => u.trim().replace(/^@/, ''))
    .filter((u) => u !== '');
}

export async function checkTrigger(api: GitHubApi | null, ctx: GateContext): Promise<Verdict> {
  if (WRITERS_ONLY_EVENTS.includes(ctx.eventName)) return { allowed: true, reason: `a ${ctx.eventName} event (only people with write access can cause one)` };
  if (ctx.allowUsers.includes('*')) return { allowed: true, reason: "allow-users is '*' (anyone)" };
  const people = triggeringPeople(ctx);
  if (people.length === 0) return { allowed: false, reason: 'no user triggered this event (GITHUB_ACTOR is empty), so no permission can be checked' };
  const [owner, repo] = ctx.repository.split('/');
  if (!owner || !repo) return { allowed: false, reason: `GITHUB_REPOSITORY is "${ctx.repository}", not owner/repo` };
  const allowList = new Set(ctx.allowUsers.map((u) => u.toLowerCase()));
  const said: string[] = [];
  for (const person of people) {
    if (allowList.has(person.toLowerCase())) {
      said.push(`${person} (listed in allow-users)`);
      continue;
    }
    if (!api) return { allowed: false, reason: `cannot check ${person}'s permission: the github-token input is empty` };
    let permission: string;
    try {
      const answer = (await api.request('GET', `/repos/${enc(owner)}/${enc(repo)}/collaborators/${enc(person)}/permission`)) as { permission?: string; role_name?: string } | null;
      // role_name tells maintain from write and triage from read; a custom role falls back to the
      // legacy permission (admin, write, read or none), which GitHub derives from it.
      const legacy = answer?.permission ?? 'none';
      const role = answer?.role_name;
      permission = role && ROLES.includes(role) ? role : WRITE_LEVELS.includes(legacy) ? legacy : role ? `${role} (${legacy})` : legacy;
    } catch (error) {
      // 404: not a collaborator (or a bot account, which has no collaborator permission).
      if (error instanceof GitHubApiError && error.status === 404) permission = 'none';
      else return { allowed: false, reason: `could not check ${person}'s permission on ${ctx.repository}: ${(error as Error).message}` };
    }
    if (!WRITE_LEVELS.includes(permission)) {
      return {
        allowed: false,
        reason: `${person} has ${permission} access to ${ctx.repository}; starting this run needs write access (admin, maintain or write). To let ${person} run it, add the login to the allow-users input.`,
      };
    }
    said.push(`${person} (${permission})`);
  }
  return { allowed: true, reason: said.join(', ') };
}

const enc = encodeURIComponent;
