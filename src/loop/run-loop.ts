// The run: ask the model, answer its calls, repeat until it answers without calls or a limit is
// reached. The only producer of run events; it prints nothing and writes nothing itself.
import type { Content, FunctionDeclaration, TokenUsage } from '../types/content.js';
import { addUsage, ZERO_USAGE } from '../types/content.js';
import type { ModelProvider, ModelTurn } from '../providers/provider.js';
import { ProviderError } from '../providers/provider.js';
import { UserFacingError } from '../types/errors.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AnyTool } from '../tools/tools.js';
import type { EventSink, LimitName } from '../types/events.js';
import { runTurnCalls } from './calls.js';
import { LoopGuard } from './loop-guard.js';
import { StaleReads } from './stale-reads.js';
import { CallIds } from './call-ids.js';
import { Compactor, DEFAULT_COMPACT_AT, type CompactionOptions } from './compaction.js';
import type { OutputCapOptions } from './output-cap.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { newBudget, type LoopHooks, type RunBudget } from './loop-hooks.js';
import type { PolicyJudge } from './prepare.js';
import { stopOutcome } from './stop.js';
import { monotonicMs } from '../util/clock.js';
import { plural } from '../util/plural.js';

export interface LoopLimits {
  /** Model requests of the whole run, sub-agents' included (counted in the shared budget). */
  maxTurns: number;
  /** This loop's own turns, when it has a limit of its own (a sub-agent's); the run's still binds. */
  ownMaxTurns?: number | null;
  maxToolCalls: number | null;
  maxTokens: number | null;
  /** Policy denials tolerated across the run (sub-agents included); one more ends it (exit 57). */
  maxDenials?: number | null;
  /** Any denial ends the run (exit 57). */
  failOnDenial?: boolean;
  /** Dollars the model calls may cost, counted from each turn's usage.cost_usd. */
  maxCostUsd?: number | null;
  /** How long any one tool call may run (limits.tool_timeout); a call past it is stopped, error type timeout. */
  toolTimeoutMs?: number | null;
}

export interface LoopOptions {
  provider: ModelProvider;
  registry: ToolRegistry;
  judge: PolicyJudge;
  systemInstruction: string;
  prompt: string;
  /** Sent with the prompt, in the same message, before it: the repository's context files. */
  context?: string | null;
  /** The conversation so far (a continued run): the prompt follows it. */
  history?: readonly Content[];
  limits: LoopLimits;
  /** The run's one signal: timeout and signals abort it with a RunStop reason. */
  signal: AbortSignal;
  emit: EventSink;
  cap: OutputCapOptions;
  readConcurrency?: number;
  /** Plan mode, structured output (loop-hooks.ts). */
  hooks?: LoopHooks;
  /** Tool calls and tokens counted across this loop and its sub-agents; default: this loop's own. */
  budget?: RunBudget;
  /** Awaited before a call that can change something runs (see calls.ts). */
  beforeChange?: (tool: AnyTool) => Promise<void>;
  /** The context window and when to compact (compaction.ts); default: window unknown, so only a refusal for length compacts. */
  compaction?: CompactionOptions;
}

export interface LoopResult extends RunOutcome {
  turns: number;
  toolCalls: number;
  usage: TokenUsage;
}

/** Thrown from onRetry (through the retry layer) or before a request after a compaction, to end the turn at a budget instead of asking. */
class BudgetPassedInRetry extends Error {
  constructor(readonly outcome: LoopResult) {
    super('a budget was passed by an unusable answer');
  }
}

/**
 * Providers whose missing token counts the run was told of: once a run, sub-agents included (their
 * nested loops share the provider).
 */
const usageNoted = new WeakSet<ModelProvider>();

