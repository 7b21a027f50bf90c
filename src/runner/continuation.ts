// `run --continue RUN_DIR`: the earlier run's conversation, rebuilt from its transcript (and from the
// transcripts of the runs it continued in turn), and how it was asked for, so the new run goes on
// with the same recipe and policy unless flags say otherwise. `--continue` without a directory
// takes the latest run this user started from the directory (run-register.ts).
import fs from 'node:fs';
import path from 'node:path';
import { conversationFromEvents } from '../report/conversation.js';
import { buildReport } from '../report/fold.js';
import { plural } from '../util/plural.js';
import { readTranscriptEvents, type SkippedLine } from '../report/read-transcript.js';
import type { ChangedFile, TodoItem } from '../types/changes.js';
import type { Content } from '../types/content.js';
import { InputError } from '../types/errors.js';
import type { ContinuedFrom, RunEvent } from '../types/events.js';
import { heldSettings, type HeldSettings } from './continued-safety.js';
import { parseInvocation, type Invocation } from './invocation.js';
import { liveRunIn } from './live-run.js';
import { registeredRun } from './run-register.js';
import { DEFAULT_RUNS_DIR } from './runner-paths.js';
import { notARunDirHint } from '../util/not-a-run-dir.js';

export interface EarlierRun extends ContinuedFrom {
  /** How the earlier run was asked for; null for a transcript written before invocations were recorded, or a malformed record. */
  invocation: Invocation | null;
  /** What is wrong with the recorded invocation (`invocation.params is not a list of strings`); null when it is sound or absent. */
  invocationProblem: string | null;
  /** The policy and what else bounded the run, as its run_start records them: what a continued run is held to; null when it records no policy. */
  settings: HeldSettings | null;
  history: Content[];
  /** What the runs of the chain changed (workspace-relative paths), and the todo list as the latest of them left it. */
  filesChanged: string[];
  /**
   * The earlier run's files_changed, with their diffs (a continued run's list the chain's changes),
   * and its workspace: what a continued run carries on with (earlier-changes.ts). Empty when its
   * hand-off committed them: that work is on a branch already.
   */
  changes: ChangedFile[];
  workspace: string;
  todos: TodoItem[];
  /** The plan the chain's latest plan-mode run handed in (exit_plan_mode); null while none has. */
  plan: string | null;
  /** Lines of the chain's transcripts that are no events (a line cut off by a kill): what the conversation goes on without. */
  unreadable: string[];
  /** Events of the chain's transcripts with a field of the wrong type (edited by hand): left out too, and named. */
  malformed: string[];
  /**
   * The context windows the chain's runs learned from a provider's refusal for length, in tokens,
   * by `provider/model` (the smallest each): a continued run on the same model starts from it
   * instead of meeting the same refusal with a history already too long (learnedWindowKey).
   */
  learnedWindows: Record<string, number>;
}

/** The key of learnedWindows for a run's provider and model. */
export function learnedWindowKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}

const MAX_CHAIN = 100;

export function readEarlierRun(source: string, cwd: string): EarlierRun {
  const transcript = transcriptOf(path.resolve(cwd, source));
  refuseLiveRun(path.dirname(transcript));
  return read(transcript, new Set());
}

/**
 * A run still going is not continued: a second agent in its workspace would take the first one's
 * changes for its own, and the conversation it goes on from is not over. A run that was killed
 * (its process gone) is continued, as documented.
 */
function refuseLiveRun(dir: string): void {
  const pid = liveRunIn(dir);
  if (pid === null) return;
  throw new InputError(
    `--continue ${dir}: that run is still going (pid ${pid}): continued now, a second agent would work in its workspace beside it and take its changes for its own`,
    `wait for it to end (or stop it: kill ${pid}), then continue it; or give another run to --continue`,
  );
}

