// One model turn's function calls, steps 3 to 9 of the seed's flow for each. Read-only calls run in
// parallel (bounded); a call that can change something runs alone, once everything before it is
// done. Each call is judged by the policy after every earlier call that can change something has
// finished (reads may still be running: they change nothing the policy looks at), so no decision
// is made on a workspace an earlier call is still changing. Exactly one function response per call,
// in call order.
import { deadline } from '../util/deadline.js';
import type PQueue from 'p-queue';
import { addUsage, ZERO_USAGE, type FunctionCall, type Part, type TokenUsage } from '../types/content.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AnyTool, ToolErrorType, ToolResult } from '../tools/tools.js';
import type { EventSink } from '../types/events.js';
import { capOutput, partsText, type OutputCapOptions } from './output-cap.js';
import { prepareCall, type CutOff, type PolicyJudge, type PreparedCall } from './prepare.js';
import { monotonicMs } from '../util/clock.js';
import { UserFacingError } from '../types/errors.js';
import { RunStop } from './stop.js';

export interface CallContext {
  registry: ToolRegistry;
  judge: PolicyJudge;
  signal: AbortSignal;
  emit: EventSink;
  turn: number;
  cap: OutputCapOptions;
  readConcurrency: number;
  /** Records a policy denial; true when the run may not go on (max_denials passed): no further call runs. */
  onDenial?: () => boolean;
  /**
   * Why the run may take no further call though this turn's own calls did not say so: a sub-agent
   * an earlier call ran spent the shared budget (its denials, tokens or dollars). Null while it may.
   */
  runOver?: () => string | null;
  /** Takes one tool call from the budget; false when the budget is spent. */
  takeCall: () => boolean;
  /** Awaited before a call that can change something runs (the runner's baseline snapshot). */
  beforeChange?: (tool: AnyTool) => Promise<void>;
  /** The model's answer stopped at a limit, and which (prepareCall says so of a call cut off); null: it did not. */
  cutOff?: CutOff | null;
  /** limits.tool_timeout: how long any one call may run; null or absent: no bound but the run's. */
  toolTimeoutMs?: number | null;
}

export interface TurnCallsResult {
  /** The user content answering the model: function responses in call order. */
  parts: Part[];
  /** Set when a tool reported a fatal error: the run must end (exit 54). */
  fatal: string | null;
  budgetSpent: boolean;
  denials: number;
  /**
   * What the calls did that the history keeps track of, in call order, which is the order they
   * happened in as far as files go: a call that changes something runs after every call before
   * it and before every call after it, so a read after an edit in the same turn saw the edit.
   */
  effects: HistoryEffect[];
  /** Model tokens the calls spent on the run's account (side_request events); null when none did. */
  usage: TokenUsage | null;
}

export type HistoryEffect =
  /** A function response (index into `parts`) that carries a file's content. */
  | { kind: 'read'; part: number; file: string }
  /** A function response whose first lines are lines of these files, in order. */
  | { kind: 'matches'; part: number; files: string[] }
  /** A workspace file a call changed (relative path). */
  | { kind: 'change'; file: string };

interface Answer {
  call: FunctionCall & { id: string };
  result: ToolResult;
}

