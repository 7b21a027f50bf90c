// A report rebuilt from a transcript file alone: `unattended report`, and a run whose end could not
// be written normally (a full disk) rebuilding its report from the transcript that survived.
import fs from 'node:fs';
import readline from 'node:readline';
import { InputError } from '../types/errors.js';
import type { RunEvent } from '../types/events.js';
import { ReportFold } from './fold.js';
import type { Report } from './report.js';

export interface RebuiltReport {
  report: Report;
  /** Lines that are not events (a line cut off by a crash, garbage): skipped, counted. */
  skippedLines: number;
}

/** Folds the transcript line by line (a transcript can be far larger than its report). */
export async function rebuildReport(transcriptFile: string): Promise<RebuiltReport> {
  let stream: fs.ReadStream;
  try {
    fs.accessSync(transcriptFile, fs.constants.R_OK);
    if (!fs.statSync(transcriptFile).isFile()) throw new Error('not a file');
    stream = fs.createReadStream(transcriptFile, { encoding: 'utf8' });
  } catch (error) {
    throw new InputError(`cannot read the transcript ${transcriptFile}: ${(error as Error).message}`, 'give a run directory (holding transcript.jsonl) or a transcript.jsonl file');
  }
  const fold = new ReportFold();
  let events = 0;
  let skippedLines = 0;
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const event = parseEvent(line);
    if (event === null) {
      skippedLines++;
      continue;
    }
    try {
      fold.add(event);
      events++;
    } catch {
      skippedLines++; // an event of a known type without the fields it should have
    }
  }
  if (events === 0) {
    throw new InputError(`${transcriptFile} holds no run events`, 'give the transcript.jsonl an unattended run wrote');
  }
  return { report: fold.report(), skippedLines };
}

function parseEvent(line: string): RunEvent | null {
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    return typeof (value as { type?: unknown }).type === 'string' ? (value as RunEvent) : null;
  } catch {
    return null;
  }
}
