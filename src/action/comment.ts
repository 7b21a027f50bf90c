// The `comment` input: after the run, its answer goes back where the event came from (the issue or
// pull request, or the review thread of a review comment), with the status, the cost and a link
// to the report artifact. This runs in its own composite step, after the model's step has ended:
// the token that may write comments is in no process the model's tools could reach.
import type { Report } from '../report/report.js';
import type { GitHubApi } from './github-api.js';
import { oneLine } from '../util/one-line.js';
import { containedMarkdown } from '../report/markdown-safe.js';

/** GitHub refuses comment bodies over 65,536 characters; the answer is cut well before. */
const MAX_ANSWER_CHARS = 60_000;

export interface CommentTarget {
  path: string;
  /** For the log: "issue #12", "the review thread of comment 345 on pull request #12". */
  label: string;
}

/** Where a comment answers this event, or null when it has no issue or pull request. */
export function commentTarget(repository: string, event: Record<string, any>): CommentTarget | null {
  const repo = repository.split('/').map(encodeURIComponent).join('/');
  const pr = event.pull_request?.number as number | undefined;
  if (event.comment?.id && pr && event.comment?.pull_request_review_id !== undefined) {
    // GitHub takes replies to the comment that opened the thread only ("replies to replies are not
    // supported"), and a mention is often itself a reply in a thread.
    const top = event.comment.in_reply_to_id ?? event.comment.id;
    return { path: `/repos/${repo}/pulls/${pr}/comments/${top}/replies`, label: `the review thread of comment ${top} on pull request #${pr}` };
  }
  const number = (event.issue?.number ?? pr) as number | undefined;
  if (typeof number !== 'number') return null;
  return { path: `/repos/${repo}/issues/${number}/comments`, label: `${event.issue?.pull_request || !event.issue ? 'pull request' : 'issue'} #${number}` };
}

export interface CommentLinks {
  /** The report artifact's URL (actions/upload-artifact's artifact-url output), when one was uploaded. */
  artifactUrl: string | null;
  /** The workflow run's page. */
  runUrl: string | null;
}

export function commentBody(report: Report | null, links: CommentLinks): string {
  const lines: string[] = [];
  if (!report) {
    lines.push('**unattended**: the run ended without a report; see the workflow run’s log.');
  } else {
    const answer = report.final_answer?.trim();
    // Contained (markdown-safe.ts): an open comment, fence or details would hide the status line below.
    if (answer) lines.push(answer.length > MAX_ANSWER_CHARS ? `${containedMarkdown(answerHead(answer))}\n\n… (cut; the whole answer is in the report)` : containedMarkdown(answer));
    if (report.status !== 'success' && report.status !== 'denied') {
      lines.push(`**unattended**: the run ended with status \`${report.status}\` (exit ${report.exit_code})${report.error ? `: ${oneLine(report.error, 500)}` : ''}`);
    } else if (!answer) {
      lines.push('**unattended**: the run finished without an answer.');
    }
  }
  const facts: string[] = [];
  if (report) {
    facts.push(`status \`${report.status}\``, `${report.turns} turn${report.turns === 1 ? '' : 's'}`, `${report.tool_calls.total} tool call${report.tool_calls.total === 1 ? '' : 's'}`);
    if (report.denials.length > 0) facts.push(`${report.denials.length} denied`);
    facts.push(report.usage.cost_usd === undefined ? `cost unknown for ${report.model}` : `cost ${formatUsd(report.usage.cost_usd)}`);
  }
  if (links.artifactUrl) facts.push(`[report and transcript](${links.artifactUrl})`);
  if (links.runUrl) facts.push(`[workflow run](${links.runUrl})`);
  lines.push(`<sub>unattended · ${facts.join(' · ')}</sub>`);
  return lines.join('\n\n');
}

/** The answer's first MAX_ANSWER_CHARS, less the high half of an emoji the cut would split (it shows as �). */
function answerHead(answer: string): string {
  const head = answer.slice(0, MAX_ANSWER_CHARS);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

export async function postComment(api: GitHubApi, target: CommentTarget, body: string): Promise<string | null> {
  const answer = (await api.request('POST', target.path, { body })) as { html_url?: string } | null;
  return answer?.html_url ?? null;
}

/** Dollars: cents for a dollar and more, four decimals below ($0.0123), never "$0.00" for a cost. */
export function formatUsd(amount: number): string {
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  if (amount === 0) return '$0';
  return amount < 0.0001 ? '< $0.0001' : `$${amount.toFixed(4)}`;
}

