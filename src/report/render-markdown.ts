// report.md: the report for people, and the GitHub step summary when running in Actions.
import type { Report } from './report.js';
import { terminalSafe } from '../util/terminal.js';
import { codeSpan, containedMarkdown, inlineSafe } from './markdown-safe.js';
import { cutText, MAX_DIFF_BYTES, MAX_LISTED_FILES, MAX_TEXT_BYTES, utf8Bytes, withinReportBudget } from './markdown-budget.js';

const STATUS_MARK: Record<Report['status'], string> = {
  success: '✅',
  denied: '⚠️',
  failed: '❌',
  check_failed: '❌',
  handoff_failed: '❌',
  error: '❌',
  limit: '⏱️',
  loop: '🔁',
  cancelled: '🛑',
};

const TODO_MARK: Record<Report['todos'][number]['status'], string> = { completed: '[x]', in_progress: '[ ] (in progress)', pending: '[ ]' };

export function renderMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`# ${STATUS_MARK[report.status]} ${report.recipe.name}: ${report.status} (exit ${report.exit_code})`, '');
  const calls = report.tool_calls;
  const denied = report.denials.length;
  out.push(
    '| | |',
    '|---|---|',
    `| model | ${report.provider} / ${report.model} |`,
    `| turns | ${report.turns} |`,
    `| tool calls | ${calls.total}${denied ? ` (${denied} denied)` : ''}${calls.unfinished ? `, and ${calls.unfinished} started with no result recorded` : ''} |`,
    `| tokens | ${tokenLine(report.usage)} |`,
    `| cost | ${report.usage.cost_usd === undefined ? 'unknown (no price for this model)' : report.usage.estimated ? `about ${formatUsd(report.usage.cost_usd)} (estimated)` : formatUsd(report.usage.cost_usd)} |`,
    ...(report.finish && !['stop', 'tool_calls'].includes(report.finish.reason) ? [`| last turn ended | ${report.finish.reason}${report.finish.raw ? ` (\`${report.finish.raw}\`)` : ''} |`] : []),
    ...(report.compactions.total ? [`| context compactions | ${compactionsLine(report.compactions)} |`] : []),
    `| duration | ${(report.duration_ms / 1000).toFixed(1)} s |`,
    `| files changed | ${report.files_changed.length} |`,
    ...(report.checks?.length ? [`| success checks | ${checksLine(report.checks)} |`] : []),
    `| run | \`${report.run_id}\` |`,
    ...(report.continued_from ? [`| continues | \`${report.continued_from.run_id}\` |`] : []),
    ...(report.context_files?.length ? [`| context files | ${report.context_files.map((f) => `${codeSpan(f.path)}${f.imported_by ? ` (imported by ${codeSpan(f.imported_by)})` : ''}${f.skipped ? ' (not sent: not text)' : f.truncated ? ' (cut)' : ''}`).join(', ')} |`] : []),
    '',
  );
  // Long texts are cut (markdown-budget.ts: GitHub shows no summary at all over 1 MiB).
  if (report.error) out.push('## Error', '', fenced(cutText(report.error, MAX_TEXT_BYTES, 'the error')), '');
  // What the model wrote renders as Markdown, kept from reaching past its own section (markdown-safe.ts).
  if (report.final_answer) out.push('## Final answer', '', containedMarkdown(cutText(report.final_answer, MAX_TEXT_BYTES, 'the answer')), '');
  if (report.structured_output !== null) out.push('## Structured output', '', fenced(cutText(JSON.stringify(report.structured_output, null, 2), MAX_TEXT_BYTES, 'the structured output'), 'json'), '');
  if (report.plan !== null) out.push('## Plan', '', containedMarkdown(cutText(report.plan, MAX_TEXT_BYTES, 'the plan')), '');
  if (report.todos.length) out.push('## Task list', '', ...report.todos.map((t) => `- ${TODO_MARK[t.status]} ${line(t.content)}`), '');
  if (report.sub_agents.length) {
    out.push('## Sub-agents', '', '| task | status | turns | tool calls |', '|---|---|---:|---:|');
    for (const s of report.sub_agents) out.push(`| ${s.description.replaceAll('|', '\\|')} | ${s.status} | ${s.turns} | ${s.tool_calls} |`);
    out.push('');
  }
  if (report.checks.length) out.push(...checksSection(report.checks));
  if (denied) out.push(...denialsSection(report));
  const tools = Object.entries(calls.by_tool);
  if (tools.length) {
    out.push('## Tool calls', '', '| tool | ok | error | denied | errors by type | truncated |', '|---|---:|---:|---:|---|---:|');
    for (const [name, c] of tools) out.push(`| \`${name}\` | ${c.success} | ${c.error} | ${c.denied} | ${countsText(c.errors_by_type ?? {})} | ${c.truncated} |`);
    out.push('');
  }
  if (report.files_changed.length) {
    out.push('## Files changed', '');
    let budget = MAX_DIFF_BYTES;
    for (const f of report.files_changed.slice(0, MAX_LISTED_FILES)) {
      const bytes = utf8Bytes(f.diff);
      const shown = bytes <= budget;
      budget -= shown ? bytes : 0;
      const body = shown ? fenced(f.diff, 'diff') : `_Diff of ${f.diff.length} characters left out here; it is in report.json._`;
      out.push(`<details><summary><code>${escapeHtml(f.path)}</code> (${f.status})</summary>`, '', body, '', '</details>', '');
    }
    const unlisted = report.files_changed.length - MAX_LISTED_FILES;
    if (unlisted > 0) out.push(`_… and ${unlisted} more file${unlisted === 1 ? '' : 's'} changed, listed with their diffs in report.json._`, '');
  }
  if (report.git) out.push(...gitSection(report.git));
  if (report.sandbox) out.push(...sandboxSection(report.sandbox));
  if (report.warnings.length) out.push('## Warnings', '', ...report.warnings.map(warningItem), '');
  // Read with `cat` as often as rendered: what the model or a tool wrote (the final answer, a call's
  // arguments) is made inert, as on the terminal; report.json keeps it exactly.
  return withinReportBudget(terminalSafe(out.join('\n')));
}

function compactionsLine(c: Report['compactions']): string {
  const notes = [c.summarized ? `${c.summarized} summarized` : '', c.after_context_error ? `${c.after_context_error} after the provider refused a request as too long` : ''].filter(Boolean);
  return `${c.total}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/** Individual denials up to this many; past it, only the grouped tables (report.json keeps all). */
const MAX_LISTED_DENIALS = 20;

function denialsSection(report: Report): string[] {
  const out = ['## Policy denials', ''];
  const summary = report.denial_summary;
  if (report.denials.length > 1 && summary) {
    out.push('| denials | rule or reason |', '|---:|---|');
    for (const r of summary.by_rule) out.push(`| ${r.count} | ${cell(r.rule ? `rule \`${r.rule}\`: ${r.reason}` : r.reason)} |`);
    out.push('', '| tries | call |', '|---:|---|');
    for (const c of summary.by_call) out.push(`| ${c.count} | \`${c.tool}\` ${cell(`\`${c.call.replaceAll('`', "'")}\``)} |`);
    out.push('');
  }
  for (const d of report.denials.slice(0, MAX_LISTED_DENIALS)) {
    out.push(`- turn ${d.turn}: \`${d.tool}\` ${inlineArgs(d.args)}: ${line(d.reason)}${d.rule ? ` (rule ${codeSpan(d.rule)})` : ''}`);
  }
  if (report.denials.length > MAX_LISTED_DENIALS) out.push(`- … ${report.denials.length - MAX_LISTED_DENIALS} more in report.json`);
  out.push('');
  return out;
}

