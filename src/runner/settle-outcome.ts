// The loop's outcome, settled with what the runner saw around it, before the hand-off and the report.
//
// A run whose every attempted edit failed, and that changed no file at all, did not do its work,
// whatever its final answer says: it ends `failed` (exit 1), not `success`. A write_file of the
// bytes the file already held is no more of a change than an edit refused for replacing a text
// with itself: it counts with the failed ones, or "Fixed the typo" over an untouched file would be
// a success that an edit saying the same would not be. Only calls that edit
// files count (write_file, edit: what the tool tells the policy it changes); a denial is the
// policy's answer, not a failure, and a run that tried no edit (a read-only task) is not judged
// here: `checks.require_changes` is how a recipe says that it must change something.
//
// A run ended by its denials (exit 57) names, on the one line a CI log shows, what it kept hitting.
import { summarizeDenials } from '../report/denial-summary.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import type { ChangeLedger, EditTally } from './change-ledger.js';

export interface SettleContext {
  ledger: ChangeLedger;
  /** Files the run changed, as the report counts them. */
  changedFiles: readonly string[];
  /** Whether git shows what shell, MCP and discovered tools changed. */
  seesEveryChange: boolean;
  /** A continued run: changedFiles leaves out the earlier runs' changes it did not touch, which files_changed still lists. */
  continued?: boolean;
}

export function settleOutcome(outcome: RunOutcome, ctx: SettleContext): RunOutcome {
  const judged = judgeFailedEdits(outcome, ctx.ledger.editTally(), ctx.changedFiles, ctx.seesEveryChange, ctx.continued ?? false);
  if (judged.exitCode !== ExitCode.denied || !judged.error) return judged;
  return { ...judged, error: `${judged.error}${mostDenied(ctx.ledger)}` };
}

/**
 * `seesEveryChange`: whether changedFiles can include what shell, MCP and discovered tools did (git
 * tracks the workspace); when it cannot and such a call ran, a change may have been made unseen.
 */
export function judgeFailedEdits(outcome: RunOutcome, edits: EditTally, changedFiles: readonly string[], seesEveryChange: boolean, continued = false): RunOutcome {
  if (outcome.exitCode !== ExitCode.success || edits.attempted === 0 || changedFiles.length > 0) return outcome;
  if (!seesEveryChange && edits.otherChanges > 0) return outcome;
  const failed = Object.values(edits.failed).reduce((n, c) => n + c, 0);
  if (failed + edits.unchanged < edits.attempted) return outcome;
  const why = Object.entries({ ...edits.failed, ...(edits.unchanged > 0 ? { 'wrote what the file held': edits.unchanged } : {}) })
    .sort(([, a], [, b]) => b - a)
    .map(([type, count]) => `${type} ×${count}`)
    .join(', ');
  const ended = edits.unchanged === 0 ? 'failed' : failed === 0 ? 'changed nothing' : 'failed or changed nothing';
  return {
    status: 'failed',
    exitCode: ExitCode.failed,
    // Its claim stays in the transcript; as the run's answer it would tell a later step the work was done.
    finalAnswer: null,
    error: `every edit the model tried ${ended} (${edits.attempted} call${edits.attempted === 1 ? '' : 's'}: ${why}) and no file changed${continued ? ' in this run (what the earlier runs changed is not its work)' : ''}`,
  };
}

/** The call refused, or the rule and the call a denial loop hit most. */
function mostDenied(ledger: ChangeLedger): string {
  const { by_rule: [rule], by_call: [call] } = summarizeDenials(ledger.denials);
  if (!rule || !call) return '';
  const ruleText = rule.rule ? `rule \`${rule.rule}\`` : rule.reason;
  if (ledger.denials.length === 1) return `: \`${call.tool}\` ${call.call} (${ruleText})`;
  return `; most often ${ruleText} (${rule.count}×), most tried \`${call.tool}\` ${call.call} (${call.count}×)`;
}
