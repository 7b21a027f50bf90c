// One run from start to finish: outputs first (so that every exit leaves a transcript and a
// report), then the recipe, the session, the loop, and the report, whatever happened.
import { cutSnapshotsShort, resetSnapshotDeadline } from '../git/snapshot-deadline.js';
import { InputError } from '../types/errors.js';
import path from 'node:path';
import { canonicalPath, isInside } from '../util/paths.js';
import { durationText } from '../util/duration-text.js';
import type { EventSink, RunEvent } from '../types/events.js';
import { DEFAULT_OUTPUT_THRESHOLD } from '../loop/output-cap.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { runLoop } from '../loop/run-loop.js';
import { baselineForHandoff, costFact, gitHandoffStep } from '../git/handoff-step.js';
import { RunStop, stopOutcome, type StopKind } from '../loop/stop.js';
import type { Recipe } from '../recipe/types.js';
import { Redactor } from '../report/redact.js';
import type { Report } from '../report/report.js';
import { NOTHING_GIT_SAW, type GitSeen } from '../types/changes.js';
import { newRunId } from './run-id.js';
import { RunOutputs, type OutputFormat, type OutputStreams } from './run-outputs.js';
import { openSession, type Session } from './session.js';
import { invocationInputs } from './invocation-inputs.js';
import { guardSignals, STOP_GRACE_MS } from './signals.js';
import { startRunTelemetry, type TelemetryHook } from './telemetry-hook.js';
import { systemInstruction } from './system-prompt.js';
import { toolOutputSaver } from './tool-outputs.js';
import { UntrackedChanges } from './untracked-changes.js';
import { UnansweredCalls } from './unanswered-calls.js';
import { shellEnvironment, toolEnvironment } from '../tools/tool-env.js';
import { ChangeLedger } from './change-ledger.js';
import { requireInput } from './required-input.js';
import { learnedWindowKey, readEarlierRun, type EarlierRun } from './continuation.js';
import { earlierRunWarnings, handoffWarnings, peerModelWarnings } from './start-warnings.js';
import { continuedRecipe } from './continued-safety.js';
import { runStartEvent, setupFailureStart, type RunIdentity } from './run-start-event.js';
import { registerRun } from './run-register.js';
import { contextReadRefusal, loadContextFiles, type LoadedContext } from './context-files.js';
import { continuing, recipeFromInvocation, type Invocation } from './invocation.js';
import { DEFAULT_RUNS_DIR } from './runner-paths.js';
import { refuseLinkedRunsDir, refuseRunsDirInGitDir, removeEmptyDefaultDirs } from './out-dir.js';
import { CwdInGitDirError } from '../recipe/git-dir-workspace.js';
import { settleOutcome } from './settle-outcome.js';
import { carriedAsFound, carryEarlierChanges, ownChanges, type CarriedChange } from './earlier-changes.js';
import { gitWorkspaceState, hasChecks, successChecks } from './success-checks.js';
import { failedBeforeTimeout, stoppedWhileShuttingDown } from './shutdown-stop.js';

export interface RunRequest {
  /** Loads and validates the recipe; its errors become the run's outcome (exit 52 or 42). Unused with `invocation`. */
  loadRecipe?: () => Recipe;
  /** How the command line asked for the run: the recipe is built from it, and it is recorded for `--continue`. */
  invocation?: Invocation;
  /** `run --continue`: the earlier run's directory or transcript; its conversation comes first. */
  continueFrom?: string | null;
  /** Piped standard input, appended to the prompt as context. */
  stdinContext: string | null;
  /** `--no-stdin`: standard input was not read (an `input: required` recipe is told so). */
  stdinIgnored?: boolean;
  outDir: string | null;
  format: OutputFormat;
  record: string | null;
  env: NodeJS.ProcessEnv;
  streams: OutputStreams;
  /** Maps an error thrown before the loop starts to an outcome (recipe, input, auth errors). */
  classifySetupError: (error: unknown) => RunOutcome;
}

export interface RunResult {
  exitCode: number;
  report: Report;
  outDir: string;
}

/** What require_changes cannot count when shell, MCP or discovered tools ran. */
const UNSEEN_OUTSIDE_GIT = 'not a git work tree, or git could not snapshot it: only the file tools\u2019 changes count';
const UNSEEN_BY_GIT = 'a command\u2019s change to a file git ignores, or inside a git repository nested in the workspace, is not counted';

