// report.json's shape: a DESIGN.md contract read by scripts and the GitHub Action. Built by
// report/fold.ts from the run's events alone.
import type { ContextFileSummary, ContinuedFrom, LimitName, RunEvent, RunStatus, SandboxSummary } from '../types/events.js';
import type { TokenUsage } from '../types/content.js';
import type { ErrorKind } from '../types/errors.js';
import type { ChangedFile, GitHandoffReport, TodoItem } from '../types/changes.js';

export type { ChangedFile, GitHandoffReport, TodoItem };

export interface ToolCallCounts {
  success: number;
  error: number;
  denied: number;
  /** The errors by type (`edit_no_match: 2`); empty when none failed. */
  errors_by_type: Record<string, number>;
  /** Results cut at a cap (the tool's own or the loop's): the model got part of the output, and a note saying so. */
  truncated: number;
}

/** Denials grouped, most frequent first: what a recipe author fixes the policy or the prompt from. */
export interface DenialSummary {
  /** By the rule that refused (or the reason, when no rule did: the mode, a protected path...). */
  by_rule: Array<{ rule: string | null; reason: string; count: number }>;
  /** By what was tried: the tool and its command, path or URL. */
  by_call: Array<{ tool: string; call: string; count: number }>;
}

/** One success check as it ran (recipe `checks:`): the check event without its type. */
export type CheckReport = Omit<Extract<RunEvent, { type: 'check' }>, 'type'>;

export interface Denial {
  turn: number;
  tool: string;
  args: Record<string, unknown>;
  reason: string;
  rule: string | null;
}

export interface Report {
  run_id: string;
  /** The OpenTelemetry trace of the run (hex ids) when it exported telemetry; null otherwise. */
  trace: { trace_id: string; span_id: string } | null;
  status: RunStatus;
  exit_code: number;
  recipe: { name: string; file: string | null };
  provider: string;
  model: string;
  workspace: string;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  final_answer: string | null;
  structured_output: unknown;
  error: string | null;
  /** What kind of failure ended the run (types/errors.ts): batch --resume reruns the transient ones. */
  error_kind: ErrorKind | null;
  limit: LimitName | null;
  /** How the model's last turn ended (`stop`, `max_tokens`, `safety`...) and the provider's own word. */
  finish: { reason: string; raw: string | null } | null;
  turns: number;
  /** `truncated`: results cut at a cap, in all (a call counts in success or error as well). */
  tool_calls: {
    total: number;
    by_tool: Record<string, ToolCallCounts>;
    errors_by_type: Record<string, number>;
    truncated: number;
    /**
     * Calls the transcript records as started (allowed) with no result: a run killed while they
     * ran, or one still going. Not in `total`, which counts a call at its result; they may have
     * done some or all of their work. 0 in the report of a run that ended.
     */
    unfinished: number;
  };
  denials: Denial[];
  denial_summary: DenialSummary;
  /** Every success check that ran, in order; empty when the recipe has none. */
  checks: CheckReport[];
  usage: TokenUsage;
  /**
   * Times older turns were compacted to fit the model's context window (sub-agents included): all
   * of them, those the model summarised, and those made after the provider refused a request as too long.
   */
  compactions: { total: number; summarized: number; after_context_error: number };
  files_changed: ChangedFile[];
  warnings: string[];
  transcript: string;
  /** todo_write's task list as the run left it. */
  todos: TodoItem[];
  /** The plan handed in with exit_plan_mode (recipe `mode: plan`); null when none was. */
  plan: string | null;
  /** Every `task` call: its sub-agent's turns and tool calls (also counted in tool_calls and usage). */
  sub_agents: SubAgentReport[];
  /** What the git hand-off did (recipe `git:`); null when the recipe asks for none. */
  git: GitHandoffReport | null;
  /** Which sandbox contained the tools' processes (or why none did), and the hosts its proxy refused. */
  sandbox: (SandboxSummary & { denied_hosts: string[] }) | null;
  /** The repository's context files (AGENTS.md...) sent before the prompt; whether each was cut. */
  context_files: ContextFileSummary[];
  /** The run this one continues (`run --continue`); null for a run of its own. */
  continued_from: ContinuedFrom | null;
}

export interface SubAgentReport {
  /** The task call that ran it; the sub-agent's events carry it as parent_call_id. */
  call_id: string;
  description: string;
  /** `cancelled`: stopped with the run by a signal; `limit`: stopped by a limit of the run's (its timeout, a budget). */
  status: 'success' | 'error' | 'denied' | 'running' | 'cancelled' | 'limit';
  turns: number;
  tool_calls: number;
}
