// One run from start to finish: outputs first (so that every exit leaves a transcript and a
// report), then the recipe, the session, the loop, and the report, whatever happened.
import { InputError } from '../types/errors.js';
import path from 'node:path';
import type { RunEvent } from '../types/events.js';
import { DEFAULT_OUTPUT_THRESHOLD } from '../loop/output-cap.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { runLoop } from '../loop/run-loop.js';
import { baselineForHandoff, gitHandoffStep } from '../git/handoff-step.js';
import { RunStop, stopOutcome } from '../loop/stop.js';
import type { Recipe } from '../recipe/types.js';
import { Redactor } from '../report/redact.js';
import type { Report } from '../report/report.js';
import { newRunId } from './run-id.js';
import { RunOutputs, type OutputFormat, type OutputStreams } from './run-outputs.js';
import { openSession, type Session } from './session.js';
import { guardSignals } from './signals.js';
import { systemInstruction } from './system-prompt.js';
import { UntrackedChanges } from './untracked-changes.js';

export interface RunRequest {
  /** Loads and validates the recipe; its errors become the run's outcome (exit 52 or 42). */
  loadRecipe: () => Recipe;
  /** Piped standard input, appended to the prompt as context. */
  stdinContext: string | null;
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

export async function executeRun(req: RunRequest): Promise<RunResult> {
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const outDir = path.resolve(req.outDir ?? path.join('.unattended', 'runs', runId));
  const redactor = Redactor.fromEnv(req.env);
  const controller = new AbortController();
  const outputs = new RunOutputs(
    outDir,
    { runId, recipeName: 'unnamed', recipeFile: null, provider: 'none', model: 'none', workspace: '', transcript: path.join(outDir, 'transcript.jsonl'), startedAt },
    redactor,
    req.format,
    req.streams,
    (error) => controller.abort(error),
  );
  const emit = outputs.emit;
  let ended: Report | null = null;
  // Once only: a forced exit (second signal) may come while the normal path is ending the run.
  const end = (outcome: RunOutcome): Report => {
    if (ended) return ended;
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
    ended = outputs.finish(outcome);
    return ended;
  };
  const signals = guardSignals(controller, (kind) => end(stopOutcome(new RunStop(kind))));

  let session: Session | null = null;
  let outcome: RunOutcome;
  try {
    const recipe = req.loadRecipe();
    outputs.identify({ recipeName: recipe.name, recipeFile: recipe.file, provider: recipe.provider, model: recipe.model });
    const prompt = composePrompt(recipe.prompt, req.stdinContext);
    const timeoutMs = recipe.limits.timeoutMs;
    if (timeoutMs !== null) {
      setTimeout(() => {
        if (controller.signal.aborted) return;
        // Recorded when it happens, like every other limit, so the report can name it.
        emit({ type: 'limit', limit: 'timeout', value: timeoutMs });
        controller.abort(new RunStop('timeout'));
      }, timeoutMs).unref();
    }
    // Warnings while the session opens (an MCP server that did not start) follow run_start.
    const setupWarnings: string[] = [];
    session = await openSession({
      recipe,
      outDir,
      env: req.env,
      signal: controller.signal,
      record: req.record,
      onWarning: (message) => setupWarnings.push(message),
    });
    outputs.identify({ workspace: session.workspace.root });
    emit(runStartEvent(recipe, session, prompt));
    for (const message of setupWarnings) emit({ type: 'warning', message });
    const untracked = UntrackedChanges.start(session.workspace.root, session.registry, outDir, req.env);
    const handoffBaseline = await baselineForHandoff(recipe.git, session.workspace.root, outDir, req.env);
    const features = session.features;
    outputs.setTodoSource(() => features.todos());
    const loopParts = {
      provider: session.provider,
      registry: session.registry,
      judge: session.judge,
      systemInstruction: systemInstruction(session.workspace.root, recipe.instructions),
      limits: recipe.limits,
      emit,
      cap: { threshold: DEFAULT_OUTPUT_THRESHOLD, dir: path.join(outDir, 'tool-outputs'), redact: (text: string) => redactor.redact(text) },
    };
    // Plan mode, structured output, sub-agents and memory add hooks, instructions and a budget.
    outcome = await runLoop({ ...loopParts, ...features.forLoop(loopParts), prompt, signal: controller.signal, beforeChange: untracked?.beforeChange });
    outputs.setStructuredOutput(features.structuredOutput());
    if (untracked) outputs.addChangedFiles(await untracked.collect());
    const handoff = await gitHandoffStep({
      config: recipe.git,
      outcome,
      workspace: session.workspace.root,
      outDir,
      baseline: handoffBaseline,
      signal: controller.signal,
      env: req.env,
    });
    outcome = handoff.outcome;
    outputs.setGitHandoff(handoff.report);
  } catch (error) {
    outcome = controller.signal.aborted && controller.signal.reason instanceof RunStop ? stopOutcome(controller.signal.reason) : req.classifySetupError(error);
  }
  await session?.close();
  outcome = stoppedWhileShuttingDown(controller.signal, outcome);
  if (outputs.transcriptFailure) {
    outcome = { status: 'error', exitCode: ExitCode.fatalTool, finalAnswer: outcome.finalAnswer, error: outputs.transcriptFailure.message, errorKind: 'io' };
  }
  const report = end(outcome);
  signals.dispose();
  return { exitCode: outcome.exitCode, report, outDir };
}

/** A signal after the loop ended (during the hand-off or while MCP servers close) still stops the run. */
function stoppedWhileShuttingDown(signal: AbortSignal, outcome: RunOutcome): RunOutcome {
  const stop: unknown = signal.reason;
  if (!(stop instanceof RunStop) || stop.kind === 'timeout' || outcome.status === 'cancelled') return outcome;
  return { ...stopOutcome(stop), finalAnswer: outcome.finalAnswer, error: `${stop.message} while shutting down (the run had ended with status ${outcome.status})` };
}

function composePrompt(recipePrompt: string | null, stdinContext: string | null): string {
  const stdin = stdinContext?.trim() ? stdinContext : null;
  if (recipePrompt && stdin) return `${recipePrompt}\n\nContext from standard input:\n${stdin}`;
  const prompt = recipePrompt ?? stdin;
  if (!prompt?.trim()) throw new NoPromptError();
  return prompt;
}

export class NoPromptError extends InputError {
  constructor() {
    super('no prompt: give one in the recipe (prompt:), with --prompt, or on standard input');
  }
}

function runStartEvent(recipe: Recipe, session: Session, prompt: string): RunEvent {
  return {
    type: 'run_start',
    recipe: recipe.file,
    recipe_name: recipe.name,
    provider: recipe.provider,
    model: recipe.model,
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
    },
  };
}
