// Telling the agent's failures from the infrastructure's: an agent that gave up, hit a limit or was
// denied has had its fair run; a target whose clone failed, whose endpoint was down or refused the
// key, or whose runner crashed has not, and is run again by --resume. A run whose hand-off failed
// did its work: it is final too (running it again would pay for the same work); --resume tries
// its push and pull request again, without the model (resume-handoff.ts).
import { ExitCode } from '../types/outcome.js';
import type { Report } from '../report/report.js';
import type { BatchPullRequest, BatchRow, RowCategory } from './batch-report.js';
import { isTransient } from '../types/errors.js';

export interface ChildExit {
  exitCode: number | null;
  signal: string | null;
  /** The end of the child's stderr, for a crash that left no report. */
  stderrTail: string;
}

type Verdict = Pick<BatchRow, 'status' | 'category' | 'cause'>;

/** The cause of a row whose run exited 54 because its own record could not be written whole. */
const RECORD_NOT_WRITTEN = "run's record not written";

/**
 * A row means what the run's exit code means: exit 0 (success, or denied without fail_on_denial)
 * is a success, anything else is not. Which kind of failure it is comes from the report's typed
 * fields (status, exit_code, error_kind), never from the wording of its error.
 */
export function classifyRun(report: Report | null, exit: ChildExit): Verdict {
  if (!report) {
    // Exit 54 without a report is no crash: the run stopped because its own files could not be
    // written (a full disk, its --out removed by a tool), and its stderr (the row's error) says which.
    if (exit.exitCode === ExitCode.fatalTool) return { status: 'error', category: 'infrastructure', cause: RECORD_NOT_WRITTEN };
    const how = exit.signal ? `killed by ${exit.signal}` : `exit ${exit.exitCode ?? '?'}`;
    return { status: 'error', category: 'infrastructure', cause: `runner crashed (${how}, no report)` };
  }
  const v = (category: RowCategory, cause: string | null): Verdict => ({ status: report.status, category, cause });
  if (report.exit_code === ExitCode.success) return v('success', null);
  if (report.status === 'cancelled') return v('cancelled', 'cancelled');
  const kind = report.error_kind ?? null;
  if (kind === 'auth') return v('infrastructure', 'endpoint refused the credentials');
  if (isTransient(kind)) return v('infrastructure', 'endpoint unavailable');
  if (report.status === 'handoff_failed') return v('handoff', 'git hand-off failed');
  if (report.exit_code === ExitCode.badRecipe) return v('configuration', 'bad recipe or configuration');
  if (report.exit_code === ExitCode.badInput) return v('configuration', 'bad input');
  if (report.exit_code === ExitCode.fatalTool) return v('infrastructure', 'fatal tool error');
  const error = report.error ?? '';
  switch (report.status) {
    case 'limit':
      return v('agent', `limit: ${report.limit ?? 'budget'}`);
    case 'loop':
      return v('agent', 'loop detected');
    case 'denied':
      return v('agent', 'policy denied');
    case 'check_failed':
      return v('agent', 'checks failed');
    case 'failed':
      return v('agent', `failed: ${firstLine(error.replace(/^model call failed: /, '')) || 'no reason given'}`);
    default:
      return kind === null ? v('infrastructure', 'runner error') : v('agent', firstLine(error) || report.status);
  }
}

/** The row of a target whose run left a report (or crashed without one). */
export function rowFromRun(base: BatchRow, report: Report | null, exit: ChildExit, reportPath: string | null, durationMs: number): BatchRow {
  const stderrLines = exit.stderrTail.trim().split('\n').slice(-3).join('\n') || null;
  if (!report) {
    // Its stderr log may be gone with its directory (a tool removed it): the exit code still says what happened.
    const error = stderrLines ?? (exit.exitCode === ExitCode.fatalTool ? "exit 54: the run's transcript or report could not be written (a full disk, or its directory removed by a tool)" : null);
    return { ...base, ...classifyRun(report, exit), exit_code: exit.exitCode, duration_ms: durationMs, error };
  }
  // The process's exit code is the run's verdict, as for `unattended run`: a run that ended
  // success in its report.json but whose report.md or transcript's run_end could not be written
  // (a full disk) exits 54, and a row succeeds exactly when its run exits 0.
  const unfinished = exit.exitCode !== null && exit.exitCode !== report.exit_code;
  const verdict: Verdict = unfinished ? { status: 'error', category: 'infrastructure', cause: RECORD_NOT_WRITTEN } : classifyRun(report, exit);
  return {
    ...base,
    ...verdict,
    exit_code: unfinished ? exit.exitCode : report.exit_code,
    turns: report.turns,
    tool_calls: report.tool_calls.total,
    tokens: { input: report.usage.input, output: report.usage.output, total: report.usage.total, ...(report.usage.estimated ? { estimated: true as const } : {}) },
    cost_usd: report.usage.cost_usd ?? null,
    // Shell commands change files the file tools never saw; a commit shows git's count.
    files_changed: Math.max(report.files_changed.length, report.git?.files.length ?? 0),
    duration_ms: report.duration_ms,
    error: unfinished ? stderrLines : (report.error ?? denialSummary(report)),
    run_id: report.run_id,
    report: reportPath,
    git: report.git ? { branch: report.git.branch, commit: report.git.commit, pushed: report.git.pushed } : null,
    pull_request: pullRequestOf(report),
  };
}

function pullRequestOf(report: Report): BatchPullRequest | null {
  const pr = report.git?.pull_request;
  if (!pr) return null;
  return { url: pr.url, number: pr.number, repository: pr.repository, api_url: pr.api_url, action: pr.action, error: pr.error };
}

function denialSummary(report: Report): string | null {
  const first = report.denials?.[0];
  if (!first) return null;
  return `${report.denials.length} call${report.denials.length === 1 ? '' : 's'} denied; first: ${first.tool}: ${first.reason}`;
}

/** Causes group failures: keep them short and free of per-target detail where possible. */
function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}
