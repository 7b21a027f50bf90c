// One target of a batch: its workspace (the directory itself, or a shallow clone), then its run,
// started by the batch's launcher (launch-run.ts; a child process of the built CLI unless an
// embedding program gives another). The batch reads what the run left behind (report.json), or
// records that it left nothing.
import fs from 'node:fs';
import path from 'node:path';
import { cloneCredentials, withCloneCredentials } from './clone-credentials.js';
import type { Report } from '../report/report.js';
import { git, gitComplaint } from '../git/git-exec.js';
import { emptyRow, type BatchRow } from './batch-report.js';
import { rowFromRun } from './classify.js';
import { eventSniffer, type LiveEvent } from './event-sniffer.js';
import type { RunLauncher } from './launch-run.js';
import { stopGitIn, stopLeftoverRunner } from './leftover-runner.js';
import type { Target } from './targets.js';
import { isDirectory } from '../util/paths.js';
import { gitDirectoryTarget } from './work-tree.js';

const CLONE_TIMEOUT_MS = 10 * 60_000;
const STDERR_TAIL_BYTES = 4_096;

export interface TargetRunSettings {
  /** Starts the run (childProcessLauncher: the built CLI in a child process). */
  launch: RunLauncher;
  recipe: string;
  params: readonly string[];
  batchDir: string;
  /** Wall time this target may use (the batch's remaining deadline), passed down as --timeout. */
  timeoutMs: number | null;
  /** Tokens this target may use (the batch's remaining budget), passed down as --max-tokens. */
  maxTokens: number | null;
  /** Dollars this target may spend (the batch's remaining cost budget), passed down as --max-cost-usd. */
  maxCostUsd?: number | null;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  onEvent?: (event: LiveEvent) => void;
  /** The report the run left, once read (the batch learns from its warnings whether the collector answered). */
  onReport?: (report: Report) => void;
}

export function targetDir(batchDir: string, target: Pick<Target, 'slug'>): string {
  return path.join(batchDir, 'targets', target.slug);
}

export function readRunReport(file: string): Report | null {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
    return typeof report?.status === 'string' && typeof report.run_id === 'string' ? report : null;
  } catch {
    return null;
  }
}

export async function runTarget(target: Target, s: TargetRunSettings): Promise<BatchRow> {
  const started = Date.now();
  const base = emptyRow(target);
  const outDir = targetDir(s.batchDir, target);
  const interrupted = (): BatchRow => ({ ...base, status: 'skipped', category: 'cancelled', cause: 'batch interrupted', duration_ms: Date.now() - started });
  const infra = (cause: string, error: string): BatchRow => ({ ...base, status: 'error', category: 'infrastructure', cause, error, duration_ms: Date.now() - started });

  await stopLeftoverRunner(outDir);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });

  let workspace = target.location;
  const credentials = target.kind === 'git' ? cloneCredentials(target.location) : null;
  if (target.kind === 'git') {
    workspace = path.join(s.batchDir, 'checkouts', target.slug);
    // A clone a killed batch left running would write on while this one is removed.
    if (fs.existsSync(workspace)) stopGitIn(workspace);
    fs.rmSync(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    fs.mkdirSync(path.dirname(workspace), { recursive: true });
    const timeoutMs = Math.min(CLONE_TIMEOUT_MS, s.timeoutMs ?? CLONE_TIMEOUT_MS);
    const clone = await git(['clone', '--quiet', '--depth', '1', '--no-tags', '--', target.location, workspace], {
      cwd: s.batchDir,
      signal: s.signal,
      timeoutMs,
      parentEnv: s.env,
    });
    // A clone cut off by SIGINT/SIGTERM is the batch stopping, not the target's infrastructure failing.
    if (!clone.ok) return s.signal.aborted ? interrupted() : infra('clone failed', gitComplaint(clone));
    // The token stays out of the clone's .git/config, which the model can read (clone-credentials.ts).
    if (credentials) {
      const plain = await git(['remote', 'set-url', 'origin', credentials.plain], { cwd: workspace, signal: s.signal, parentEnv: s.env });
      if (!plain.ok) return s.signal.aborted ? interrupted() : infra('clone failed', `could not take the credentials out of the clone's origin: ${gitComplaint(plain)}`);
    }
  } else if (!isDirectory(workspace)) {
    return infra('workspace not found', `${workspace} is not a directory`);
  } else {
    const gitDirectory = gitDirectoryTarget(workspace);
    if (gitDirectory) return { ...base, status: 'error', category: 'configuration', cause: 'a git directory, no work tree', error: gitDirectory, duration_ms: Date.now() - started };
  }
  if (s.signal.aborted) return interrupted();

  const stderrFile = path.join(outDir, 'runner-stderr.log');
  const exit = await s.launch({
    recipe: s.recipe,
    params: s.params,
    workspace,
    outDir,
    timeoutMs: s.timeoutMs,
    maxTokens: s.maxTokens,
    maxCostUsd: s.maxCostUsd ?? null,
    env: withCloneCredentials(runEnvironment(s.env, s.batchDir), credentials),
    signal: s.signal,
    stdout: eventSniffer((event) => s.onEvent?.(event)),
    stderrFile,
  });

  const reportFile = path.join(outDir, 'report.json');
  const report = readRunReport(reportFile);
  if (report) s.onReport?.(report);
  // Stopped by the batch before it could write anything (a run starting up): not a crash.
  if (!report && s.signal.aborted) return { ...base, status: 'cancelled', category: 'cancelled', cause: 'batch interrupted', duration_ms: Date.now() - started };
  const row = rowFromRun(base, report, { ...exit, stderrTail: readTail(stderrFile) }, path.relative(s.batchDir, reportFile), Date.now() - started);
  return report ? row : { ...row, ...(await spentBeforeCrash(path.join(outDir, 'transcript.jsonl'))) };
}

/**
 * What a run that died without a report (killed, out of memory) had done and spent, from its
 * transcript as it went: the usage counted against the batch's --max-tokens and --max-cost-usd,
 * and in the totals, as the provider will bill it; the files its file tools changed (they stay
 * changed in the target: a row saying 0 would hide them) and its run id, to find its directory.
 * Nothing when it left no transcript.
 */
async function spentBeforeCrash(transcript: string): Promise<Partial<BatchRow>> {
  if (!fs.existsSync(transcript)) return {};
  try {
    const { rebuildReport } = await import('../report/read-transcript.js');
    const { report } = await rebuildReport(transcript);
    const u = report.usage;
    return {
      run_id: report.run_id || null,
      turns: report.turns,
      tool_calls: report.tool_calls.total,
      tokens: { input: u.input, output: u.output, total: u.total, ...(u.estimated ? { estimated: true as const } : {}) },
      cost_usd: u.cost_usd ?? null,
      files_changed: report.files_changed.length,
    };
  } catch {
    return {};
  }
}

/**
 * The batch's environment, less what must stay with the batch: each run appending its report to
 * the job summary would drown the batch's own (and GitHub caps a summary at 1 MiB). Plus the
 * batch's output directory: other targets' runs write there while this one runs, and when it lies
 * in this target's repository, none of it is this run's change to commit (git/snapshot.ts).
 */
function runEnvironment(env: NodeJS.ProcessEnv, batchDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && name !== 'GITHUB_STEP_SUMMARY') out[name] = value;
  out.UNATTENDED_BATCH_DIR = path.resolve(batchDir);
  return out;
}


function readTail(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, STDERR_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
