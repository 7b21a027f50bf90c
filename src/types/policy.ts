// A policy question and its answer. Shared by the policy (which decides), the loop (which asks and
// acts on the answer), tools (which describe what a call would do) and the transcript (which
// records the answer), so they live below all of them.
export interface PolicyDecision {
  decision: 'allow' | 'deny';
  reason: string;
  /** The rule that decided, as written in the recipe (`shell: git diff *`), when one did. */
  rule: string | null;
}

/**
 * What a call would do, for the policy to judge in place of a human (the seed's step 5).
 * Paths are the tool's resolution of its arguments, or the raw argument when that resolution
 * failed (the tree may have changed since validation): the policy resolves every one again
 * and denies any that leads out of the workspace, so nothing here is trusted as confined.
 */
export type ConfirmationDetails =
  | { kind: 'edit'; title: string; paths: string[] }
  | { kind: 'exec'; title: string; command: string; directory: string }
  | { kind: 'fetch'; title: string; urls: string[] }
  | { kind: 'other'; title: string };

/** One call as the policy sees it: what the loop asks, `unattended policy check` asks, decide() answers. */
export interface PolicyQuestion {
  tool: string;
  /**
   * Every name the recipe's rules may use for the tool (the registered name first and, for MCP
   * tools, `alias__tool` before sanitising); a rule about any of them applies. Defaults to [tool].
   */
  names?: readonly string[];
  /** The alias of the MCP server the tool belongs to (null or absent: not an MCP tool); `alias__*` rules match only these. */
  mcpServer?: string | null;
  args: Record<string, unknown>;
  confirmation: ConfirmationDetails | false;
  /** Workspace paths the call touches, from the tool's pathParams (raw, as given by the model). */
  paths: string[];
}

/** The policy as the loop asks it; the loop does not know how it decides. */
export type PolicyJudge = (question: PolicyQuestion) => Promise<PolicyDecision>;
