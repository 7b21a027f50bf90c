// The points where run features (plan mode, structured output, sub-agents) step into the loop,
// so run-loop.ts stays one plain loop and each feature lives in its own file.
import type { ToolRegistry } from '../tools/registry.js';
import type { RunOutcome } from '../types/outcome.js';

/** What the loop does with a final answer (a model turn without calls). */
export type AnswerVerdict =
  | { verdict: 'accept' }
  /** Sent back to the model as a user message; the run goes on. */
  | { verdict: 'retry'; feedback: string; reason: string; attempt: number }
  /** The run fails with this error. */
  | { verdict: 'fail'; error: string };

export interface LoopHooks {
  /** The tools offered for the next turn (plan mode narrows them); default: the whole registry. */
  tools?(): ToolRegistry;
  /** After a turn's calls are answered: a final answer that ends the run now (plan_only), or null. */
  afterCalls?(turn: number): string | null;
  /** Judges a final answer before the run accepts it. */
  checkAnswer?(answer: string): AnswerVerdict;
  /**
   * Awaited once a final answer passed checkAnswer: the runner's success checks (commands,
   * require_changes), which may send it back to the model or end the run with their own outcome.
   */
  verifyAnswer?(answer: string, turn: number): Promise<VerifyVerdict>;
}

export type VerifyVerdict =
  | { verdict: 'accept' }
  | { verdict: 'retry'; feedback: string; reason: string; attempt: number }
  | { verdict: 'fail'; outcome: RunOutcome };

/**
 * Run-wide counters shared by the main loop and its sub-agents, so max_turns, max_tool_calls and
 * max_tokens bound the whole run, not each loop separately, and a denial inside a sub-agent makes the run's
 * status `denied` as one in the main loop does.
 */
export interface RunBudget {
  /** Model requests (turns) of the main loop and every sub-agent: what max_turns bounds. */
  turns: number;
  toolCalls: number;
  /**
   * A call was refused for max_tool_calls: the run's limit is met, wherever (a sub-agent's call
   * too: the main loop then ends the run there, as it does for max_turns and max_tokens).
   */
  toolCallLimitMet: boolean;
  tokens: number;
  /** US dollars spent on model calls (turns whose price is known). */
  costUsd: number;
  denials: number;
}

export function newBudget(): RunBudget {
  return { turns: 0, toolCalls: 0, toolCallLimitMet: false, tokens: 0, costUsd: 0, denials: 0 };
}

/** Runs every check in order; the first that does not accept decides. */
export function chainAnswerChecks(checks: Array<(answer: string) => AnswerVerdict>): (answer: string) => AnswerVerdict {
  return (answer) => {
    for (const check of checks) {
      const verdict = check(answer);
      if (verdict.verdict !== 'accept') return verdict;
    }
    return { verdict: 'accept' };
  };
}