export async function runLoop(opts: LoopOptions): Promise<LoopResult> {
  const { provider, emit, signal, limits } = opts;
  const hooks = opts.hooks ?? {};
  const budget = opts.budget ?? newBudget();
  let offered: ToolRegistry = opts.registry;
  let declarations: FunctionDeclaration[] = offered.declarations();
  let declaredVersion = offered.version;
  const request: Content['parts'] = [...(opts.context ? [{ text: opts.context }] : []), { text: opts.prompt }];
  const contents: Content[] = startingContents(opts, request);
  const guard = new LoopGuard();
  const staleReads = new StaleReads(undefined, provider.cachePrices);
  const callIds = new CallIds(contents);
  let turns = 0;
  let toolCalls = 0;
  let usage: TokenUsage = { ...ZERO_USAGE };
  /** The endpoint sent no usage: said once per run, not per turn. */
  const compactor = new Compactor(opts.compaction ?? { window: null, compactAt: DEFAULT_COMPACT_AT }, {
    provider,
    emit,
    signal,
    staleReads,
    systemInstruction: opts.systemInstruction,
    onUsage: (spent) => {
      usage = addUsage(usage, spent);
      budget.tokens += spent.total;
      budget.costUsd += spent.cost_usd ?? 0;
    },
    onSpent: (spent, reason) => {
      spentOn(spent, reason);
      // A refused answer billed past a budget: no summary side request and no retry after it.
      const passed = budgetPassed();
      if (passed) throw new BudgetPassedInRetry(passed);
    },
  });
  // A continued conversation: this run's request stays in view when older turns are compacted.
  if (opts.history?.length) compactor.continuing(contents.length - 1, request);

  const result = (outcome: RunOutcome): LoopResult => ({ ...outcome, turns, toolCalls, usage });
  /** An answer the server billed that the run could not use (ProviderError.spent): the run paid for it. */
  const spentOn = (spent: TokenUsage, reason: string): void => {
    usage = addUsage(usage, spent);
    budget.tokens += spent.total;
    budget.costUsd += spent.cost_usd ?? 0;
    emit({ type: 'side_request', turn: turns, purpose: 'unusable_answer', reason, usage: spent });
  };
  /** Why the model's last answer was sent back, until it answers again: named if a limit ends the run first. */
  let rejected: string | null = null;
  const limit = (name: LimitName, value: number, exitCode: number): LoopResult => {
    emit({ type: 'limit', limit: name, value });
    // max_turns counts sub-agents' requests too: the report's `turns` (this loop's) alone would not add up to it.
    const bySubAgents = name === 'max_turns' && !limits.ownMaxTurns ? budget.turns - turns : 0;
    const shared = bySubAgents > 0 ? `: ${turns} model request${turns === 1 ? '' : 's'} of the agent, ${bySubAgents} of its sub-agents` : '';
    const what = name === 'sub_agent_max_turns' ? `the sub-agent's own turn limit (${value})` : `${name} (${value}${shared})`;
    // The model's last answer was sent back (a success check failed, with a retry left): the limit
    // stopped that retry, and "limit reached" alone would hide that the work had failed its check.
    const rejectedBefore = rejected === null ? '' : `, before the model answered again after its last answer was rejected (${rejected})`;
    return result({ status: 'limit', exitCode, finalAnswer: null, error: `limit reached: ${what}${rejectedBefore}` });
  };

  const budgetPassed = (): LoopResult | null => {
    if (limits.maxTokens !== null && budget.tokens > limits.maxTokens) return limit('max_tokens', limits.maxTokens, ExitCode.budget);
    if (limits.maxCostUsd != null && budget.costUsd > limits.maxCostUsd) return limit('max_cost_usd', limits.maxCostUsd, ExitCode.budget);
    return null;
  };

  // fail_on_denial is max_denials 0 with its own message.
  const maxDenials = limits.failOnDenial ? 0 : (limits.maxDenials ?? null);
  const denialsExhausted = () => maxDenials !== null && budget.denials > maxDenials;
  const deniedOut = (): RunOutcome => {
    if (limits.failOnDenial) {
      return { status: 'denied', exitCode: ExitCode.denied, finalAnswer: null, error: 'the policy denied a tool call, and fail_on_denial is set' };
    }
    emit({ type: 'limit', limit: 'max_denials', value: maxDenials! });
    return {
      status: 'denied',
      exitCode: ExitCode.denied,
      finalAnswer: null,
      error: `limit reached: max_denials (${maxDenials}): the policy denied ${plural(budget.denials, 'tool call')}`,
    };
  };

  for (;;) {
    if (signal.aborted) return result(stopOutcome(signal.reason));
    if (budget.turns >= limits.maxTurns) return limit('max_turns', limits.maxTurns, ExitCode.turnLimit);
    if (limits.ownMaxTurns != null && turns >= limits.ownMaxTurns) return limit('sub_agent_max_turns', limits.ownMaxTurns, ExitCode.turnLimit);
    turns++;
    budget.turns++;
    staleReads.prune(contents, turns);
    // An MCP server that said its tools changed is listed again first: the model is offered
    // what the server offers now (tools/registry.ts).
    for (const change of await opts.registry.refresh(signal)) emit({ type: 'tools_changed', turn: turns, ...change });
    const next = hooks.tools?.() ?? opts.registry;
    if (next !== offered || next.version !== declaredVersion) [offered, declarations, declaredVersion] = [next, next.declarations(), next.version];

    let reply: ModelTurn;
    const started = monotonicMs();
    try {
      let requested = false;
      reply = await compactor.send(contents, declarations, turns, () => {
        // A compaction's summary side request may have spent the budget: no request is billed past it.
        const passed = budgetPassed();
        if (passed) throw new BudgetPassedInRetry(passed);
        // Once per turn: a retry after compaction is a retry event of the same request.
        if (!requested) emit({ type: 'model_request', turn: turns, messages: contents.length });
        requested = true;
        return provider.generate(
          { systemInstruction: opts.systemInstruction, contents, tools: declarations, stablePrefix: staleReads.stableUntil(contents.length) },
          {
            signal,
            onText: (text) => emit({ type: 'text_delta', turn: turns, text }),
            onRetry: (info) => {
              if (info.usage) spentOn(info.usage, info.reason);
              // An unusable answer that passed a budget is the last request: asking again would be
              // billed past max_tokens / max_cost_usd, and its answer thrown away at the limit.
              const passed = info.usage ? budgetPassed() : null;
              if (passed) throw new BudgetPassedInRetry(passed);
              emit({ type: 'retry', turn: turns, attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason });
            },
          },
        );
      });
    } catch (error) {
      if (error instanceof BudgetPassedInRetry) return error.outcome;
      if (error instanceof ProviderError && error.spent) spentOn(error.spent, error.message);
      if (signal.aborted) return result(stopOutcome(signal.reason));
      return result(modelFailure(error));
    }
    callIds.claim(reply, turns);
    if (reply.usageNote && !usageNoted.has(provider)) {
      usageNoted.add(provider);
      emit({ type: 'warning', message: reply.usageNote });
    }
    if (reply.notice) emit({ type: 'warning', message: reply.notice });
    usage = addUsage(usage, reply.usage);
    budget.tokens += reply.usage.total;
    budget.costUsd += reply.usage.cost_usd ?? 0;
    emit({
      type: 'model_response',
      turn: turns,
      text: reply.text,
      function_calls: reply.functionCalls,
      usage: reply.usage,
      finish_reason: reply.finish.reason,
      finish_raw: reply.finish.raw,
      duration_ms: Math.round(monotonicMs() - started),
      ...(reply.providerFields ? { provider_fields: reply.providerFields } : {}),
      ...(reply.model ? { response_model: reply.model } : {}),
    });
    contents.push({ role: 'model', parts: reply.parts });
    const passed = budgetPassed();
    if (passed) return passed;

    if (reply.functionCalls.length === 0) {
      const answer = reply.text.trim();
      if (!answer) return result({ status: 'failed', exitCode: ExitCode.failed, finalAnswer: null, error: 'the model gave an empty answer' });
      const withheld = unusableAnswer(reply.finish, reply.notOurCap);
      if (withheld) return result({ status: 'failed', exitCode: ExitCode.failed, finalAnswer: null, error: withheld });
      if (reply.finish.reason === 'other') {
        // Not known to be whole, nor known to be cut off: taken, and said so in the report.
        emit({ type: 'warning', message: `the final answer ended with a finish reason the runner does not know (${reply.finish.raw ?? 'none'}); it was taken as complete` });
      }
      const verdict = hooks.checkAnswer?.(answer) ?? { verdict: 'accept' };
      if (verdict.verdict === 'retry') {
        emit({ type: 'answer_rejected', turn: turns, attempt: verdict.attempt, reason: verdict.reason, feedback: verdict.feedback });
        rejected = verdict.reason;
        contents.push({ role: 'user', parts: [{ text: verdict.feedback }] });
        continue;
      }
      if (verdict.verdict === 'fail') return result({ status: 'failed', exitCode: ExitCode.failed, finalAnswer: null, error: verdict.error });
      const checked = (await hooks.verifyAnswer?.(answer, turns)) ?? { verdict: 'accept' };
      if (checked.verdict === 'retry') {
        emit({ type: 'answer_rejected', turn: turns, attempt: checked.attempt, reason: checked.reason, feedback: checked.feedback });
        rejected = checked.reason;
        contents.push({ role: 'user', parts: [{ text: checked.feedback }] });
        continue;
      }
      if (checked.verdict === 'fail') return result(checked.outcome);
      const status = budget.denials > 0 ? 'denied' : 'success';
      return result({ status, exitCode: ExitCode.success, finalAnswer: answer, error: null });
    }

    const repeated = guard.observe(reply.functionCalls);
    const turnsBefore = budget.turns;
    const answered = await runTurnCalls(reply.functionCalls, {
      registry: offered,
      judge: opts.judge,
      signal,
      emit,
      turn: turns,
      cap: opts.cap,
      readConcurrency: opts.readConcurrency ?? 4,
      beforeChange: opts.beforeChange,
      cutOff: reply.finish.reason === 'max_tokens' ? { notOurCap: reply.notOurCap } : null,
      toolTimeoutMs: limits.toolTimeoutMs ?? null,
      onDenial: () => {
        budget.denials++;
        return denialsExhausted();
      },
      // A sub-agent that met fail_on_denial, max_denials, max_turns, max_tokens or max_cost_usd ended
      // the run: no later call of this turn runs (another task would make a request past the limit).
      // The turns are the sub-agents' only when they spent some: this turn's own request may be the
      // run's last, and its calls still run.
      runOver: () => {
        if (denialsExhausted()) return 'the policy denied too many calls of this run';
        if (budget.turns > turnsBefore && budget.turns >= limits.maxTurns) return `the run's max_turns (${limits.maxTurns}) is spent`;
        if (limits.maxTokens !== null && budget.tokens > limits.maxTokens) return `the run's max_tokens (${limits.maxTokens}) is spent`;
        if (limits.maxCostUsd != null && budget.costUsd > limits.maxCostUsd) return `the run's max_cost_usd (${limits.maxCostUsd}) is spent`;
        return null;
      },
      takeCall: () => {
        if (limits.maxToolCalls !== null && budget.toolCalls >= limits.maxToolCalls) {
          budget.toolCallLimitMet = true;
          return false;
        }
        budget.toolCalls++;
        toolCalls++;
        return true;
      },
    });
    contents.push({ role: 'user', parts: answered.parts });
    // In the order the calls ran: a read made after an edit in this turn is not stale.
    const entry = contents.length - 1;
    for (const effect of answered.effects) {
      if (effect.kind === 'read') staleReads.recordRead(entry, effect.part, effect.file, turns);
      else if (effect.kind === 'matches') staleReads.recordMatches(contents, entry, effect.part, effect.files);
      else {
        staleReads.recordChange(effect.file, turns);
        compactor.recordChange(effect.file);
      }
    }

    if (signal.aborted) return result(stopOutcome(signal.reason));
    if (answered.fatal) return result({ status: 'failed', exitCode: ExitCode.fatalTool, finalAnswer: null, error: `fatal tool error: ${answered.fatal}` });
    // Met inside a sub-agent (a task call) too: the run's budget is spent, as its turns or tokens would be.
    if (answered.budgetSpent || budget.toolCallLimitMet) return limit('max_tool_calls', limits.maxToolCalls ?? 0, ExitCode.budget);
    if (answered.usage) {
      usage = addUsage(usage, answered.usage);
      budget.tokens += answered.usage.total;
      budget.costUsd += answered.usage.cost_usd ?? 0;
    }
    // Tokens a tool spent (web_search), or a sub-agent spent, count like a turn's.
    const spent = budgetPassed();
    if (spent) return spent;
    if (denialsExhausted()) return result(deniedOut());
    const ending = hooks.afterCalls?.(turns) ?? null;
    if (ending !== null) return result({ status: budget.denials > 0 ? 'denied' : 'success', exitCode: ExitCode.success, finalAnswer: ending, error: null });
    // A call the policy keeps refusing is a denial loop: max_denials ends it, with the rules it hit.
    if (repeated && !(answered.denials > 0 && maxDenials !== null)) {
      return result({
        status: 'loop',
        exitCode: ExitCode.failed,
        finalAnswer: null,
        error: `the model repeated the same ${repeated} call 5 times in a row`,
      });
    }
  }
}