export async function executeRun(req: RunRequest): Promise<RunResult> {
  resetSnapshotDeadline();
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  if (req.outDir === null) refuseLinkedRunsDir(process.cwd(), DEFAULT_RUNS_DIR);
  const outDir = path.resolve(req.outDir ?? path.join(DEFAULT_RUNS_DIR, runId));
  if (req.outDir === null) refuseRunsDirInGitDir(outDir);
  const redactor = Redactor.fromEnv(req.env);
  const controller = new AbortController();
  // Stopped (a signal, or the run's --timeout met): the runner's own git recording the workspace
  // gets half a signal's grace, so the run ends near its stop on its normal path, answer kept. The
  // timeout used to wait for the snapshot's own minute (git/snapshot-deadline.ts). Module state, not
  // an AsyncLocalStorage: one run per process in the CLI, and on Node 20 an async context slows every
  // promise of the run two- to threefold.
  controller.signal.addEventListener('abort', () => {
    if (controller.signal.reason instanceof RunStop) cutSnapshotsShort(STOP_GRACE_MS / 2);
  });
  // The run's environment says where the job summary is, not this process's (a batch keeps it for itself).
  const streams = { ...req.streams, stepSummary: req.env.GITHUB_STEP_SUMMARY || undefined };
  const outputs = new RunOutputs(outDir, runId, redactor, req.format, streams, (error) => controller.abort(error));
  // The ledger reads the events for the success checks and the settled status (what the run changed).
  const ledger = new ChangeLedger();
  // What shell, MCP and discovered tools changed, through git; made once the session is open.
  let untracked: UntrackedChanges | null = null;
  // OpenTelemetry, when the OTEL_* environment or the recipe asks for it (null otherwise: nothing of it loads).
  const telemetryWarnings: string[] = [];
  const startTelemetry = (settings: Recipe['telemetry']) => startRunTelemetry(req.env, settings, (text) => redactor.redact(text), (message) => telemetryWarnings.push(message), startedAt);
  let telemetry: TelemetryHook | null = null;
  let ended: Report | null = null;
  const unanswered = new UnansweredCalls();
  // Every transcript (and stream-json's system/init) begins with run_start: what happens while the
  // session still opens (the run's timeout met, a host the sandbox refused, a telemetry warning
  // of a run that never started) waits for it. The timeout's limit event came first.
  const beforeStart: RunEvent[] = [];
  const emitBeforeStart = () => {
    for (const event of beforeStart.splice(0)) emit(event);
  };
  const emit: EventSink = (event) => {
    // The record closes with run_end: what happens after it is no part of it, for any consumer.
    if (ended) return;
    if (!outputs.started && event.type !== 'run_start') {
      beforeStart.push(event);
      return;
    }
    unanswered.observe(event);
    ledger.observe(event);
    untracked?.observe(event);
    outputs.emit(event);
    telemetry?.sink(event);
    if (event.type === 'run_start') emitBeforeStart();
  };
  // What is known of the run before its run_start: a run that fails earlier still records one.
  const identity: RunIdentity = { run_id: runId, started_at: startedAt.toISOString(), transcript: outputs.transcript.file, recipe: null, recipe_name: 'unnamed', provider: 'none', model: 'none', workspace: '' };
  let unreportedChanges: GitSeen = NOTHING_GIT_SAW;
  let changesCollected = false;
  let timeoutTimer: NodeJS.Timeout | undefined;
  // Once only: a forced exit (second signal) may come while the normal path is ending the run.
  const end = (outcome: RunOutcome): Report => {
    if (ended) return ended;
    // A run that ends before its wall-clock limit must not meet it later (the process may live on:
    // the last telemetry export, or other runs in the same process).
    clearTimeout(timeoutTimer);
    if (!outputs.started) outputs.recordQuietly(setupFailureStart(identity));
    emitBeforeStart();
    // Ended (a forced exit, a failure) before git's view of the shell calls' changes came in: an
    // empty or short files_changed must not read as all the run changed.
    const notCollected = changesCollected ? null : (untracked?.notCollected() ?? null);
    if (notCollected) emit({ type: 'warning', message: notCollected });
    const failedBefore = outputs.transcriptFailure;
    emit(outputs.changedFiles(unreportedChanges));
    // files_changed did not fit (the disk filled up at the very end): run_end, if it fits, must not
    // call a run whose record is cut short a success.
    if (!failedBefore && outputs.transcriptFailure) outcome = transcriptFailed(outcome, outputs.transcriptFailure);
    const progress = outputs.progress();
    emit({
      type: 'run_end',
      status: outcome.status,
      exit_code: outcome.exitCode,
      final_answer: outcome.finalAnswer,
      error: outcome.error,
      error_kind: outcome.errorKind ?? null,
      turns: progress.turns,
      tool_calls: progress.toolCalls,
      usage: progress.usage,
      duration_ms: Date.now() - startedAt.getTime(),
    });
    return (ended = outputs.finish());
  };
  // A forced exit: the calls still running are killed with their process groups, unanswered.
  const lastWords = (outcome: RunOutcome): Report => {
    if (!ended) for (const result of unanswered.results()) emit(result);
    return end(outcome);
  };
  // The run's outcome once its loop has ended: a second signal during the shutdown ends it as the
  // first alone would (stoppedWhileShuttingDown), with the model's answer, not as a run cut short.
  let decided: RunOutcome | null = null;
  let dropDefaultDir = false;
  const forcedOutcome = (kind: StopKind): RunOutcome =>
    decided ? stoppedWhileShuttingDown(AbortSignal.abort(new RunStop(kind)), decided) : stopOutcome(new RunStop(kind));
  const signals = guardSignals(
    controller,
    (kind) => (lastWords(forcedOutcome(kind)), !outputs.recordUnfinished),
    (error) => {
      const report = lastWords(req.classifySetupError(error));
      return outputs.recordUnfinished ? ExitCode.fatalTool : report.exit_code;
    },
  );
  // A tool moved the run's directory away (renamed a parent inside the workspace, made another at
  // its path): its record is not where it was asked to be, and whatever is there now is not the
  // run's. Not a success, whatever the model did: exit 54, the run's own files, with no answer to
  // pass on (the run's record was tampered with).
  let displacedNoted: string | null = null;
  const unlessDisplaced = (current: RunOutcome): RunOutcome => {
    const displaced = outputs.runDir.displaced();
    if (displaced === null) return current;
    if (displaced !== displacedNoted) emit({ type: 'warning', message: (displacedNoted = displaced) });
    return { status: 'error', exitCode: ExitCode.fatalTool, finalAnswer: null, error: displaced, errorKind: 'io' };
  };

  let session: Session | null = null;
  let outcome: RunOutcome;
  /** The loop's own limit, once it ended at one: a timeout met after it stops only the shutdown (stoppedWhileShuttingDown). */
  let loopLimit: string | null = null;
  let loopEnded = false;
  // Warnings while the session opens (an MCP server that did not start) follow run_start; later
  // ones (an MCP server that died mid-run) are events as they come. A session that never opened
  // still reports them (a workspace copy a signal stopped part-way).
  const setupWarnings: string[] = [];
  try {
    const cwd = req.invocation?.cwd ?? process.cwd();
    const earlier = req.continueFrom ? readEarlierRun(req.continueFrom, cwd) : null;
    const invocation = req.invocation ? continuedInvocation(req.invocation, earlier) : null;
    // A continued run is held to the policy the earlier run had (continued-safety.ts).
    // A recipe that fails to load is still named in its report (its file, the name it defaults to),
    // not 'unnamed': among many runs, which recipe was broken is the first thing to know.
    if (invocation?.recipe) Object.assign(identity, { recipe: invocation.recipe, recipe_name: path.basename(invocation.recipe, path.extname(invocation.recipe)) });
    const held = earlier && invocation ? await continuedRecipe(invocation, earlier, (text) => redactor.redact(text)) : null;
    const recipe = held ? held.recipe : invocation ? await recipeFromInvocation(invocation) : req.loadRecipe!();
    Object.assign(identity, { recipe: recipe.file, recipe_name: recipe.name, provider: recipe.provider, model: recipe.model, workspace: recipe.workspace });
    refuseOutDirHoldingWorkspace(outDir, recipe.workspace);
    // Started once the recipe is known (its telemetry block, log_content); the run span still begins at the run's start.
    telemetry = await startTelemetry(recipe.telemetry);
    if (telemetry?.trace) identity.trace = telemetry.trace;
    // A follow-up is input enough: the piped input the recipe needs was the earlier run's.
    if (!earlier) requireInput(recipe, req.stdinContext, req.stdinIgnored === true);
    // A continued run's task is the follow-up alone: the recipe's prompt was the earlier run's.
    const prompt = earlier ? followUpPrompt(invocation?.overrides.prompt ?? null, req.stdinContext) : composePrompt(recipe.prompt, req.stdinContext);
    const timeoutMs = recipe.limits.timeoutMs;
    if (timeoutMs !== null) {
      timeoutTimer = setTimeout(() => {
        if (controller.signal.aborted) return;
        // Recorded when it happens, like every other limit, so the report can name it; but a run
        // another limit ended keeps that one (its status, exit code, error and `limit`), and one met
        // after the loop is judged once the shutdown is over (failedBeforeTimeout).
        if (loopLimit !== null) emit({ type: 'warning', message: `the run's timeout (${durationText(timeoutMs)}) came while it shut down, after ${loopLimit} had ended it` });
        else if (!loopEnded) emit({ type: 'limit', limit: 'timeout', value: timeoutMs });
        controller.abort(new RunStop('timeout', timeoutMs));
      }, timeoutMs).unref();
    }
    let runStarted = false;
    session = await openSession({
      recipe,
      outDir,
      writeDir: outputs.runDir.at('.'),
      env: req.env,
      signal: controller.signal,
      record: req.record,
      recordInputs: [
        { file: path.join(outDir, 'transcript.jsonl'), what: "the run's own transcript" },
        { file: path.join(outDir, 'report.json'), what: "the run's own report" },
        { file: path.join(outDir, 'report.md'), what: "the run's own report" },
        ...(earlier ? [{ file: earlier.transcript, what: "the earlier run's transcript" }] : []),
        ...invocationInputs(invocation),
      ],
      onWarning: (message) => (runStarted ? emit({ type: 'warning', message }) : setupWarnings.push(message)),
      onNetworkDenied: (host, port, reason) => emit({ type: 'network_denied', host, port, reason }),
      redact: (text) => redactor.redact(text),
      maxCostFromFlag: invocation?.overrides.maxCostUsd !== undefined,
    });
    // The conversation a continued run goes on with has its context files already.
    const context: LoadedContext = earlier ? { files: [], text: null, warnings: [] } : await loadContextFiles(recipe.context, session.workspace, cwd, contextReadRefusal(session.judge));
    emit(runStartEvent(identity, recipe, session, prompt, { context, earlier, invocation }));
    // What a later bare `--continue` from here goes on from.
    registerRun(cwd, outDir, req.env);
    // A recipe converted from goose's format: what the conversion ignored or changed, in the transcript and the report.
    const conversionWarnings = recipe.conversion?.warnings ?? [];
    const startWarnings = [...(held?.warnings ?? []), ...conversionWarnings, ...telemetryWarnings, ...setupWarnings, ...handoffWarnings(recipe, session.workspace.root, req.env), ...peerModelWarnings(recipe, invocation?.overrides.model !== undefined, req.env), ...session.features.startWarnings(), ...context.warnings];
    for (const message of startWarnings) emit({ type: 'warning', message });
    runStarted = true;
    for (const message of earlierRunWarnings(earlier)) emit({ type: 'warning', message });
    // The list the run goes on with (runState, below), in its report however the run ends.
    if (earlier && earlier.todos.length > 0) emit({ type: 'todos', todos: earlier.todos.map((t) => ({ ...t })) });
    untracked = UntrackedChanges.start(session.workspace.root, session.registry, recipe.checks.commands.length > 0, outDir, req.env);
    const root = session.workspace.root;
    // A continued run goes on with the chain's work: what the earlier runs changed counts as this run's too.
    const carried = carryEarlierChanges(root, earlier?.workspace ?? '', earlier?.changes ?? []);
    for (const change of carried.changes) {
      ledger.seed(change.path, change.original);
      outputs.seedChange(change.path, change.original);
    }
    untracked?.seed(carried.changes.map((change) => change.path));
    const carriedFound = carriedAsFound(root, carried.changes);
    if (carried.notCarried.length > 0) emit({ type: 'warning', message: `files the earlier run changed that this run does not count as changed (files_changed, checks, hand-off): ${carried.notCarried.join(', ')}` });
    const { baseline: handoffBaseline, carriedPaths } = await handoffBaselineOf(recipe, root, outDir, req.env, carried.changes);
    if (recipe.git && handoffBaseline?.refused) emit({ type: 'warning', message: `${recipe.git.section ?? 'git'}: the hand-off will fail (exit 58) after the run: ${handoffBaseline.refused}` });
    else if (recipe.git?.push && handoffBaseline?.tree && handoffBaseline.origin === null) emit({ type: 'warning', message: `${recipe.git.section ?? 'git'}: push is asked, and the repository has no remote named 'origin': the push will fail (exit 58) after the run, the commit kept on its branch` });
    const notHandedOff = recipe.git ? carried.changes.filter((change) => !carriedPaths.has(change.path)).map((change) => change.path) : [];
    if (notHandedOff.length > 0) emit({ type: 'warning', message: `the git hand-off does not commit what the earlier run changed in ${notHandedOff.join(', ')}: HEAD does not have it as the earlier run found it (committed since, or changed before that run began)` });
    const features = session.features;
    // The todo list goes on from where the earlier run left it (the model's own calls made it).
    if (earlier) features.runState.todos = earlier.todos.map((t) => ({ ...t }));
    // So does plan mode: a plan handed in is not asked for again.
    features.goOnAfterPlan(earlier?.plan ?? null);
    // Plan mode, structured output, sub-agents and memory add hooks, instructions and a budget.
    const loop = features.forLoop({
      provider: session.provider,
      registry: session.registry,
      judge: session.judge,
      systemInstruction: systemInstruction(root, recipe.instructions),
      prompt,
      context: context.text,
      history: earlier?.history ?? [],
      limits: { ...recipe.limits, failOnDenial: recipe.failOnDenial },
      signal: controller.signal,
      emit,
      cap: { threshold: DEFAULT_OUTPUT_THRESHOLD, save: toolOutputSaver(outputs.runDir, (text) => redactor.redact(text)) },
      beforeChange: untracked?.beforeChange,
      compaction: {
        window: session.contextWindow,
        compactAt: recipe.limits.compactAt,
        maxOutputTokens: recipe.providerOptions.maxOutputTokens,
        learnedWindow: earlier?.learnedWindows[learnedWindowKey(recipe.provider, recipe.model)] ?? null,
        // Kept in a compacted history: what shell and MCP calls changed too, and what the earlier runs did.
        // (Each once: the ledger counts the earlier runs' changes it carries too.)
        changedFiles: async () => [...new Set([...(earlier?.filesChanged ?? []), ...ledger.changedFiles(root, await gitChanges())])],
      },
    });
    let unknownSaid = false;
    let markedSaid: string | null = null;
    let rewrittenSaid: string | null = null;
    const gitChanges = async () => {
      const changes = untracked ? await untracked.collect() : NOTHING_GIT_SAW;
      const unknown = untracked?.unknown() ?? null;
      // Said once: an empty list then does not mean nothing changed.
      if (unknown && !unknownSaid) emit({ type: 'warning', message: unknown });
      unknownSaid ||= unknown !== null;
      const marked = untracked?.newlyMarked() ?? null;
      if (marked && marked !== markedSaid) emit({ type: 'warning', message: marked });
      markedSaid = marked ?? markedSaid;
      const rewritten = untracked?.objectsRewritten() ?? null;
      if (rewritten && rewritten !== rewrittenSaid) emit({ type: 'warning', message: rewritten });
      rewrittenSaid = rewritten ?? rewrittenSaid;
      return changes;
    };
    const seesShellChanges = () => untracked?.seesChanges() ?? false;
    const verifyAnswer = hasChecks(recipe.checks)
      ? successChecks({
          config: recipe.checks,
          workspace: root,
          env: shellEnvironment(toolEnvironment(req.env, recipe.env.pass), root),
          sandbox: session.sandbox,
          signal: controller.signal,
          emit,
          changedFiles: async () => ledger.changedFiles(root, await gitChanges()),
          unseenChanges: () => (ledger.editTally().otherChanges === 0 ? null : seesShellChanges() ? UNSEEN_BY_GIT : UNSEEN_OUTSIDE_GIT),
          ...(untracked ? { beforeCommands: untracked.beforeCommands } : {}),
          workspaceState: gitWorkspaceState(root, outDir, req.env),
          // The run's outcome is decided: a timeout from here on is judged as one after the loop.
          onFinalFailure: () => (loopEnded = true),
        })
      : undefined;
    outcome = await runLoop({ ...loop, hooks: { ...loop.hooks, verifyAnswer } });
    loopEnded = true;
    decided = outcome;
    if (outcome.status === 'limit') loopLimit = outcome.error?.replace(/^limit reached: /, '') ?? 'a limit';
    if (features.structuredOutput() !== null) emit({ type: 'structured_output', value: features.structuredOutput() });
    unreportedChanges = await gitChanges();
    changesCollected = true;
    const changedFiles = ledger.changedFiles(root, unreportedChanges);
    // Judged by what this run changed: the chain's earlier changes it left as they were are not its work.
    outcome = settleOutcome(outcome, { ledger, changedFiles: ownChanges(root, changedFiles, carriedFound), seesEveryChange: seesShellChanges(), continued: carriedFound.size > 0 });
    // Before the hand-off, which commits only a successful run's work.
    outcome = unlessDisplaced(outcome);
    decided = outcome;
    const handoffStarted = Date.now();
    const handoff = await gitHandoffStep({
      config: recipe.git,
      outcome,
      workspace: session.workspace.root,
      outDir,
      baseline: handoffBaseline,
      // An earlier run's change the baseline could not take back (committed since) is not this hand-off's.
      reported: changedFiles.filter((file) => carriedPaths.has(file) || !carried.changes.some((change) => change.path === file)),
      signal: controller.signal,
      env: req.env,
      facts: () => {
        const progress = outputs.progress();
        const cost = progress.usage.cost_usd;
        return {
          // Sent to GitHub: redacted like the transcript.
          summary: redactor.redact(outcome.finalAnswer ?? ''),
          cost_usd: costFact(cost),
          turns: String(progress.turns),
          tool_calls: String(progress.toolCalls),
          files_changed: String(changedFiles.length),
          run_id: runId,
          recipe: recipe.name,
          model: recipe.model,
        };
      },
    });
    outcome = handoff.outcome;
    decided = outcome;
    // Its duration: a trace shows the hand-off's span over the push and the pull request, not as an instant after them.
    if (handoff.report) emit({ type: 'git_handoff', git: handoff.report, duration_ms: Date.now() - handoffStarted });
    // The run's work (its loop, checks and hand-off) is over: closing MCP servers and the last
    // export have bounds of their own, and a limit met while they run would report a run that
    // ended before it as stopped by it.
    clearTimeout(timeoutTimer);
  } catch (error) {
    // Refused as a workspace, the current directory (a bare repository) is no place for the run's record either.
    if (error instanceof OutDirHoldsWorkspaceError || (dropDefaultDir = req.outDir === null && error instanceof CwdInGitDirError)) outputs.discard();
    if (!session) for (const message of setupWarnings.splice(0)) emit({ type: 'warning', message });
    outcome = controller.signal.aborted && controller.signal.reason instanceof RunStop ? stopOutcome(controller.signal.reason) : req.classifySetupError(error);
  }
  decided = outcome;
  await session?.close();
  // With every tool process gone: what would point the next person's git elsewhere is put back.
  for (const message of session?.layout?.restore() ?? []) emit({ type: 'warning', message });
  // A run whose recipe did not load is still exported when the environment asks for it.
  if (!telemetry && !outputs.started) {
    telemetry = await startTelemetry(null);
    if (telemetry?.trace) identity.trace = telemetry.trace;
  }
  const keptAtTimeout = loopEnded && loopLimit === null && failedBeforeTimeout(controller.signal, outcome, emit);
  if (!keptAtTimeout) outcome = stoppedWhileShuttingDown(controller.signal, outcome);
  if (outputs.transcriptFailure) outcome = transcriptFailed(outcome, outputs.transcriptFailure);
  outcome = unlessDisplaced(outcome);
  // What was exported so far is flushed while a failure can still be a warning in the transcript.
  const flushMs = telemetry?.flushDeadlineMs(controller.signal.reason instanceof RunStop && controller.signal.reason.kind !== 'timeout') ?? 0;
  if (telemetry && !ended) await telemetry.flush(emit, flushMs);
  const report = end(outcome);
  if (dropDefaultDir) removeEmptyDefaultDirs(outDir, DEFAULT_RUNS_DIR);
  // No report where one should be: exit 54 (the run's own files), whatever the run did.
  const exitCode = outputs.recordUnfinished ? ExitCode.fatalTool : outcome.exitCode;
  signals.settle(exitCode);
  // After the report: a signal now exits at once with the run's code, leaving what is not yet exported.
  await telemetry?.shutdown(req.streams.stderr, flushMs);
  // The stopped run's deadline ends with it: a caller in this process (a test, an embedding
  // program) that snapshots next, outside any run, would otherwise have its snapshot fail at once.
  resetSnapshotDeadline();
  return { exitCode, report, outDir };
}

