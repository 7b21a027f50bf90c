// What the built-in tools need from the run, passed explicitly (no global config object).
import type { Workspace } from '../util/workspace.js';

export interface ToolContext {
  /** The one confinement implementation: every path a tool touches goes through resolve(). */
  workspace: Workspace;
  /** Environment for child processes, already allowlisted by the runner (see toolEnvironment). */
  env: Record<string, string>;
  /** Upper bound for any shell timeout the model asks for. */
  maxTimeoutMs: number;
}
