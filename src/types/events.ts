// The run's typed events, flowing one way: the loop (turns, calls, retries) and the runner (what it
// found and did around the loop) produce them; transcript, report, console and telemetry consume
// them. Every field is plain JSON so an event can be written as one transcript line as is, and the
// report is a fold over them (report/fold.ts).
// Events of a sub-agent (the `task` tool) carry `parent_call_id`: the id of the task call that ran it.
import type { FunctionCall, TokenUsage } from '../types/content.js';
import type { ToolErrorType, ToolResultDisplay } from './tool-result.js';
import type { ErrorKind } from './errors.js';
import type { LimitName, RunStatus } from './outcome.js';
import type { PolicyDecision } from './policy.js';
import type { ChangedFile, GitHandoffReport, TodoItem } from './changes.js';

export type { LimitName, PolicyDecision, RunStatus };

/** An MCP server of the recipe at the start of the run. */
export interface McpServerStatus {
  name: string;
  status: 'connected' | 'failed' | 'disabled';
  /** Why it did not start. */
  error?: string;
}

export type RunEvent =
  | {
      type: 'run_start';
      /** The run's identity, as report.json names it. */
      run_id: string;
      started_at: string;
      /** The transcript file this run writes (report.json's `transcript`). */
      transcript: string;
      recipe: string | null;
      recipe_name: string;
      provider: string;
      model: string;
      workspace: string;
      prompt: string;
      tools: string[];
      policy: { mode: string; allow: string[]; deny: string[] };
      limits: Record<string, number | null>;
      /** The OpenTelemetry trace this run exports to (hex ids), when telemetry is on; report.json's `trace`. */
      trace?: TraceIds;
      /** Which OS sandbox contains tool processes, or why none does (issue 11); absent when the run ended before its tools were set up. */
      sandbox?: SandboxSummary;
      /** Context files the repository provided (AGENTS.md...), and the text sent before the prompt. */
      context?: { files: ContextFileSummary[]; text: string | null };
      /** The earlier run this one continues (`run --continue`): its conversation came first. */
      continued_from?: ContinuedFrom;
      /** The recipe's MCP servers and whether each started (one that did not is left out, with a warning); absent without any. */
      mcp_servers?: McpServerStatus[];
      /** How the command line asked for this run (recipe, parameters, flags): what `--continue` rebuilds it from. */
      invocation?: unknown;
      /** Besides `policy`, what bounds the run as its recipe and flags set it: what a `--continue` holds the next run to. */
      safety?: SafetyRecord;
    }
  | { type: 'model_request'; turn: number; messages: number; parent_call_id?: string }
  | {
      type: 'model_response';
      parent_call_id?: string;
      turn: number;
      text: string;
      function_calls: FunctionCall[];
      usage: TokenUsage;
      /** Why the model stopped (providers' FinishReason), and the provider's own word for it. */
      finish_reason: string;
      finish_raw: string | null;
      duration_ms: number;
      /** Answer fields the runner does not read, as the server sent them (providers' ModelTurn.providerFields). */
      provider_fields?: Record<string, unknown>;
      /** The model that answered as the provider names it (a dated version, a router's pick); absent when it does not say. */
      response_model?: string;
    }
  /** Streamed text as it arrives: for stream-json consumers; the transcript keeps model_response. */
  | { type: 'text_delta'; turn: number; text: string; parent_call_id?: string }
  | { type: 'retry'; turn: number; attempt: number; delay_ms: number; reason: string; parent_call_id?: string }
  | {
      type: 'tool_call';
      parent_call_id?: string;
      turn: number;
      call_id: string;
      name: string;
      args: Record<string, unknown>;
      /** The arguments text when it was not a JSON object (then `args` is empty and the call fails). */
      unparsed_arguments?: string;
      description: string | null;
      /** `null` when the call never reached the policy (unknown tool, invalid parameters). */
      decision: PolicyDecision | null;
      /**
       * What the call can change, as the tool told the policy: `edit` (files), `exec`, `fetch`,
       * `other`; null when it cannot change anything or never reached the policy.
       */
      effect?: CallEffect | null;
    }
  | {
      type: 'tool_result';
      parent_call_id?: string;
      turn: number;
      call_id: string;
      name: string;
      llm_content: unknown;
      return_display: ToolResultDisplay;
      duration_ms: number;
      error_type: ToolErrorType | null;
      /** Full output saved beside the transcript when it was too large to send. */
      saved_output: string | null;
      /** The model got only part of the output (a tool's cap or the loop's), and a note saying so; absent in older transcripts. */
      truncated?: boolean;
    }
  | { type: 'limit'; limit: LimitName; value: number; parent_call_id?: string }
  /**
   * Older turns of the conversation were compacted to keep the next request inside the model's
   * context window (loop/compaction.ts). Token counts are estimates (loop/context-estimate.ts).
   */
  | {
      type: 'compaction';
      parent_call_id?: string;
      /** The turn whose request it made room for. */
      turn: number;
      /** `threshold`: the request would have passed limits.compact_at of the window; `context_error`: the provider refused it as too long. */
      reason: 'threshold' | 'context_error';
      /** The context window in tokens, when known. */
      window: number | null;
      /**
       * The window is one a refusal for length taught (a turn's request or a summary request, this
       * run's or an earlier one's): a run that continues this one (`--continue`) starts from it.
       */
      window_learned?: true;
      tokens_before: number;
      tokens_after: number;
      /**
       * Superseded file reads and long tool outputs replaced by a note; whole turns folded into the
       * summary; outputs of the last turns cut to a head because those turns alone did not fit.
       */
      dropped: { stale_reads: number; tool_outputs: number; turns: number; cut_outputs: number };
      /** `none`: not needed; `written`: the model summarised the dropped turns; `failed`: it could not, so they were dropped with a note. */
      summary: 'none' | 'written' | 'failed';
      /** What the summary side request cost (also in the run's usage); null without one. */
      usage: TokenUsage | null;
      /** The provider's refusal (reason `context_error`), or why the summary failed. */
      error: string | null;
    }
  /**
   * A model request a tool made on the run's account (web_search's grounded search), or an answer
   * of the turn's request the runner could not use though the server billed it (`unusable_answer`:
   * empty, only thinking, a refusal; asked again or ending the run): not a turn of the
   * conversation, but its tokens and cost are the run's, counted in usage, max_tokens and
   * max_cost_usd like a turn's.
   */
  | {
      type: 'side_request';
      parent_call_id?: string;
      turn: number;
      /** The tool call that made it; absent for an unusable answer. */
      call_id?: string;
      /** What it was for: the tool's name (`web_search`), or `unusable_answer`. */
      purpose: string;
      /** Why an unusable answer could not be used. */
      reason?: string;
      usage: TokenUsage;
    }
  | { type: 'warning'; message: string }
  /**
   * An MCP server said its tools changed (notifications/tools/list_changed) and was listed again
   * before this turn's request: the tools offered from then on, by the names the model sees.
   */
  | { type: 'tools_changed'; turn: number; server: string; added: string[]; removed: string[]; changed: string[] }
  /** The sandbox's network proxy refused a connection to a host `sandbox.network` does not name. */
  | { type: 'network_denied'; host: string; port: number; reason: string }
  /** A final answer sent back to the model (it does not match output.schema, or plan mode is still on). */
  | { type: 'answer_rejected'; turn: number; attempt: number; reason: string; /** What the model was told (a continued run replays it). */ feedback?: string }
  /** One success check after a final answer (recipe `checks:`): a command, or require_changes. */
  | {
      type: 'check';
      /** 1 for the first final answer, one more for each answer after a failed check. */
      attempt: number;
      kind: 'command' | 'require_changes';
      /** The command as the recipe wrote it; `require_changes` for that check. */
      check: string;
      passed: boolean;
      /** The command's exit code; null when it was killed, timed out or could not start. */
      exit_code: number | null;
      /** Why it did not pass, in a few words (`exit 1`, `timed out after 10 s`, `no file changed`). */
      reason: string | null;
      duration_ms: number;
      /** The end of its output (stdout and stderr, interleaved); for require_changes, the files it counted. */
      output_tail: string;
    }
  /** The model left plan mode with this plan (exit_plan_mode). */
  | { type: 'plan'; turn: number; plan: string }
  /** todo_write's whole list after the main agent changed it; the last one is the run's. */
  | { type: 'todos'; todos: TodoItem[] }
  /** The final answer's value once it validated against output.schema. */
  | { type: 'structured_output'; value: unknown }
  /** Every file the run changed, each with its diff against the workspace before the run: once, before run_end. */
  | { type: 'files_changed'; files: ChangedFile[] }
  /** What the git hand-off did (recipe `git:`). */
  /** duration_ms: how long the hand-off took (commit, push, pull request); absent in transcripts written before it was kept. */
  | { type: 'git_handoff'; git: GitHandoffReport; duration_ms?: number }
  | {
      type: 'run_end';
      status: RunStatus;
      exit_code: number;
      final_answer: string | null;
      error: string | null;
      /** What kind of failure ended the run (types/errors.ts ErrorKind); null on success. */
      error_kind: ErrorKind | null;
      turns: number;
      tool_calls: number;
      usage: TokenUsage;
      duration_ms: number;
    };

