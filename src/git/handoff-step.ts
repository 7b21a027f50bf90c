// The runner's step between the loop and the report: hand off only a run that succeeded, and let
// a failed hand-off fail the run (a nightly job must not report success for work it left lying
// uncommitted). A failed push is only a warning: the commit is safe on its local branch.
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { stopOutcome } from '../loop/stop.js';
import type { GitHandoff } from '../recipe/types.js';
import type { GitHandoffReport } from '../report/report.js';
import { isStrictlyInside } from '../util/paths.js';

export interface HandoffStepInput {
  config: GitHandoff | null;
  outcome: RunOutcome;
  workspace: string;
  outDir: string;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  warn: (message: string) => void;
}

export interface HandoffStepResult {
  outcome: RunOutcome;
  /** For report.git; null when the recipe asks for no hand-off. */
  report: GitHandoffReport | null;
}

export async function gitHandoffStep(input: HandoffStepInput): Promise<HandoffStepResult> {
  const { config, outcome } = input;
  if (!config) return { outcome, report: null };
  if (outcome.status !== 'success') {
    const skipped = `the run ended with status ${outcome.status}; nothing is committed`;
    return { outcome, report: { branch: config.branch, commit: null, pushed: false, skipped, error: null, push_error: null, files: [] } };
  }
  // workspace_mode: copy puts the workspace inside the run output: a dry run, whose branch stays
  // in the copy. Pushing it would publish what the recipe asked to keep away from the original.
  const onCopy = isStrictlyInside(input.outDir, input.workspace);
  // Loaded only for a hand-off: git runs through execa, which most runs never need at start-up.
  const { handOff } = await import('./handoff.js');
  const report = await handOff({ config: onCopy ? { ...config, push: false } : config, workspace: input.workspace, outDir: input.outDir, signal: input.signal, env: input.env });
  if (onCopy && config.push && report.commit) report.push_error = 'not pushed: the run worked on a copy of the workspace (workspace_mode: copy)';
  if (input.signal.aborted) return { outcome: stopOutcome(input.signal.reason), report: { ...report, error: report.error ?? 'interrupted' } };
  if (report.error) {
    return { outcome: { ...outcome, status: 'error', exitCode: ExitCode.failed, error: `git hand-off: ${report.error}` }, report };
  }
  if (report.push_error) input.warn(`git push of branch '${report.branch}' failed: ${report.push_error}; the commit stays on the local branch`);
  return { outcome, report };
}
