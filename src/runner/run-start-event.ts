// The run_start event: what a run records of itself before the model's first turn — who it is, the
// prompt, the tools offered, the policy and limits it runs under, the sandbox it got, and what a
// continued run must be held to (continued-safety.ts reads `policy` and `safety` back).
import type { RunEvent } from '../types/events.js';
import type { Recipe } from '../recipe/types.js';
import type { LoadedContext } from './context-files.js';
import type { EarlierRun } from './continuation.js';
import { safetyRecord } from './continued-safety.js';
import { recordedInvocation, type Invocation } from './invocation.js';
import type { Session } from './session.js';

type RunStartEvent = Extract<RunEvent, { type: 'run_start' }>;
export type RunIdentity = Pick<RunStartEvent, 'run_id' | 'started_at' | 'transcript' | 'recipe' | 'recipe_name' | 'provider' | 'model' | 'workspace' | 'trace'>;

interface RunStartExtras {
  context: LoadedContext;
  earlier: EarlierRun | null;
  invocation: Invocation | null;
}

export function runStartEvent(identity: RunIdentity, recipe: Recipe, session: Session, prompt: string, extras: RunStartExtras): RunEvent {
  const { context, earlier, invocation } = extras;
  return {
    type: 'run_start',
    ...identity,
    workspace: session.workspace.root,
    prompt,
    tools: session.registry.names(),
    policy: {
      mode: recipe.confirmation.mode,
      allow: recipe.confirmation.allow.map((r) => r.source),
      deny: recipe.confirmation.deny.map((r) => r.source),
    },
    limits: {
      max_turns: recipe.limits.maxTurns,
      max_tool_calls: recipe.limits.maxToolCalls,
      timeout_ms: recipe.limits.timeoutMs,
      max_tokens: recipe.limits.maxTokens,
      max_denials: recipe.failOnDenial ? 0 : recipe.limits.maxDenials,
      max_cost_usd: recipe.limits.maxCostUsd,
      context_tokens: recipe.limits.contextTokens,
      compact_at: recipe.limits.compactAt,
    },
    sandbox: { ...session.sandbox.status },
    safety: safetyRecord(recipe),
    ...(context.files.length ? { context: { files: context.files, text: context.text } } : {}),
    ...(earlier ? { continued_from: { run_id: earlier.run_id, transcript: earlier.transcript } } : {}),
    ...(session.mcpServers.length ? { mcp_servers: session.mcpServers } : {}),
    ...(invocation ? { invocation: recordedInvocation(invocation) } : {}),
  };
}

/** The run_start of a run that ended before its session opened (a bad recipe, a missing key). */
export function setupFailureStart(identity: RunIdentity): RunEvent {
  return { type: 'run_start', ...identity, prompt: '', tools: [], policy: { mode: '', allow: [], deny: [] }, limits: {} };
}
