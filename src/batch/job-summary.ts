// GitHub's job summary of a batch, or of a merge of its shards: batch-report.md appended to
// $GITHUB_STEP_SUMMARY. The summary is GitHub's page, not the batch's record (batch-report.json
// and .md are written): one that cannot take it (a full disk) is said, as a run says it, never a
// crash that hides the outcome and exit code.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_REPORT_MD_BYTES, withinReportBudget } from '../report/markdown-budget.js';

/** `command` names who speaks on stderr (`batch`, `batch merge`). */
export function appendJobSummary(outDir: string, summary: string | undefined, command: string): void {
  if (!summary) return;
  try {
    // GitHub shows no summary at all over 1 MiB (a fleet of thousands of targets): cut to fit, saying where the rest is.
    const markdown = withinReportBudget(fs.readFileSync(path.join(outDir, 'batch-report.md'), 'utf8'), MAX_REPORT_MD_BYTES, 'This summary', `batch-report.md and batch-report.json in ${outDir} have every target`);
    fs.appendFileSync(summary, `${markdown}\n`);
  } catch (error) {
    process.stderr.write(`unattended ${command}: cannot write ${summary}: ${(error as Error).message}\n`);
  }
}
