// How a target's `unattended run` is started. The batch decides what the run is (recipe, workspace,
// outputs, the limits it passes down); a launcher decides where it runs. The batch's own launcher
// is a child process of this CLI: a target's crash, signal or memory stays with the child, and the
// batch reads what it left behind (report.json). An embedding program (or a test) may give another
// launcher, e.g. one that calls the runner in its own process.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { MAX_TIMER_MS } from '../recipe/duration.js';

/** The child's own grace after its timeout (runner/signals.ts STOP_GRACE_MS) and then some. */
const CHILD_GRACE_MS = 15_000;

/** One target's run: `unattended run RECIPE --workspace W --out O …` as fields. */
export interface TargetRun {
  recipe: string;
  params: readonly string[];
  workspace: string;
  /** The run's output directory (report.json, transcript.jsonl). */
  outDir: string;
  /** Wall time the run may use, passed down as --timeout. */
  timeoutMs: number | null;
  /** Tokens the run may use, passed down as --max-tokens. */
  maxTokens: number | null;
  /** Dollars the run may spend, passed down as --max-cost-usd. */
  maxCostUsd: number | null;
  /** The run's whole environment (the batch's, less what stays with the batch). */
  env: Record<string, string>;
  /** The batch stopping: the run is asked to stop (SIGTERM for a child) and still writes its report. */
  signal: AbortSignal;
  /** The run's stream-json output, as it is printed. */
  stdout: (chunk: Buffer | string) => void;
  /** Where the run's stderr goes; its tail is quoted when the run leaves no report. */
  stderrFile: string;
}

/** How the run ended: an exit code, or the signal that killed it. */
export interface RunExit {
  exitCode: number | null;
  signal: string | null;
}

export type RunLauncher = (run: TargetRun) => Promise<RunExit>;

/** The command line of a target's run, after the CLI entry. */
export function targetRunArgs(run: TargetRun): string[] {
  const args = ['run', run.recipe, '--workspace', run.workspace, '--out', run.outDir, '--output-format', 'stream-json', '--no-stdin'];
  for (const p of run.params) args.push('--param', p);
  if (run.timeoutMs !== null) args.push('--timeout', `${Math.max(1, Math.floor(run.timeoutMs))}ms`);
  if (run.maxTokens !== null) args.push('--max-tokens', String(Math.max(1, Math.floor(run.maxTokens))));
  if (run.maxCostUsd !== null) args.push('--max-cost-usd', String(run.maxCostUsd));
  return args;
}

/**
 * Each run in a child process of `cliEntry` (the script this process started from) run with this Node. While it lives,
 * its pid is in runner.pid: a batch killed with SIGKILL leaves it for --resume to stop.
 */
export function childProcessLauncher(cliEntry: string): RunLauncher {
  return async (run) => {
    const child = execa(process.execPath, [cliEntry, ...targetRunArgs(run)], {
      env: run.env,
      extendEnv: false,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: { file: run.stderrFile },
      buffer: false,
      reject: false,
      cancelSignal: run.signal,
      forceKillAfterDelay: CHILD_GRACE_MS,
      // Within what a timer can count (a longer one fires after 1 ms): the run's own deadline, the
      // first to fire, is at most MAX_TIMER_MS already.
      ...(run.timeoutMs !== null ? { timeout: Math.min(run.timeoutMs + CHILD_GRACE_MS, MAX_TIMER_MS) } : {}),
    });
    const pidFile = path.join(run.outDir, 'runner.pid');
    if (child.pid !== undefined) fs.writeFileSync(pidFile, `${child.pid}\n`);
    child.stdout?.on('data', run.stdout);
    const result = await child;
    fs.rmSync(pidFile, { force: true });
    return { exitCode: result.exitCode ?? null, signal: result.signal ?? null };
  };
}