export async function runTurnCalls(calls: FunctionCall[], ctx: CallContext): Promise<TurnCallsResult> {
  const withIds = calls.map((c, i) => ({ ...c, id: c.id ?? `call_${ctx.turn}_${i}` }));
  const answers: Answer[] = new Array(withIds.length);
  // Made when a turn has read-only calls to run side by side; most turns make one call, which runs inline.
  let reads: PQueue | null = null;
  let fatal: string | null = null;
  let budgetSpent = false;
  let denials = 0;
  let deniedOut = false;
  const denied = () => {
    denials++;
    if (ctx.onDenial?.()) deniedOut = true;
  };

  for (const [i, call] of withIds.entries()) {
    const over = deniedOut ? 'the policy denied too many calls of this run' : (ctx.runOver?.() ?? null);
    if (over !== null) {
      answers[i] = notRun(call, ctx, over);
      continue;
    }
    if (ctx.signal.aborted || fatal || budgetSpent || !ctx.takeCall()) {
      if (!ctx.signal.aborted && !fatal) budgetSpent = true;
      answers[i] = notRun(call, ctx, reasonNotRun(ctx.signal, fatal));
      continue;
    }
    const prepared = await prepareCall(call, ctx.registry, ctx.judge, ctx.signal, ctx.cutOff);
    ctx.emit({
      type: 'tool_call',
      turn: ctx.turn,
      call_id: call.id,
      name: call.name,
      args: call.args,
      ...(call.unparsedArguments !== undefined ? { unparsed_arguments: call.unparsedArguments } : {}),
      description: prepared.description,
      decision: prepared.decision,
      effect: prepared.effect,
    });
    // The call's record comes first: when it could not be written (the run was stopped by the
    // failure, or by a signal meanwhile), the call must not run unrecorded.
    if (ctx.signal.aborted) {
      answers[i] = notRun(call, ctx, reasonNotRun(ctx.signal, fatal));
      continue;
    }
    if (!prepared.ok) {
      if (prepared.errorType === 'policy_denied') denied();
      answers[i] = finish(call, errorToolResult(prepared.errorType, prepared.message), 0, ctx);
      continue;
    }
    if (prepared.readOnly && withIds.length === 1) {
      answers[i] = await execute(call, prepared, ctx);
      continue;
    }
    if (prepared.readOnly) {
      // Loaded by the first turn with calls to run side by side: most runs have none.
      reads ??= new (await import('p-queue')).default({ concurrency: ctx.readConcurrency });
      void reads.add(async () => {
        answers[i] = await execute(call, prepared, ctx);
      });
      continue;
    }
    await reads?.onIdle();
    await ctx.beforeChange?.(prepared.tool);
    answers[i] = await execute(call, prepared, ctx);
    if (answers[i]!.result.error?.type === 'fatal') fatal = answers[i]!.result.error!.message;
    // Refused while running though the policy allowed it (a redirect to a host no rule allows).
    if (answers[i]!.result.error?.type === 'policy_denied') denied();
  }
  await reads?.onIdle();
  for (const a of answers) if (!fatal && a.result.error?.type === 'fatal') fatal = a.result.error.message;

  const parts: Part[] = [];
  const effects: HistoryEffect[] = [];
  let usage: TokenUsage | null = null;
  for (const answer of answers) {
    const { result } = answer;
    if (result.usage) usage = addUsage(usage ?? ZERO_USAGE, result.usage);
    if (result.contentOf && !result.error) effects.push({ kind: 'read', part: parts.length, file: result.contentOf });
    if (result.linesOf && !result.error) effects.push({ kind: 'matches', part: parts.length, files: result.linesOf });
    if (typeof result.returnDisplay !== 'string') effects.push({ kind: 'change', file: result.returnDisplay.fileName });
    for (const file of result.changedFiles ?? []) effects.push({ kind: 'change', file });
    parts.push(...toResponseParts(answer));
  }
  return { parts, fatal, budgetSpent, denials, effects, usage };
}

async function execute(call: Answer['call'], prepared: Extract<PreparedCall, { ok: true }>, ctx: CallContext): Promise<Answer> {
  const started = monotonicMs();
  // tool_timeout bounds every call here, whatever the tool (web_fetch, web_search, a sub-agent):
  // the call's signal fires at the limit, as the run's own does when it is stopped.
  const limit = ctx.toolTimeoutMs ?? null;
  const callDeadline = limit !== null ? deadline(ctx.signal, prepared.tool.timesItself ? limit + BACKSTOP_MS : limit, () => new CallTimeout(call.name, call.id, limit)) : null;
  const signal = callDeadline?.signal ?? ctx.signal;
  let result: ToolResult;
  try {
    result = await prepared.tool.execute(prepared.params, signal);
  } catch (error) {
    // A tool that throws has a bug; the model still gets exactly one answer for its call. But the
    // run's own files failing (a sub-agent's transcript line or saved output on a full disk) is
    // fatal to the whole run (exit 54), not a failed call the run goes on from.
    const ownFiles = error instanceof UserFacingError && error.kind === 'io';
    result = errorToolResult(ownFiles ? 'fatal' : signal.aborted ? 'aborted' : 'execution_failed', `${call.name} failed: ${(error as Error).message}`);
  } finally {
    callDeadline?.dispose();
  }
  // A tool that still answered with content (web_fetch's body so far) keeps its answer.
  if (callDeadline?.expired() && !ctx.signal.aborted && result.error && result.error.type !== 'timeout') result = timedOut(call.name, limit!, result);
  // Stopped by a timeout not its own (the run's, or that of the task whose sub-agent made it): the
  // tool saw only a cancelled signal ("command cancelled"), as if someone had stopped the run. A
  // sub-agent's own result says why it did not finish.
  else if (result.error?.type === 'aborted' && call.name !== 'task' && timeoutStop(signal.reason) !== null) result = stoppedBy(call.name, timeoutStop(signal.reason)!, result);
  return finish(call, result, monotonicMs() - started, ctx);
}

/** The reason of a call's signal at limits.tool_timeout: which call ran past it, for the calls it ran (a sub-agent's). */
class CallTimeout extends DOMException {
  constructor(
    readonly tool: string,
    readonly callId: string,
    readonly limitMs: number,
  ) {
    super(`${tool} ran past limits.tool_timeout`, 'TimeoutError');
  }
}

