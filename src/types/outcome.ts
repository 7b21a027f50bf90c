// How a run ends: its status, its exit code, and the one table that documents both. README,
// action.yml and the batch report all describe this table; test/project/exit-codes.test.ts keeps
// them in step. Every layer may import it (cli, report, batch, action need it without the loop).
import type { ErrorKind } from './errors.js';

export type RunStatus =
  | 'success'
  | 'denied'
  | 'failed'
  | 'check_failed'
  | 'handoff_failed'
  | 'limit'
  | 'loop'
  | 'cancelled'
  | 'error';

/** `sub_agent_max_turns`: a sub-agent's own turn limit; it ends that sub-agent (its task call fails), never the run. */
export type LimitName = 'max_turns' | 'max_tool_calls' | 'timeout' | 'max_tokens' | 'max_cost_usd' | 'max_denials' | 'sub_agent_max_turns';

export const ExitCode = {
  success: 0,
  failed: 1,
  auth: 41,
  badInput: 42,
  badRecipe: 52,
  turnLimit: 53,
  fatalTool: 54,
  budget: 55,
  checkFailed: 56,
  denied: 57,
  handoffFailed: 58,
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The documented meaning of every exit code, in order: the source of the README's table. */
export const EXIT_CODE_TABLE: ReadonlyArray<{ code: ExitCodeValue; meaning: string }> = [
  { code: ExitCode.success, meaning: 'success: the model finished and every check passed (status `success`, or `denied` when some calls were refused)' },
  { code: ExitCode.failed, meaning: 'the run failed: a model error after retries, an empty, truncated, blocked or refused final answer, no answer valid against `output.schema` in `output.max_attempts`, every edit it tried failed, a loop, an unexpected error' },
  { code: ExitCode.auth, meaning: 'authentication: no key, or the provider refused it' },
  { code: ExitCode.badInput, meaning: 'bad input: flags, parameters, a provider\'s base URL in the environment that is no http(s) URL (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`), no prompt or required stdin, a `--continue` whose run cannot be found or read, is still going, or whose recipe now gives other settings than the run had, an unwritable output directory (or one that holds a run already, or the workspace; for a new `batch`, an `--out` that holds an earlier batch, or a default directory whose earlier batch cannot be moved aside)' },
  { code: ExitCode.badRecipe, meaning: 'bad recipe or configuration (also a broken script file, tool discovery, a required MCP server, a required sandbox)' },
  { code: ExitCode.turnLimit, meaning: '`max_turns` reached' },
  { code: ExitCode.fatalTool, meaning: "a fatal tool error (disk full, the transcript or the report cannot be written, a `workspace_mode: copy` that cannot be made, the run's directory moved by a tool during the run, stdout redirected to a full disk); for `report --out` and `convert --out`, no space for the file (nothing is written, an earlier file stays as it was)" },
  { code: ExitCode.budget, meaning: 'a budget: `timeout`, `max_tool_calls`, `max_tokens`, `max_cost_usd`' },
  { code: ExitCode.checkFailed, meaning: 'the success checks failed (`checks.require_changes`, `checks.commands`)' },
  { code: ExitCode.denied, meaning: 'the policy kept refusing: `max_denials` reached, or any denial with `fail_on_denial`' },
  { code: ExitCode.handoffFailed, meaning: 'the git hand-off failed: the branch exists, the commit or the push was refused, the pull request could not be opened or updated, or none of what the run changed could be committed' },
  { code: ExitCode.sighup, meaning: 'stopped by SIGHUP: the terminal or ssh session closed (status `cancelled`)' },
  { code: ExitCode.sigint, meaning: 'stopped by SIGINT (status `cancelled`)' },
  { code: ExitCode.sigterm, meaning: 'stopped by SIGTERM (status `cancelled`)' },
];

/** How a run ended, before it becomes a report. */
export interface RunOutcome {
  status: RunStatus;
  exitCode: number;
  finalAnswer: string | null;
  error: string | null;
  /** What kind of failure ended the run (types/errors.ts), when one did: batch --resume reads it. */
  errorKind?: ErrorKind;
}