function read(transcript: string, seen: Set<string>): EarlierRun {
  const skipped: SkippedLine[] = [];
  const events = readTranscriptEvents(transcript, skipped);
  const start = events.find((e): e is Extract<RunEvent, { type: 'run_start' }> => e.type === 'run_start');
  const hint = 'give the run directory (or transcript.jsonl) of an unattended run';
  if (!start || typeof start.run_id !== 'string') {
    // Its policy and recipe are read from it: a run_start that cannot be read is never guessed at.
    const bad = skipped.find((s) => s.type === 'run_start' && s.problem !== null);
    if (bad) throw new InputError(`cannot continue ${transcript}: its run_start event (line ${bad.line}) is malformed: ${bad.problem!.replace(/^run_start: /, '')}`, 'the transcript was changed after the run; start a new run instead');
    throw new InputError(`cannot continue ${transcript}: it has no run_start event${start ? ' with a run_id' : ''}`, hint);
  }
  if (!start.prompt) {
    throw new InputError(`cannot continue run ${start.run_id}: it ended before its conversation began`, 'start a new run instead (its report says why it ended)');
  }
  seen.add(start.run_id);
  let before: Pick<EarlierRun, 'history' | 'filesChanged' | 'todos' | 'plan' | 'unreadable' | 'malformed' | 'learnedWindows'> = { history: [], filesChanged: [], todos: [], plan: null, unreadable: [], malformed: [], learnedWindows: {} };
  if (start.continued_from) {
    if (seen.has(start.continued_from.run_id) || seen.size > MAX_CHAIN) {
      throw new InputError(`cannot continue run ${start.run_id}: the runs it continues form a loop or a chain longer than ${MAX_CHAIN}`);
    }
    before = read(start.continued_from.transcript, seen);
  }
  // The report of a run cut short still lists what its file tools changed.
  const report = buildReport(events);
  const { invocation, problem } = parseInvocation(start.invocation);
  const torn = skipped.filter((s) => s.problem === null).map((s) => s.line);
  const malformed = skipped.filter((s) => s.problem !== null);
  return {
    run_id: start.run_id,
    transcript,
    invocation,
    invocationProblem: problem,
    settings: heldSettings(start),
    history: [...before.history, ...conversationFromEvents(events)],
    filesChanged: [...new Set([...before.filesChanged, ...report.files_changed.map((file) => file.path)])],
    changes: report.git?.commit ? [] : report.files_changed,
    workspace: typeof start.workspace === 'string' ? start.workspace : '',
    todos: events.some((event) => event.type === 'todos') ? report.todos : before.todos,
    plan: report.plan ?? before.plan,
    unreadable: [...before.unreadable, ...(torn.length > 0 ? [`${transcript}: ${plural(torn.length, 'line')} ${torn.slice(0, 5).join(', ')}${torn.length > 5 ? ', …' : ''}`] : [])],
    learnedWindows: learnedWindows(events, start, before.learnedWindows),
    malformed: [...before.malformed, ...(malformed.length > 0 ? [`${transcript}: ${malformed.slice(0, 5).map((s) => `line ${s.line} (${s.problem})`).join(', ')}${malformed.length > 5 ? `, and ${plural(malformed.length - 5, 'more line')}` : ''}`] : [])],
  };
}

/**
 * `earlier`'s windows, and this run's: the window of its compactions after a refusal for length,
 * and of those whose window a refusal taught (a summary request refused, in a compaction `threshold` began).
 */
function learnedWindows(events: RunEvent[], start: Extract<RunEvent, { type: 'run_start' }>, earlier: Record<string, number>): Record<string, number> {
  const windows = { ...earlier };
  const key = learnedWindowKey(start.provider, start.model);
  for (const event of events) {
    if (event.type !== 'compaction' || (event.reason !== 'context_error' && event.window_learned !== true) || !Number.isSafeInteger(event.window) || event.window! <= 0) continue;
    windows[key] = Math.min(windows[key] ?? Infinity, event.window!);
  }
  return windows;
}

function transcriptOf(source: string): string {
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw new InputError(`--continue ${source}: no such run directory or transcript`, 'give a run directory (.unattended/runs/<run-id>) or its transcript.jsonl');
  if (!stat.isDirectory()) return source;
  const file = path.join(source, 'transcript.jsonl');
  // Said as `report` says it: not "ENOENT: no such file or directory, stat '…/transcript.jsonl'".
  if (!fs.existsSync(file)) throw new InputError(`--continue ${source}: the directory holds no transcript.jsonl, so it is not a run's directory`, notARunDirHint(source));
  return file;
}

/**
 * The latest run this user started from `cwd` (run-register.ts), never merely the newest directory
 * under .unattended/runs, which the repository can fill.
 */
export function latestRunDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const latest = registeredRun(cwd, env);
  const hint = 'name the run to continue: --continue RUN_DIR (one you made: its transcript names the recipe, flags and policy to use again)';
  if (latest === null) throw new InputError(`--continue: no earlier run of yours is recorded for ${cwd}`, hint);
  if (latest.gone) throw new InputError(`--continue: the latest run recorded for ${cwd}, ${latest.run}, is gone (no transcript.jsonl there)`, hint);
  return latest.run;
}

/**
 * `--continue RUN_ID`: the run's directory, looked for where runs are written: the current
 * directory, its .unattended/runs (where a run without --out writes), and beside the latest run
 * this user started from here (where their --out put it). None there: refused, never read as the
 * follow-up prompt of another run.
 */
export function runDirOfId(id: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const latest = registeredRun(cwd, env);
  const places = [...new Set([cwd, path.resolve(cwd, DEFAULT_RUNS_DIR), ...(latest ? [path.dirname(latest.run)] : [])])];
  const found = places.map((dir) => path.join(dir, id)).find((dir) => fs.statSync(path.join(dir, 'transcript.jsonl'), { throwIfNoEntry: false })?.isFile());
  if (found) return found;
  throw new InputError(
    `--continue ${id}: no run ${id} found (looked for ${id}/transcript.jsonl in ${places.join(', ')})`,
    'give the run directory (--continue path/to/run); to go on from your latest run with a follow-up, give the prompt with -p: --continue -p "…"',
  );
}
