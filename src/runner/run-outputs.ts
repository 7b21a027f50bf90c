// Everything a run leaves behind: transcript.jsonl, report.json, report.md, and what goes to
// stdout/stderr. Subscribes to the loop's events; the loop knows none of it.
import fs from 'node:fs';
import path from 'node:path';
import type { EventSink, RunEvent } from '../types/events.js';
import type { RunOutcome } from '../types/outcome.js';
import { progressPrinter } from '../report/console.js';
import type { Redactor } from '../report/redact.js';
import type { ChangedFile, GitHandoffReport, Report } from '../report/report.js';
import { ReportBuilder, type RunIdentity } from '../report/report-builder.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { TranscriptWriter } from '../report/transcript.js';
import { ensureOutputDir } from './out-dir.js';
import { writeFileAtomic } from '../tools/builtin/atomic-write.js';
import type { Todo } from '../tools/run-state.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface OutputStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export class RunOutputs {
  readonly transcript: TranscriptWriter;
  private report: ReportBuilder;
  private readonly printer: ((e: RunEvent) => void) | null;
  private writeFailure: Error | null = null;
  private finished = false;

  constructor(
    readonly dir: string,
    private readonly identity: RunIdentity,
    private readonly redactor: Redactor,
    private readonly format: OutputFormat,
    private readonly streams: OutputStreams,
    /** Called once when the transcript cannot be written: the run must stop. */
    private readonly onWriteFailure: (error: Error) => void,
  ) {
    ensureOutputDir(dir);
    this.transcript = new TranscriptWriter(path.join(dir, 'transcript.jsonl'), identity.runId, redactor);
    this.report = new ReportBuilder(identity);
    this.printer = format === 'text' ? progressPrinter((line) => streams.stderr(`${this.redactor.redact(line)}\n`)) : null;
  }

  /** Identity becomes known once the recipe is loaded. */
  identify(identity: Partial<RunIdentity>): void {
    Object.assign(this.identity, identity);
  }

  readonly emit: EventSink = (event) => {
    if (event.type === 'text_delta') {
      // Deltas repeat what model_response records; only a live stream-json consumer wants them.
      if (this.format === 'stream-json') this.streams.stdout(`${this.redactor.redact(JSON.stringify(event))}\n`);
      return;
    }
    try {
      const line = this.transcript.write(event);
      if (this.format === 'stream-json') this.streams.stdout(`${line}\n`);
    } catch (error) {
      if (!this.writeFailure) {
        this.writeFailure = error as Error;
        this.onWriteFailure(error as Error);
      }
    }
    this.report.onEvent(event);
    this.printer?.(event);
  };

  /** Turns, tool calls and tokens so far, for the final event of a run stopped anywhere. */
  progress() {
    return this.report.progress();
  }

  get transcriptFailure(): Error | null {
    return this.writeFailure;
  }

  addChangedFiles(files: ChangedFile[]): void {
    this.report.addChangedFiles(files);
  }

  setStructuredOutput(value: unknown): void {
    this.report.setStructuredOutput(value);
  }

  /** todo_write's list as it stands whenever the report is written, however the run ends. */
  setTodoSource(source: () => readonly Todo[]): void {
    this.report.setTodoSource(source);
  }

  setGitHandoff(value: GitHandoffReport | null): void {
    this.report.setGitHandoff(value);
  }

  /** Writes report.json and report.md (and the GitHub step summary); idempotent. */
  finish(outcome: RunOutcome): Report {
    const report = this.report.build(outcome);
    if (this.finished) return report;
    this.finished = true;
    this.transcript.close();
    const markdown = this.redactor.redact(renderMarkdown(report));
    const written = this.writeReportFile('report.json', `${this.redactor.redact(JSON.stringify(report, null, 2))}\n`);
    this.writeReportFile('report.md', markdown);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary) this.tryWrite(summary, () => fs.appendFileSync(summary, `${markdown}\n`));
    if (this.format === 'json') this.streams.stdout(`${this.redactor.redact(JSON.stringify(report, null, 2))}\n`);
    if (this.format === 'text') {
      if (report.final_answer) this.streams.stdout(`${this.redactor.redact(report.final_answer)}\n`);
      if (report.error) this.streams.stderr(`unattended: ${this.redactor.redact(report.error)}\n`);
      if (written) this.streams.stderr(`unattended: report ${path.join(this.dir, 'report.md')}\n`);
    }
    return report;
  }

  /** Whole or not at all (a full disk must not leave a 0-byte report): the previous content stays. */
  private writeReportFile(name: string, content: string): boolean {
    const file = path.join(this.dir, name);
    return this.tryWrite(file, () => writeFileAtomic(file, content));
  }

  /** A report that cannot be written is said on stderr; it never turns the run's outcome into a crash. */
  private tryWrite(file: string, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (error) {
      this.streams.stderr(`unattended: cannot write ${file}: ${(error as Error).message}\n`);
      return false;
    }
  }
}
