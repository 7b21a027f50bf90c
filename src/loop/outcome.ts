// Exit codes and statuses: a DESIGN.md contract that scripts and the GitHub Action rely on.
import type { RunStatus } from './events.js';

export const ExitCode = {
  success: 0,
  failed: 1,
  auth: 41,
  badInput: 42,
  badRecipe: 52,
  turnLimit: 53,
  fatalTool: 54,
  budget: 55,
  sigint: 130,
  sigterm: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** How a run ended, before it becomes a report. */
export interface RunOutcome {
  status: RunStatus;
  exitCode: number;
  finalAnswer: string | null;
  error: string | null;
}
