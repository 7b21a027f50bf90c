// report.json's shape: a DESIGN.md contract read by scripts and the GitHub Action. Built by
// report/fold.ts from the run's events alone.
import type { RunStatus, LimitName } from '../types/events.js';
import type { TokenUsage } from '../types/content.js';
import type { ErrorKind } from '../types/errors.js';
import type { ChangedFile, GitHandoffReport, TodoItem } from '../types/changes.js';

export type { ChangedFile, GitHandoffReport, TodoItem };

export interface ToolCallCounts {
  success: number;
  error: number;
  denied: number;
}

export interface Denial {
  turn: number;
  tool: string;
  args: Record<string, unknown>;
  reason: string;
  rule: string | null;
}

export interface Report {
  run_id: string;
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
  turns: number;
  tool_calls: { total: number; by_tool: Record<string, ToolCallCounts> };
  denials: Denial[];
  usage: TokenUsage;
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
}

export interface SubAgentReport {
  /** The task call that ran it; the sub-agent's events carry it as parent_call_id. */
  call_id: string;
  description: string;
  status: 'success' | 'error' | 'denied' | 'running';
  turns: number;
  tool_calls: number;
}
