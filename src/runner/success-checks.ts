// The recipe's success checks, run when the model gives its final answer: `require_changes` (the
// run changed at least one file, counted as the report counts them), then each command in order
// until one fails, then `require_changes` again if the commands changed files (a `git checkout`,
// a build that regenerates what the model edited, can undo the work they were to check). A failure goes back to the model as a new message, with the command and the end
// of its output, `retries` times; after that the run ends `check_failed` (exit 56). The commands
// are the recipe author's: the policy does not judge them, but they get the tools' environment,
// their own process group and a time limit, and the run's AbortSignal stops them.
import type { VerifyVerdict } from '../loop/loop-hooks.js';
import { RunStop, stopOutcome } from '../loop/stop.js';
import type { SuccessChecks as ChecksConfig } from '../recipe/types.js';
import type { EventSink, RunEvent } from '../types/events.js';
import { ExitCode } from '../types/outcome.js';
import { batchOutputDirs, changesBetween, inGitWorkTree, snapshotExcludes, snapshotTree } from '../git/snapshot.js';
import { runCheckProcess } from './check-process.js';
import type { CommandWrapper } from '../sandbox/wrapper.js';
import { monotonicMs } from '../util/clock.js';

export interface SuccessCheckContext {
  config: ChecksConfig;
  workspace: string;
  /** The tools' shell environment (tools/tool-env.ts). */
  env: Record<string, string>;
  /** Check commands run in the run's sandbox, as the tools' processes do. */
  sandbox?: CommandWrapper;
  signal: AbortSignal;
  emit: EventSink;
  /** The files the run has changed so far, as the report will count them. */
  changedFiles: () => Promise<string[]>;
  /** Null when every change the run made can be counted; else which cannot (a shell command's outside git, say). */
  unseenChanges: () => string | null;
  /** Before the commands run: what they change is then counted like a shell call's (untracked-changes.ts). */
  beforeCommands?: () => Promise<void>;
  /**
   * The workspace's content as an id and the files that differ between two ids (git trees), to
   * tell the author when check commands themselves change files; null when git cannot tell.
   */
  workspaceState: { snapshot(): Promise<string | null>; changed(from: string, to: string): Promise<string[]> } | null;
  /**
   * A check failed with no retry left: the run's outcome is check_failed whatever comes next. The
   * run's timeout met from here on (while git records what the commands changed) stops only that.
   */
  onFinalFailure?: () => void;
}

type CheckEvent = Extract<RunEvent, { type: 'check' }>;

/** The workspace as git trees (in a temporary index: nothing of the user's changes); null outside git. */
export function gitWorkspaceState(root: string, outDir: string, env: NodeJS.ProcessEnv): SuccessCheckContext['workspaceState'] {
  if (!inGitWorkTree(root)) return null;
  const exclude = snapshotExcludes(root, outDir, batchOutputDirs(env));
  return {
    snapshot: () => snapshotTree(root, exclude, env),
    changed: async (from, to) => (await changesBetween(root, from, to, env))?.map((c) => c.path) ?? [],
  };
}

export function hasChecks(config: ChecksConfig): boolean {
  return config.requireChanges || config.commands.length > 0;
}

/** The loop's verifyAnswer hook for these checks. */
export function successChecks(ctx: SuccessCheckContext): () => Promise<VerifyVerdict> {
  let attempt = 0;
  return async () => {
    attempt++;
    // Decided before the run was stopped: a timeout met after it keeps the check's failure.
    let decided = false;
    const failure = await runChecks(ctx, attempt, () => {
      decided = !ctx.signal.aborted;
      if (decided) ctx.onFinalFailure?.();
    });
    if (ctx.signal.aborted && !(decided && timedOut(ctx.signal))) return { verdict: 'fail', outcome: stopOutcome(ctx.signal.reason) };
    if (!failure) return { verdict: 'accept' };
    if (attempt <= ctx.config.retries) {
      return { verdict: 'retry', feedback: feedback(failure, attempt, ctx.config.retries), reason: `success check failed: ${describe(failure)}`, attempt };
    }
    const after = attempt > 1 ? ` (after ${attempt - 1} retr${attempt === 2 ? 'y' : 'ies'})` : '';
    return {
      verdict: 'fail',
      // No final answer for a failed run: a later step must not post "all tests pass" from it.
      outcome: { status: 'check_failed', exitCode: ExitCode.checkFailed, finalAnswer: null, error: `success check failed${after}: ${describe(failure)}` },
    };
  };
}

/** Runs the checks of one attempt, emitting an event for each; the first that fails, or null. */
async function runChecks(ctx: SuccessCheckContext, attempt: number, onFinalFailure: () => void): Promise<CheckEvent | null> {
  const record = (event: Omit<CheckEvent, 'type' | 'attempt'>): CheckEvent => {
    const full: CheckEvent = { type: 'check', attempt, ...event };
    ctx.emit(full);
    return full;
  };
  if (ctx.config.requireChanges) {
    const event = await requireChanges(ctx, record, null);
    if (!event.passed) return event;
  }
  if (ctx.config.commands.length === 0) return null;
  await ctx.beforeCommands?.();
  const before = await ctx.workspaceState?.snapshot();
  const failed = await runCommands(ctx, record);
  if (failed && attempt > ctx.config.retries) onFinalFailure();
  const changedByCommands = before ? await warnOfSideEffects(ctx, before) : [];
  if (failed || !ctx.config.requireChanges || ctx.signal.aborted) return failed;
  const undone = 'the success check commands changed back what the run had changed';
  if (changedByCommands.length > 0) {
    const again = await requireChanges(ctx, record, `${undone} (${listed(changedByCommands)})`);
    return again.passed ? null : again;
  }
  // Outside a git work tree, or in a file git ignores, git's trees cannot show what the commands
  // changed: the run's changes are counted again, and none left fails as above.
  if ((await ctx.changedFiles()).length > 0) return null;
  const again = await requireChanges(ctx, record, undone);
  return again.passed ? null : again;
}

