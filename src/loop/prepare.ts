// Steps 3 to 5 of the seed's flow for one call: registry lookup, parameter validation, and
// confirmation answered by the policy. `unattended policy check` runs exactly this function, so
// what it prints is what the runner would do.
import type { FunctionCall } from '../types/content.js';
import type { ToolRegistry } from '../tools/registry.js';
import { isReadOnly, type AnyTool, type ToolErrorType } from '../tools/tools.js';
import type { ConfirmationDetails, PolicyDecision, PolicyJudge } from '../types/policy.js';
import type { CallEffect } from '../types/events.js';
import { heldBackInPlanMode } from './plan-mode.js';
import { peerToolCallHint } from '../tools/peer-names.js';

export type { PolicyJudge, PolicyQuestion } from '../types/policy.js';

export type PreparedCall =
  | { ok: true; tool: AnyTool; params: Record<string, unknown>; readOnly: boolean; description: string; decision: PolicyDecision; effect: CallEffect | null }
  | { ok: false; errorType: ToolErrorType; message: string; decision: PolicyDecision | null; description: string | null; effect?: CallEffect | null };

const CUT_OFF =
  "your answer reached the output-token limit while writing this call, so its arguments were cut off and it did not run: write less in one call (several smaller edits or files), or the run's provider_options.max_output_tokens must be raised";

/**
 * What ended an answer that cut a call off, when it was no cap the run sent (ModelTurn.notOurCap:
 * a local server's own limit, Gemini's model limit, a full context window): the model would repeat
 * "raise max_output_tokens" to the user, and that setting was never set or makes no room.
 */
function cutOffBy(notOurCap: string): string {
  return `your answer was cut off while writing this call, so its arguments are incomplete and it did not run: write less in one call (several smaller edits or files); ${notOurCap}`;
}

/** "Unknown tool", with which tool does the same here when the name is another agent's (`Bash`). */
function unknownToolMessage(name: string, offered: string[]): string {
  const peer = peerToolCallHint(name, offered);
  return `Unknown tool '${name}'${peer ? `: ${peer}` : ''}. Available tools: ${offered.join(', ')}.`;
}

/** How the model's answer ended when it stopped at a limit (finish reason max_tokens). */
export interface CutOff {
  /** ModelTurn.notOurCap: the limit was not the run's output cap. */
  notOurCap?: string;
}

/**
 * @param cutOff - the model's answer stopped at a limit (finish reason max_tokens), null when it
 *   did not: arguments that do not parse were cut off there, and the model must hear that, not
 *   only "not JSON", or it writes the same oversized call again.
 */
export async function prepareCall(
  call: FunctionCall,
  registry: ToolRegistry,
  judge: PolicyJudge,
  signal: AbortSignal,
  cutOff: CutOff | null = null,
): Promise<PreparedCall> {
  const tool = registry.get(call.name);
  if (!tool) {
    return {
      ok: false,
      errorType: 'unknown_tool',
      message: unknownToolMessage(call.name, registry.names()),
      decision: null,
      description: null,
    };
  }
  // Held back by plan mode: the model was not offered the tool, so the call tried nothing (not even
  // an edit that failed) and the policy has nothing to judge.
  const heldBack = heldBackInPlanMode(tool);
  if (heldBack) return { ok: false, errorType: 'invalid_params', message: heldBack, decision: null, description: null, effect: null };
  // A file tool's call that never ran for its parameters is still an edit the model tried: the
  // "every edit failed" rule must count it (runner/change-ledger.ts).
  const attempted: CallEffect | null = tool.kind === 'edit' ? 'edit' : null;
  if (call.unparsedArguments !== undefined) {
    return {
      ok: false,
      errorType: 'invalid_params',
      message: `Invalid parameters for ${call.name}: the arguments are not a JSON object: ${call.unparsedArguments.slice(0, 200)}${cutOff ? ` (${cutOff.notOurCap ? cutOffBy(cutOff.notOurCap) : CUT_OFF})` : ''}`,
      decision: null,
      description: null,
      effect: attempted,
    };
  }
  const params = call.args;
  const invalid = tool.validateToolParams(params);
  if (invalid) {
    const refused = await refusalOfInvalidCall(call.name, tool, params, judge);
    if (refused) return { ok: false, errorType: 'policy_denied', message: `Denied by policy: ${refused.reason}`, decision: refused, description: safeDescription(tool, params) };
    return { ok: false, errorType: 'invalid_params', message: `Invalid parameters for ${call.name}: ${invalid}`, decision: null, description: null, effect: attempted };
  }
  const description = safeDescription(tool, params);
  let decision: PolicyDecision;
  let confirmation: ConfirmationDetails | false;
  try {
    confirmation = await tool.shouldConfirmExecute(params, signal);
    decision = await judge({ tool: call.name, names: ruleNamesOf(call.name, tool), mcpServer: tool.mcpServer, args: params, confirmation, paths: pathArguments(tool, params) });
  } catch (error) {
    // Fail closed: a policy that cannot be evaluated denies.
    confirmation = { kind: 'other', title: call.name };
    decision = { decision: 'deny', reason: `the policy could not be evaluated: ${(error as Error).message}`, rule: null };
  }
  // A call that needs no confirmation (a trusted MCP server's) still has the effect its kind says:
  // what it changed must count (runner/change-ledger.ts), whoever approved it.
  const effect = confirmation === false ? effectOfKind(tool) : confirmation.kind;
  if (decision.decision === 'deny') {
    return { ok: false, errorType: 'policy_denied', message: `Denied by policy: ${decision.reason}`, decision, description, effect };
  }
  return { ok: true, tool, params, readOnly: isReadOnly(tool), description, decision, effect };
}

/**
 * A call whose paths lead out of the workspace fails validation too, but it is an attempt on the
 * policy, not a typo: the policy refuses it, so it is reported (report.denials) and not just an
 * error. Only a refusal is taken; nothing invalid is ever allowed through here.
 */
async function refusalOfInvalidCall(
  name: string,
  tool: AnyTool,
  params: Record<string, unknown>,
  judge: PolicyJudge,
): Promise<PolicyDecision | null> {
  const paths = pathArguments(tool, params ?? {});
  if (paths.length === 0) return null;
  try {
    const decision = await judge({ tool: name, names: ruleNamesOf(name, tool), mcpServer: tool.mcpServer, args: params, confirmation: false, paths });
    return decision.decision === 'deny' ? decision : null;
  } catch {
    return null; // still refused, as invalid parameters
  }
}

function ruleNamesOf(name: string, tool: AnyTool): string[] {
  return [name, ...tool.ruleNames.filter((other) => other !== name)];
}

function pathArguments(tool: AnyTool, params: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const name of tool.pathParams) {
    const value = params[name];
    if (typeof value === 'string') paths.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') paths.push(v);
  }
  return paths;
}

function safeDescription(tool: AnyTool, params: Record<string, unknown>): string {
  try {
    return tool.getDescription(params);
  } catch {
    return tool.name;
  }
}

/** What a call of this tool may do, by its kind, when no confirmation details say it. */
function effectOfKind(tool: AnyTool): CallEffect | null {
  switch (tool.kind) {
    case 'edit':
      return 'edit';
    case 'execute':
      return 'exec';
    case 'fetch':
      return 'fetch';
    case 'other':
      return 'other';
    default:
      return null;
  }
}
