// `run --continue RUN_DIR`: the earlier run's conversation, rebuilt from its transcript (and from the
// transcripts of the runs it continued in turn), and how it was asked for, so the new run goes on
// with the same recipe and policy unless flags say otherwise. `--continue` without a directory
// takes the latest run this user started from the directory (run-register.ts).
import fs from 'node:fs';
import path from 'node:path';
import { conversationFromEvents } from '../report/conversation.js';
import { buildReport } from '../report/fold.js';
import { plural } from '../util/plural.js';
import { readTranscriptEvents } from '../report/read-transcript.js';
import type { TodoItem } from '../types/changes.js';
import type { Content } from '../types/content.js';
import { InputError } from '../types/errors.js';
import type { ContinuedFrom, RunEvent } from '../types/events.js';
import { parseInvocation, type Invocation } from './invocation.js';
import { registeredRun } from './run-register.js';

export interface EarlierRun extends ContinuedFrom {
  /** How the earlier run was asked for; null for a transcript written before invocations were recorded. */
  invocation: Invocation | null;
  history: Content[];
  /** What the runs of the chain changed (workspace-relative paths), and the todo list as the latest of them left it. */
  filesChanged: string[];
  todos: TodoItem[];
  /** Lines of the chain's transcripts that are no events (a line cut off by a kill): what the conversation goes on without. */
  unreadable: string[];
}

const MAX_CHAIN = 100;

export function readEarlierRun(source: string, cwd: string): EarlierRun {
  return read(transcriptOf(path.resolve(cwd, source)), new Set());
}

function read(transcript: string, seen: Set<string>): EarlierRun {
  const skipped: number[] = [];
  const events = readTranscriptEvents(transcript, skipped);
  const start = events.find((e): e is Extract<RunEvent, { type: 'run_start' }> => e.type === 'run_start');
  if (!start) throw new InputError(`cannot continue ${transcript}: it has no run_start event`, 'give the run directory (or transcript.jsonl) of an unattended run');
  if (!start.prompt) {
    throw new InputError(`cannot continue run ${start.run_id}: it ended before its conversation began`, 'start a new run instead (its report says why it ended)');
  }
  seen.add(start.run_id);
  let before: Pick<EarlierRun, 'history' | 'filesChanged' | 'todos' | 'unreadable'> = { history: [], filesChanged: [], todos: [], unreadable: [] };
  if (start.continued_from) {
    if (seen.has(start.continued_from.run_id) || seen.size > MAX_CHAIN) {
      throw new InputError(`cannot continue run ${start.run_id}: the runs it continues form a loop or a chain longer than ${MAX_CHAIN}`);
    }
    before = read(start.continued_from.transcript, seen);
  }
  // The report of a run cut short still lists what its file tools changed.
  const report = buildReport(events);
  return {
    run_id: start.run_id,
    transcript,
    invocation: parseInvocation(start.invocation),
    history: [...before.history, ...conversationFromEvents(events)],
    filesChanged: [...new Set([...before.filesChanged, ...report.files_changed.map((file) => file.path)])],
    todos: events.some((event) => event.type === 'todos') ? report.todos : before.todos,
    unreadable: [...before.unreadable, ...(skipped.length > 0 ? [`${transcript}: ${plural(skipped.length, 'line')} ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}`] : [])],
  };
}

function transcriptOf(source: string): string {
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw new InputError(`--continue ${source}: no such run directory or transcript`, 'give a run directory (.unattended/runs/<run-id>) or its transcript.jsonl');
  return stat.isDirectory() ? path.join(source, 'transcript.jsonl') : source;
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