/** The hand-off's baseline, holding the earlier runs' changes a continued run carries as the chain found them (carried-baseline.ts). */
async function handoffBaselineOf(recipe: Recipe, root: string, outDir: string, env: NodeJS.ProcessEnv, carried: readonly CarriedChange[]) {
  const baseline = await baselineForHandoff(recipe.git, root, outDir, env);
  if (!baseline || carried.length === 0) return { baseline, carriedPaths: new Set<string>() };
  const { carryIntoBaseline } = await import('../git/carried-baseline.js');
  const taken = await carryIntoBaseline(baseline, root, carried, env);
  return { baseline: taken.baseline, carriedPaths: new Set(taken.carried) };
}

/** The transcript could not be written: the run's own files failed (exit 54), whatever the run did. */
function transcriptFailed(outcome: RunOutcome, failure: Error): RunOutcome {
  return { status: 'error', exitCode: ExitCode.fatalTool, finalAnswer: outcome.finalAnswer, error: failure.message, errorKind: 'io' };
}

function composePrompt(recipePrompt: string | null, stdinContext: string | null): string {
  const stdin = stdinContext?.trim() ? stdinContext : null;
  if (recipePrompt && stdin) return `${recipePrompt}\n\nContext from standard input:\n${stdin}`;
  const prompt = recipePrompt ?? stdin;
  if (!prompt?.trim()) throw new NoPromptError();
  return prompt;
}