function checksSection(checks: Report['checks']): string[] {
  const out = ['## Success checks', '', '| attempt | check | result | duration |', '|---:|---|---|---:|'];
  for (const c of checks) {
    const result = c.passed ? '✅ passed' : `❌ ${c.reason ?? 'failed'}`;
    out.push(`| ${c.attempt} | ${cell(c.kind === 'command' ? `\`${c.check.replaceAll('`', "'")}\`` : c.check)} | ${cell(result)} | ${(c.duration_ms / 1000).toFixed(1)} s |`);
  }
  out.push('');
  const failed = checks.filter((c) => !c.passed && c.output_tail.trim());
  for (const c of failed) {
    out.push(`<details><summary>output of <code>${escapeHtml(c.check)}</code> (attempt ${c.attempt})</summary>`, '', fenced(c.output_tail), '', '</details>', '');
  }
  return out;
}

/** The last attempt's checks in one cell: all passed, or the one that failed. */
function checksLine(checks: Report['checks']): string {
  const attempt = checks.at(-1)!.attempt;
  const last = checks.filter((c) => c.attempt === attempt);
  const failed = last.find((c) => !c.passed);
  const tries = attempt > 1 ? ` (answer ${attempt})` : '';
  if (!failed) return `✅ ${last.length} passed${tries}`;
  return cell(`❌ ${failed.kind === 'command' ? `\`${failed.check.replaceAll('`', "'")}\`` : failed.check}: ${failed.reason ?? 'failed'}${tries}`);
}

function countsText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([type, n]) => `${type} ×${n}`)
    .join(', ');
}