/** What timeout a signal's reason says stopped the work, in words; null when no timeout did (a signal, Ctrl-C). */
function timeoutStop(reason: unknown): string | null {
  if (reason instanceof RunStop) return reason.kind === 'timeout' ? reason.message : null;
  if (reason instanceof CallTimeout) return `the ${reason.tool} call that ran it (${reason.callId}) timed out after ${limitText(reason.limitMs)} (limits.tool_timeout)`;
  return null;
}

/** The answer of a call stopped by a timeout not its own: said as such, what it wrote so far kept. */
function stoppedBy(name: string, why: string, stopped: ToolResult): ToolResult {
  return relabelled(`${name} was stopped: ${why}`, stopped);
}

/** How long after tool_timeout a tool that times itself is stopped, should it not have stopped. */
const BACKSTOP_MS = 5_000;

/**
 * The answer of a call stopped at limits.tool_timeout. The tool saw only a cancelled signal, so its
 * own first line says "cancelled"; what follows it (a command's output so far) is kept.
 */
function timedOut(name: string, limitMs: number, stopped: ToolResult): ToolResult {
  return relabelled(`${name} timed out after ${limitText(limitMs)} (limits.tool_timeout) and was stopped`, stopped);
}

function limitText(limitMs: number): string {
  return limitMs % 1000 === 0 ? `${limitMs / 1000} s` : `${limitMs} ms`;
}

/** A timeout's answer: `message` in place of the tool's own first line ("cancelled"), the rest (output so far) kept. */
function relabelled(message: string, stopped: ToolResult): ToolResult {
  const text = typeof stopped.llmContent === 'string' ? stopped.llmContent : partsText(stopped.llmContent);
  const newline = text.indexOf('\n');
  const sofar = stopped.error && newline >= 0 ? text.slice(newline + 1) : '';
  const content = sofar ? `Error: ${message}\n${sofar}` : `Error: ${message}`;
  // What else the tool said of its output stays: the whole of a binary output (saved under
  // tool-outputs/), a cut at its source, tokens it spent, files it changed.
  const { changedFiles, fullOutput, cutAtSource, truncated, usage } = stopped;
  return { llmContent: content, returnDisplay: content, error: { type: 'timeout', message }, ...definedOnly({ changedFiles, fullOutput, cutAtSource, truncated, usage }) };
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function finish(call: Answer['call'], result: ToolResult, durationMs: number, ctx: CallContext): Answer {
  if (result.usage) ctx.emit({ type: 'side_request', turn: ctx.turn, call_id: call.id, purpose: call.name, usage: result.usage });
  const capped = capOutput(result.llmContent, call.id, ctx.cap, result.cutAtSource === true, result.fullOutput);
  // The transcript's display is cut like what the model got: the whole text is in tool-outputs/.
  const display = capped.savedPath && typeof result.returnDisplay === 'string' && result.returnDisplay.length > ctx.cap.threshold ? textOf(capped.content) : result.returnDisplay;
  const sent: ToolResult = capped.savedPath ? { ...result, llmContent: capped.content, returnDisplay: display } : result;
  ctx.emit({
    type: 'tool_result',
    turn: ctx.turn,
    call_id: call.id,
    name: call.name,
    llm_content: sent.llmContent,
    return_display: sent.returnDisplay,
    duration_ms: Math.round(durationMs),
    error_type: sent.error?.type ?? null,
    saved_output: capped.savedPath,
    // Cut at a cap, by the tool or by the loop: the model got part of the output, and was told so.
    truncated: result.truncated === true || result.cutAtSource === true || capped.cut,
  });
  return { call, result: sent };
}

function notRun(call: Answer['call'], ctx: CallContext, why: string): Answer {
  return finish(call, errorToolResult('aborted', `not run: ${why}`), 0, ctx);
}

function reasonNotRun(signal: AbortSignal, fatal: string | null): string {
  // A timeout says which (a sub-agent's task that ran past limits.tool_timeout is no stopped run).
  if (signal.aborted) return timeoutStop(signal.reason) ?? 'the run was stopped';
  if (fatal) return 'an earlier call failed fatally';
  return 'the tool-call limit of this run is reached';
}

function errorToolResult(type: ToolErrorType, message: string): ToolResult {
  return { llmContent: message, returnDisplay: message, error: { type, message } };
}

function toResponseParts({ call, result }: Answer): Part[] {
  const base = { id: call.id, name: call.name };
  if (result.error) return [{ functionResponse: { ...base, response: { error: textOf(result.llmContent) } } }];
  if (typeof result.llmContent === 'string') {
    return [{ functionResponse: { ...base, response: { output: result.llmContent } } }];
  }
  const media = result.llmContent.filter((p) => p.inlineData);
  const text = textOf(result.llmContent) || (media.length ? `Returned ${media.length} media part(s), attached below.` : '');
  return [{ functionResponse: { ...base, response: { output: text } } }, ...media];
}

function textOf(content: string | Part[]): string {
  return typeof content === 'string' ? content : partsText(content);
}