function timedOut(signal: AbortSignal): boolean {
  return signal.reason instanceof RunStop && signal.reason.kind === 'timeout';
}

/** `require_changes`: the files changed now; `undone`: the reason when none are left after the commands ran. */
async function requireChanges(ctx: SuccessCheckContext, record: (event: Omit<CheckEvent, 'type' | 'attempt'>) => CheckEvent, undone: string | null): Promise<CheckEvent> {
  const started = monotonicMs();
  const files = await ctx.changedFiles();
  const unseen = ctx.unseenChanges();
  const none = undone ?? (unseen ? `no file changed that the runner can see (${unseen})` : 'no file changed');
  return record({
    kind: 'require_changes',
    check: 'require_changes',
    passed: files.length > 0,
    exit_code: null,
    reason: files.length > 0 ? null : none,
    duration_ms: Math.round(monotonicMs() - started),
    output_tail: files.length > 0 ? `${files.length} file${files.length === 1 ? '' : 's'} changed: ${files.slice(0, 20).join(', ')}${files.length > 20 ? ', …' : ''}` : '',
  });
}

async function runCommands(ctx: SuccessCheckContext, record: (event: Omit<CheckEvent, 'type' | 'attempt'>) => CheckEvent): Promise<CheckEvent | null> {
  for (const command of ctx.config.commands) {
    if (ctx.signal.aborted) return null;
    const run = await runCheckProcess(command, { cwd: ctx.workspace, env: ctx.env, timeoutMs: ctx.config.timeoutMs, signal: ctx.signal, ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}) });
    const passed = run.exitCode === 0 && run.stoppedBy === null;
    const event = record({
      kind: 'command',
      check: command,
      passed,
      exit_code: run.exitCode,
      reason: passed ? null : failureReason(run, ctx.config.timeoutMs, ctx.signal.reason),
      duration_ms: run.durationMs,
      output_tail: run.startError ?? run.outputTail,
    });
    if (!passed) return event;
  }
  return null;
}

/** Files a check command writes (a coverage report, a build) count as the run's changes: say so. Returns them. */
async function warnOfSideEffects(ctx: SuccessCheckContext, before: string): Promise<string[]> {
  if (ctx.signal.aborted) return [];
  const after = await ctx.workspaceState!.snapshot();
  if (!after || after === before) return [];
  const files = await ctx.workspaceState!.changed(before, after);
  if (files.length === 0) return [];
  ctx.emit({
    type: 'warning',
    message: `the success checks changed files in the workspace (${listed(files)}): they count as the run's changes, in the report and in a git hand-off; have git ignore them`,
  });
  return files;
}

function listed(files: readonly string[]): string {
  return `${files.slice(0, 10).join(', ')}${files.length > 10 ? `, and ${files.length - 10} more` : ''}`;
}

function failureReason(run: Awaited<ReturnType<typeof runCheckProcess>>, timeoutMs: number, stop: unknown): string {
  if (run.startError) return `could not start: ${run.startError}`;
  if (run.stoppedBy === 'timeout') return `timed out after ${formatMs(timeoutMs)}; its process group was killed`;
  // The run's wall-clock limit is no cancellation: the row says what the run's status says (limit).
  if (run.stoppedBy === 'aborted') return stop instanceof RunStop && stop.kind === 'timeout' ? `stopped: ${stop.message}` : 'stopped: the run was cancelled';
  return run.exitCode === null ? `killed by ${run.killedBy ?? 'a signal'}` : `exit ${run.exitCode}`;
}

function describe(check: CheckEvent): string {
  if (check.kind !== 'require_changes') return `\`${check.check}\` ${check.reason}`;
  return `the run changed no file (checks.require_changes)${check.reason?.startsWith('the success check commands') ? `: ${check.reason}` : ''}`;
}

/** What the model is told: which check failed, the end of its output, and what to do. */
function feedback(check: CheckEvent, attempt: number, retries: number): string {
  const left = retries - attempt + 1;
  const chances = `You have ${left} more attempt${left === 1 ? '' : 's'}.`;
  if (check.kind === 'require_changes') {
    const why = check.reason?.startsWith('the success check commands') ? `no file differs from before the run any more: ${check.reason}` : 'no file has changed';
    return `Your final answer was not accepted: this task must change files in the workspace, and ${why}. Make the changes with your tools, then give your final answer again. ${chances}`;
  }
  const tail = check.output_tail.trim() ? `\n\nThe end of its output:\n\`\`\`\n${check.output_tail.trimEnd()}\n\`\`\`` : '\n\nIt printed nothing.';
  return `Your final answer was not accepted: the success check \`${check.check}\` failed (${check.reason}).${tail}\n\nFix the cause with your tools, then give your final answer again; the checks run again after it. ${chances}`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