export interface ContextFileSummary {
  /** Relative to the workspace root, with `/`. */
  path: string;
  /** The file's size. */
  bytes: number;
  /** Cut (or left out) by the cap on context files. */
  truncated: boolean;
  /** Why it was not sent at all (binary, not UTF-8); absent when it was. */
  skipped?: string;
  /** The context file whose `@path` brought this one in; absent for one the run found itself. */
  imported_by?: string;
}

export interface ContinuedFrom {
  run_id: string;
  transcript: string;
}

export interface TraceIds {
  trace_id: string;
  /** The run span's id. */
  span_id: string;
}

export type CallEffect = 'edit' | 'exec' | 'fetch' | 'other';

export type RunEventType = RunEvent['type'];

/**
 * The recipe's settings, besides the confirmation policy, that bound what a run may do or where
 * its conversation goes, as its recipe and flags set them (not what the machine made of them). MCP
 * servers' environment and headers are named, not given: their values may be secrets.
 */
export interface SafetyRecord {
  sandbox: { mode: string; network: boolean | string[]; writable: string[]; hide: string[] };
  /** The built-in tools offered. */
  tools: string[];
  mcp_servers: Array<{
    alias: string;
    command: string | null;
    args: string[];
    cwd: string | null;
    url: string | null;
    env: string[];
    headers: string[];
    include_tools: string[] | null;
    exclude_tools: string[];
    trust: boolean;
    sandbox: boolean;
    /** The command, args and URL as an `--mcp-config` file writes them, `${VAR}`s unfilled (when it has any). */
    written?: { command: string | null; args: string[]; url: string | null };
  }>;
  tool_discovery: { command: string; call_command: string } | null;
  workspace: string;
  workspace_mode: string;
  plan: { mode: string; plan_only: boolean };
  env_pass: string[];
  memory_file: string | null;
  git: { push: boolean; pull_request: boolean } | null;
  /** Success-check commands. */
  checks: string[];
  provider: string;
  base_url: string | null;
}

export interface SandboxSummary {
  mode: 'auto' | 'required' | 'off';
  /** bwrap, seatbelt, or null: no sandbox (see reason). */
  kind: 'bwrap' | 'seatbelt' | null;
  reason: string | null;
  /** false: none; true: all; a list: the hosts the proxy lets through. */
  network: boolean | string[];
}

/** Consumers receive every event in order; they must not throw for ordinary input. */
export type EventSink = (event: RunEvent) => void;