/** The history (a continued run), then one user message: the context files, then the prompt. */
function startingContents(opts: LoopOptions, parts: Content['parts']): Content[] {
  const contents = (opts.history ?? []).map((c) => ({ role: c.role, parts: [...c.parts] }));
  const last = contents.at(-1);
  // A history that ends with the user's turn (function responses of a stopped run) takes the prompt in it.
  if (last?.role === 'user') last.parts.push(...parts);
  else contents.push({ role: 'user', parts });
  return contents;
}

/**
 * Why a final answer cannot be taken as the run's result, from how the model stopped: cut off by
 * the output-token limit, withheld by a safety or recitation filter, or refused. Null when it can.
 */
function unusableAnswer(finish: ModelTurn['finish'], notOurCap: string | undefined): string | null {
  const raw = finish.raw ? ` (finish reason ${finish.raw})` : '';
  switch (finish.reason) {
    case 'max_tokens':
      if (notOurCap) return `the final answer was cut off${raw}: it is incomplete; ${notOurCap}`;
      return `the final answer was cut off by the model's output-token limit${raw}: it is incomplete; raise provider_options.max_output_tokens`;
    case 'safety':
      return `the final answer was blocked by the provider's safety filter${raw}`;
    case 'recitation':
      return `the final answer was blocked for reciting training data${raw}`;
    case 'refusal':
      return `the model refused to answer${raw}`;
    default:
      return null;
  }
}

function modelFailure(error: unknown): RunOutcome {
  if (error instanceof ProviderError) {
    return { status: error.runStatus, exitCode: error.exitCode, finalAnswer: null, error: `model call failed: ${error.message}`, errorKind: error.kind };
  }
  // Not the model's: a run's own file the call writes (--record) could not be written.
  if (error instanceof UserFacingError) return { status: error.runStatus, exitCode: error.exitCode, finalAnswer: null, error: error.message, errorKind: error.kind };
  return { status: 'failed', exitCode: ExitCode.failed, finalAnswer: null, error: `model call failed: ${(error as Error).message ?? String(error)}` };
}
