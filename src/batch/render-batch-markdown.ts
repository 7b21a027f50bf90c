// batch-report.md: the fleet at a glance (and the GitHub step summary of a batch job).
import type { BatchReport, BatchRow, RowCategory } from './batch-report.js';
import { inlineSafe } from '../report/markdown-safe.js';
import { terminalSafe } from '../util/terminal.js';
import { shownTarget } from './targets.js';

const MARK: Record<RowCategory, string> = {
  success: '✅',
  agent: '❌',
  handoff: '📤',
  infrastructure: '🔌',
  configuration: '⚙️',
  cancelled: '🛑',
  not_run: '⏭️',
  pending: '⏳',
};

/** An error cell's room in the targets table; the whole error is in batch-report.json. */
const MAX_ERROR_CHARS = 160;

const CATEGORY_NAME: Record<RowCategory, string> = {
  success: 'succeeded',
  agent: 'agent failures',
  handoff: 'hand-off failures',
  infrastructure: 'infrastructure failures',
  configuration: 'configuration errors',
  cancelled: 'cancelled',
  not_run: 'not run',
  pending: 'pending',
};

/**
 * The batch's cost: the sum of the known ones, which is only part of it when some runs that used
 * tokens had no price (a model the price table does not know): said, with how many.
 */
function costCell(report: BatchReport): string {
  const t = report.totals;
  if (t.cost_usd === null || t.cost_usd === undefined) return 'unknown';
  const unpriced = report.rows.filter((row) => row.cost_usd == null && row.tokens.total > 0).length;
  const sum = `${t.tokens.estimated ? 'about ' : ''}${usd(t.cost_usd)}${t.tokens.estimated ? ' (estimated)' : ''}`;
  return unpriced > 0 ? `at least ${sum}: ${unpriced} ${unpriced === 1 ? 'run' : 'runs'} with no known price left out` : sum;
}

export function renderBatchMarkdown(report: BatchReport): string {
  const t = report.totals;
  const state = report.interrupted ? `interrupted (${report.interrupted})` : report.finished ? 'finished' : 'running';
  const out: string[] = [];
  out.push(`# Batch ${report.recipe}${report.shard ? ` (shard ${report.shard})` : ''}: ${t.by_category.success}/${t.targets} succeeded`, '');
  const counts = (Object.keys(CATEGORY_NAME) as RowCategory[]).filter((c) => t.by_category[c] > 0).map((c) => `${MARK[c]} ${t.by_category[c]} ${CATEGORY_NAME[c]}`);
  out.push(
    '| | |',
    '|---|---|',
    `| state | ${state} |`,
    `| targets | ${counts.join(' · ') || '0'} |`,
    `| turns | ${t.turns} |`,
    `| tool calls | ${t.tool_calls} |`,
    t.tokens.estimated ? `| tokens | about ${t.tokens.input} in, about ${t.tokens.output} out (estimated: an endpoint sent no usage) |` : `| tokens | ${t.tokens.input} in, ${t.tokens.output} out |`,
    `| cost | ${costCell(report)} |`,
    `| files changed | ${t.files_changed} |`,
    `| run time (sum) | ${seconds(t.duration_ms)} |`,
    '',
  );
  if (report.failures.length) {
    out.push('## Failures by cause', '');
    for (const g of report.failures) {
      out.push(`- ${MARK[g.category]} **${cell(g.cause)}** (${CATEGORY_NAME[g.category]}, ${g.targets.length}): ${g.targets.map((x) => `\`${cell(shownTarget(x))}\``).join(', ')}`);
    }
    out.push('');
  }
  out.push('## Targets', '', '| | target | status | exit | turns | tool calls | tokens | cost | files | time | error |', '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of report.rows) out.push(rowLine(row));
  out.push('');
  return out.join('\n');
}

function rowLine(r: BatchRow): string {
  const error = r.error ? cell(shortError(r.error)) : '';
  const pr = r.pull_request?.url ? ` → [#${r.pull_request.number}](${r.pull_request.url})` : '';
  const status = `${r.git?.commit ? `${r.status} → \`${cell(r.git.branch)}\`` : r.status}${pr}`;
  return `| ${MARK[r.category]} | \`${cell(shownTarget(r.target))}\` | ${status} | ${r.exit_code ?? ''} | ${r.turns} | ${r.tool_calls} | ${r.tokens.estimated ? `~${r.tokens.total}` : r.tokens.total} | ${typeof r.cost_usd === 'number' ? `${r.tokens.estimated ? '~' : ''}${usd(r.cost_usd)}` : ''} | ${r.files_changed} | ${seconds(r.duration_ms)} | ${error} |`;
}

/** An error's first line, within a table cell's room: cut (never inside a character) with `…`, so a cut one does not read as whole. */
function shortError(error: string): string {
  const first = error.split('\n')[0]!;
  if (first.length <= MAX_ERROR_CHARS && first === error.trimEnd()) return first;
  let head = first.slice(0, MAX_ERROR_CHARS);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head.trimEnd()}…`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Text that cannot break a table row, nor act on the terminal of someone who reads the file with
 * `cat` (a targets line, an error, all come from outside: escape sequences and bidi overrides go).
 */
function cell(text: string): string {
  // No HTML either: an error quoting a server's '<!--' would hide every row after it (markdown-safe.ts).
  return inlineSafe(terminalSafe(text.replace(/[\r\n]+/g, ' ')).replace(/\|/g, '\\|').replace(/`/g, "'"));
}

function usd(value: number): string {
  return `$${value.toFixed(value > 0 && value < 0.01 ? 6 : 4)}`;
}
