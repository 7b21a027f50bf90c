// What the built-in tools need from the run, passed explicitly (no global config object).
import type { Workspace } from '../util/workspace.js';
import type { PlanState } from './builtin/exit-plan-mode.js';
import type { SubAgentRunner } from './builtin/task.js';
import type { SearchFunction } from './builtin/web-search.js';
import type { RunState } from './run-state.js';
import type { CommandWrapper } from '../sandbox/wrapper.js';

export interface ToolContext {
  /** The one confinement implementation: every path a tool touches goes through resolve(). */
  workspace: Workspace;
  /** Environment for child processes, already allowlisted by the runner (see toolEnvironment). */
  env: Record<string, string>;
  /** Wraps every process a tool starts in the run's OS sandbox; without one, processes run as they are. */
  sandbox?: CommandWrapper;
  /** Upper bound for any shell timeout the model asks for. */
  maxTimeoutMs: number;
  /** todo_write's list, shown in the report. Default: a fresh state nobody reads. */
  runState?: RunState;
  /** save_memory appends here (absolute). Required when save_memory is offered. */
  memoryFile?: string;
  /**
   * The run's redaction (report/redact.ts), for what a tool writes where the run's outputs do not
   * redact it: a fact save_memory keeps for later runs. Default: nothing is redacted.
   */
  redact?: (text: string) => string;
  /** web_search's backend; without one web_search is not offered (see unavailableBuiltins). */
  search?: SearchFunction | null;
  /** web_fetch: hosts the allow rules name exactly, and the check every redirect hop must pass. */
  fetch?: FetchPolicy;
  /** task: runs a sub-agent. Required when task is offered. */
  runSubAgent?: SubAgentRunner;
  /** exit_plan_mode: whether plan mode is on, and where the plan goes. */
  plan?: PlanState;
  /** Entries a listing or search walk visits at most (default MAX_WALK_ENTRIES); lower in tests of the cap. */
  maxWalkEntries?: number;
  /**
   * How grep finds files: with ripgrep when it is on PATH (the default), or always by the
   * JavaScript walk ('javascript'); tests and benchmarks compare the two.
   */
  grepEngine?: 'ripgrep' | 'javascript';
  /** grep's time limit (default GREP_TIME_LIMIT_MS); lower in tests of it. */
  grepTimeLimitMs?: number;
  /** The built-in tools this run offers (createBuiltinTools sets it): a note names only what the run can do. */
  offered?: readonly string[];
}

export interface FetchPolicy {
  /** May resolve to loopback/private addresses: the recipe names them exactly in an allow rule. */
  allowPrivateHosts: readonly string[];
  /** A reason to refuse a redirect target, or null. */
  checkRedirect: ((url: string) => string | null) | null;
}
