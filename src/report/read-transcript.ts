// A report rebuilt from a transcript file alone: `unattended report`, and a run whose end could not
// be written normally (a full disk) rebuilding its report from the transcript that survived.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../types/errors.js';
import type { RunEvent } from '../types/events.js';
import { eventShapeProblem } from './event-shape.js';
import { ReportFold } from './fold.js';
import type { Report } from './report.js';

export interface RebuiltReport {
  report: Report;
  /** Lines that are not events (a line cut off by a crash, garbage): skipped, counted. */
  skippedLines: number;
  /** The first few of them: `line 7 (run_end: duration_ms is not a number)`. */
  skippedExamples: string[];
}

/** How many skipped lines are named one by one. */
const NAMED_SKIPS = 5;

/** Folds the transcript line by line (a transcript can be far larger than its report). */
export async function rebuildReport(transcriptFile: string): Promise<RebuiltReport> {
  const stream = openTranscript(transcriptFile, (file) => fs.createReadStream(file, { encoding: 'utf8' }));
  const folder = new LineFolder();
  try {
    // readline is loaded here, not at start-up: a run reads a transcript back only after a failed write.
    const readline = process.getBuiltinModule('node:readline');
    for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) folder.add(line);
  } catch (error) {
    throw new InputError(`cannot read the transcript ${transcriptFile}: ${(error as Error).message}`, 'check that the file is readable');
  }
  return folder.finish(transcriptFile);
}

/** The same, synchronously: for a process about to exit, which cannot wait for a stream. */
export function rebuildReportSync(transcriptFile: string): RebuiltReport {
  const text = openTranscript(transcriptFile, (file) => fs.readFileSync(file, 'utf8'));
  const folder = new LineFolder();
  for (const line of text.split('\n')) folder.add(line);
  return folder.finish(transcriptFile);
}

/** A line `readTranscriptEvents` left out: not an event (cut off, not JSON), or an event with a field of the wrong type. */
export interface SkippedLine {
  line: number;
  /** `model_response: function_calls is not a list`; null: the line is no event at all. */
  problem: string | null;
  /** The event's type, when the line is one. */
  type: string | null;
}

/**
 * A transcript's events, in order: `run --continue` reads them. Lines that are not events (one a
 * `kill -9` cut off while it was written) and events with a field of the wrong type (edited by
 * hand) are skipped, and go to `skipped`: what is read back is what the types say.
 */
export function readTranscriptEvents(transcriptFile: string, skipped: SkippedLine[] = []): RunEvent[] {
  const text = openTranscript(transcriptFile, (file) => fs.readFileSync(file, 'utf8'));
  const events: RunEvent[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const event = parseEvent(line);
    const problem = event && eventShapeProblem(event as never);
    if (event && !problem) events.push(event);
    else skipped.push({ line: index + 1, problem: event ? `${event.type}: ${problem}` : null, type: event?.type ?? null });
  });
  return events;
}

function openTranscript<T>(file: string, open: (file: string) => T): T {
  try {
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
    return open(file);
  } catch (error) {
    throw new InputError(`cannot read the transcript ${file}: ${(error as Error).message}`, 'give a run directory (holding transcript.jsonl) or a transcript.jsonl file');
  }
}

class LineFolder {
  private readonly fold = new ReportFold();
  private events = 0;
  private lineNumber = 0;
  private skipped = 0;
  private readonly examples: string[] = [];

  add(line: string): void {
    this.lineNumber++;
    if (line.trim() === '') return;
    const event = parseEvent(line);
    if (event === null) return this.skip('not JSON of an event');
    // A known event whose fields have the wrong type would fail the report later, far from its line.
    const problem = eventShapeProblem(event as never);
    if (problem) return this.skip(`${event.type}: ${problem}`);
    try {
      this.fold.add(event);
      this.events++;
    } catch (error) {
      this.skip(`${event.type}: ${(error as Error).message}`);
    }
  }

  private skip(why: string): void {
    this.skipped++;
    if (this.examples.length < NAMED_SKIPS) this.examples.push(`line ${this.lineNumber} (${why})`);
  }

  finish(file: string): RebuiltReport {
    if (this.events === 0) throw new InputError(`${file} holds no run events`, 'give the transcript.jsonl an unattended run wrote');
    let report: Report;
    try {
      report = this.fold.report();
    } catch (error) {
      // The shapes above cover what the report reads; this is for what they missed.
      throw new InputError(`cannot make a report of ${file}: an event has a field of an unexpected type (${(error as Error).message})`, 'the transcript was changed after the run, or written by another version');
    }
    // A transcript from before run_start named its own file: it is the one being read.
    if (report.transcript === '') report.transcript = path.resolve(file);
    return { report, skippedLines: this.skipped, skippedExamples: [...this.examples] };
  }
}

function parseEvent(line: string): RunEvent | null {
  try {
    // A transcript saved by an editor that writes a byte-order mark still starts with its run_start.
    const value: unknown = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    return typeof (value as { type?: unknown }).type === 'string' ? (value as RunEvent) : null;
  } catch {
    return null;
  }
}