function followUpPrompt(prompt: string | null, stdinContext: string | null): string {
  try {
    return composePrompt(prompt, stdinContext);
  } catch {
    throw new InputError('--continue needs a follow-up prompt', 'give it with -p "…" (or as the first argument), or on standard input');
  }
}

/** Without a recipe of its own, a continued run is built like the run it continues, with the new flags on top. */
function continuedInvocation(inv: Invocation, earlier: EarlierRun | null): Invocation {
  if (!earlier || inv.recipe) return inv;
  if (earlier.invocationProblem) {
    throw new InputError(`run ${earlier.run_id}'s record of how it was started is malformed: ${earlier.invocationProblem}`, 'the transcript was changed after the run; name the recipe and flags again along with --continue, or start a new run');
  }
  if (!earlier.invocation) {
    throw new InputError(
      `run ${earlier.run_id} does not record how it was started (an older unattended wrote it)`,
      'name its recipe and flags again along with --continue',
    );
  }
  return continuing(inv, earlier.invocation);
}

export class NoPromptError extends InputError {
  constructor() {
    super('no prompt: give one in the recipe (prompt:), with --prompt, or on standard input');
  }
}

/**
 * The output directory may lie inside the workspace (the default does), never be it or hold it:
 * the run's own transcript would count as a change it made, and every file of the workspace would
 * be one of the run's own, which no tool may touch.
 */
function refuseOutDirHoldingWorkspace(outDir: string, workspace: string): void {
  if (isInside(canonicalPath(outDir), canonicalPath(workspace))) throw new OutDirHoldsWorkspaceError(outDir, workspace);
}

/** Refused once the recipe named the workspace, after the directory was opened: the run leaves nothing in it. */
class OutDirHoldsWorkspaceError extends InputError {
  constructor(outDir: string, workspace: string) {
    super(`--out ${outDir} is the workspace ${workspace}, or holds it`, 'give the run a directory of its own (the default is .unattended/runs/<run-id> under the current directory)');
  }
}