function cell(text: string): string {
  return inlineSafe(text.replace(/\s+/g, ' ').replaceAll('|', '\\|'));
}

function sandboxSection(sandbox: NonNullable<Report['sandbox']>): string[] {
  const network = sandbox.network === true ? 'all' : sandbox.network === false ? 'none' : sandbox.network.join(', ') || 'none';
  const what = sandbox.kind ? `${sandbox.kind} (network: ${network})` : `none: ${sandbox.reason ?? 'unknown'}`;
  const out = ['## Sandbox', '', `- ${what}; mode \`${sandbox.mode}\``];
  if (sandbox.denied_hosts.length) out.push(`- network refused: ${sandbox.denied_hosts.map((h) => `\`${h}\``).join(', ')}`);
  return [...out, ''];
}

function gitSection(git: NonNullable<Report['git']>): string[] {
  const out = ['## Git', '', `- branch: \`${git.branch}\``];
  if (git.commit) out.push(`- commit: \`${git.commit}\` (${git.files.length} file${git.files.length === 1 ? '' : 's'})`);
  if (git.skipped) out.push(`- not committed: ${line(git.skipped)}`);
  if (git.error) out.push(`- hand-off failed: ${line(git.error)}`);
  if (git.commit) out.push(`- pushed: ${git.pushed ? (git.replaced ? `yes, replacing the earlier run's \`${git.replaced.slice(0, 12)}\`` : 'yes') : git.push_error ? `no (${line(git.push_error)})` : 'no (not asked)'}`);
  const pr = git.pull_request;
  if (pr?.url) out.push(`- pull request: [${pr.repository}#${pr.number}](${pr.url}) ${pr.action ?? ''}${pr.draft ? ' (draft)' : ''} into \`${pr.base}\``);
  if (pr?.error) out.push(`- pull request failed: ${line(pr.error)}`);
  out.push('');
  return out;
}

function inlineArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return codeSpan(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/** Text on one line of a list item: no line break to end the item, no HTML. */
function line(text: string): string {
  return inlineSafe(text.replace(/\s*\n\s*/g, ' '));
}

/** A fence longer than any backtick run inside, so diffs of Markdown files cannot break out. */
/**
 * A warning as a list item. One that quotes another program's lines (a server's stderr) keeps them
 * in a block under its first line, as they were: bare, they ran together into one paragraph, and a
 * line of theirs could start a heading or end the list.
 */
function warningItem(warning: string): string {
  const lineBreak = warning.indexOf('\n');
  if (lineBreak === -1) return `- ${inlineSafe(warning)}`;
  const quoted = fenced(warning.slice(lineBreak + 1)).replace(/^/gm, '  ');
  return `- ${inlineSafe(warning.slice(0, lineBreak))}\n\n${quoted}`;
}

function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Input and output, with the cached and thinking parts when the provider reported them. */
function tokenLine(usage: Report['usage']): string {
  const input = usage.cached || usage.cache_write ? ` (${[usage.cached ? `${usage.cached} cached` : '', usage.cache_write ? `${usage.cache_write} written to cache` : ''].filter(Boolean).join(', ')})` : '';
  const output = usage.reasoning ? ` (${usage.reasoning} thinking)` : '';
  // Counts the endpoint never sent are estimates from bytes (types/content.ts estimatedUsage).
  if (usage.estimated) return `about ${usage.input} in${input}, about ${usage.output} out${output} (estimated: the endpoint sent no usage)`;
  return `${usage.input} in${input}, ${usage.output} out${output}`;
}

export function formatUsd(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(6) : usd.toFixed(4)}`;
}
