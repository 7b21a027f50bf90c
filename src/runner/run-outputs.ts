// Everything a run leaves behind: transcript.jsonl, report.json, report.md, and what goes to
// stdout/stderr. Subscribes to the loop's events; the loop knows none of it. The report is folded
// from the very records the transcript holds (redacted), so `unattended report` rebuilds it exactly.
import fs from 'node:fs';
import path from 'node:path';
import type { EventSink, RunEvent } from '../types/events.js';
import { progressPrinter } from '../report/console.js';
import type { Redactor } from '../report/redact.js';
import type { Report } from '../report/report.js';
import { ReportFold, reportJson } from '../report/fold.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { TranscriptWriter, transcriptRecord } from '../report/transcript.js';
import { PeerStream, type PeerMessage } from '../report/peer-stream.js';
import type { GitSeen } from '../types/changes.js';
import { FileChanges } from './changed-files.js';
import { RunDir } from './out-dir.js';
import { liveRunIn, markLive, unmarkLive } from './live-run.js';
import { InputError } from '../types/errors.js';
import { painter, terminalSafe } from '../util/terminal.js';
import { ExitCode } from '../types/outcome.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface OutputStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour the progress lines on stderr (util/terminal.ts colorEnabled decides); default no. */
  color?: boolean;
  /** GitHub's job summary (GITHUB_STEP_SUMMARY of the run's own environment): report.md is appended to it. */
  stepSummary?: string;
}

/** What a run writes beside its transcript, and so must not find there already. */
const REPORT_FILES = ['report.json', 'report.md'] as const;

export class RunOutputs {
  readonly transcript: TranscriptWriter;
  /** The directory itself, which every file of the run is written into (a tool may move it away from `dir`). */
  readonly runDir: RunDir;
  private readonly fold = new ReportFold();
  private readonly fileChanges = new FileChanges();
  private workspace = '';
  private readonly printer: ((e: RunEvent) => void) | null;
  private writeFailure: Error | null = null;
  /** The transcript holds the run's run_end: without it, the record is not whole (the run exits 54, recordUnfinished). */
  private runEndWritten = false;
  /** The report file that could not be written at the end, if any: the run then exits 54 (recordUnfinished). */
  private unwrittenReport: string | null = null;
  private finished = false;
  /** Why the first report file could not be written: the printed report's error then (see printedReport). */
  private reportWriteError: string | null = null;
  /**
   * The run's run_end, whose stream-json result waits for finish(): the report files are written
   * only then, and a report that could not be written makes the run exit 54, which the result must say.
   */
  private pendingEnd: { event: RunEvent; ts: string } | null = null;
  /** Refused after it was opened: see discard(). */
  private discarded = false;
  /** stream-json numbers its own lines: it carries text deltas and peer messages the transcript does not. */
  private streamSeq = 0;
  private readonly peers: PeerStream | null;

  constructor(
    readonly dir: string,
    private readonly runId: string,
    private readonly redactor: Redactor,
    private readonly format: OutputFormat,
    private readonly streams: OutputStreams,
    /** Called once when the transcript cannot be written: the run must stop. */
    private readonly onWriteFailure: (error: Error) => void,
  ) {
    this.runDir = RunDir.open(dir);
    // A directory that holds a run already keeps it: appended to, its transcript would hold two
    // runs (and `unattended report` would fold them into one), and its report would be replaced.
    const earlier = fs.statSync(path.join(dir, 'transcript.jsonl'), { throwIfNoEntry: false });
    if (earlier?.isFile() && earlier.size > 0) {
      this.runDir.close();
      throw new InputError(`--out ${dir} already holds a run (its transcript.jsonl)`, 'give each run its own --out directory, or remove the earlier run first');
    }
    // Nor one a run still going holds: until its run_start (its MCP servers starting) its transcript
    // is empty, and two runs would write into it, to be folded into one report.
    const live = liveRunIn(dir);
    if (live !== null) {
      this.runDir.close();
      throw new InputError(`--out ${dir} belongs to a run still going (pid ${live})`, 'give each run its own --out directory');
    }
    // Nor does it replace a report it did not write (a directory of the person's own, the workspace).
    const report = REPORT_FILES.find((name) => fs.existsSync(path.join(dir, name)));
    if (report) {
      this.runDir.close();
      throw new InputError(`--out ${dir} already holds a ${report}, which the run would replace`, 'give each run a directory of its own (a new or empty one)');
    }
    // Opened before any tool runs, by its path: a device or a pipe the person running it set there works.
    try {
      this.transcript = new TranscriptWriter(path.join(dir, 'transcript.jsonl'), runId, redactor);
    } catch (error) {
      this.runDir.close();
      throw error;
    }
    // Until its report is written: a --continue of it meanwhile is refused (live-run.ts).
    markLive(this.runDir);
    this.peers = format === 'stream-json' ? new PeerStream(runId) : null;
    // Text for people: what a model or a tool wrote is made inert, then redacted (a secret split by
    // an escape sequence is whole again once the sequence is gone).
    this.printer = format === 'text' ? progressPrinter((line) => streams.stderr(`${this.redactor.redact(line)}\n`), { safe: terminalSafe, paint: painter(streams.color ?? false) }) : null;
  }

  readonly emit: EventSink = (event) => this.record(event, true);

  /** An event for the transcript and the report that people watching need not see (a placeholder run_start). */
  recordQuietly(event: RunEvent): void {
    this.record(event, false);
  }

  /**
   * The run was refused this directory after it was opened (it holds the workspace): nothing more
   * is written there, and the transcript the run created goes. The report is still folded and
   * printed; the refusal is its error.
   */
  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    this.transcript.discard();
    unmarkLive(this.runDir);
    this.runDir.close();
  }

  private record(event: RunEvent, print: boolean): void {
    // The record ended with run_end and the report is written: anything later is no part of it,
    // and must not reach the closed transcript (executeRun's emit stops it first; this holds for
    // any other caller).
    if (this.finished) return;
    const ts = new Date().toISOString();
    if (event.type === 'text_delta') {
      // Deltas repeat what model_response records; only a live stream-json consumer wants them.
      if (this.format === 'stream-json') this.stream(transcriptRecord(event, this.runId, ++this.streamSeq, ts));
      return;
    }
    for (const message of this.peers?.before(event) ?? []) this.streamPeer(message, ts);
    if (event.type === 'run_start') this.workspace = event.workspace;
    this.fileChanges.observe(event);
    // Not on disk (a full disk, a refused directory), the report still shows the event, redacted
    // like the line would have been, and a stream-json reader still gets it.
    const unwritten = () => this.redactor.redact(JSON.stringify(transcriptRecord(event, this.runId, 0, ts)));
    let line: string;
    if (this.discarded) line = unwritten();
    else {
      try {
        line = this.transcript.write(event, ts);
        if (event.type === 'run_end') this.runEndWritten = true;
      } catch (error) {
        if (!this.writeFailure) {
          this.writeFailure = error as Error;
          this.onWriteFailure(error as Error);
        }
        line = unwritten();
      }
    }
    // The stream's own record only where there is a stream: the other formats skip the copy. Its
    // run_end waits for finish(), as the result does: a record not written whole changes what both say.
    if (this.format === 'stream-json' && event.type !== 'run_end') this.stream(transcriptRecord(event, this.runId, ++this.streamSeq, ts));
    this.fold.add(JSON.parse(line) as RunEvent);
    if (event.type === 'run_end' && this.peers) this.pendingEnd = { event, ts };
    else for (const message of this.peers?.after(event, () => this.fold.report()) ?? []) this.streamPeer(message, ts);
    if (print) this.printer?.(event);
  }

  /** One stream-json line (nothing in the other formats), redacted like every other output. */
  private stream(record: Record<string, unknown>): void {
    if (this.format === 'stream-json') this.streams.stdout(`${this.redactor.redact(JSON.stringify(record))}\n`);
  }

  /** A peer-shaped message carries our stamp too: `type` first, then `ts`, `run_id` and `seq`. */
  private streamPeer(message: PeerMessage, ts: string): void {
    const { type, ...fields } = message;
    this.stream({ type, ts, run_id: this.runId, seq: ++this.streamSeq, ...fields });
  }

  /** Turns, tool calls and tokens so far, for the final event of a run stopped anywhere. */
  progress() {
    return this.fold.progress();
  }

  /** True once the run's run_start event went out. */
  get started(): boolean {
    return this.fold.started;
  }

  get transcriptFailure(): Error | null {
    return this.writeFailure;
  }

  /** A change of the runs a continued run goes on from (earlier-changes.ts): in this run's files_changed too. */
  seedChange(rel: string, original: string | null): void {
    this.fileChanges.seed(rel, original);
  }

  /** The files_changed event: what file tools changed, read from the workspace now, and what git saw. */
  changedFiles(git: GitSeen): RunEvent {
    return { type: 'files_changed', files: this.fileChanges.collect(this.workspace, git) };
  }

  /** Writes report.json and report.md (and the GitHub step summary); idempotent. */
  finish(): Report {
    const report = this.fold.report();
    if (this.finished) return report;
    this.finished = true;
    this.transcript.close();
    const markdown = this.redactor.redact(renderMarkdown(report));
    const written = !this.discarded && this.writeReportFile('report.json', this.redactor.redact(reportJson(report)));
    const writtenMd = !this.discarded && this.writeReportFile('report.md', markdown);
    if (!this.discarded && !(written && writtenMd)) this.unwrittenReport = path.join(this.dir, written ? 'report.md' : 'report.json');
    // Where the files are: a tool that moved the directory (a parent renamed) did not move the report.
    const where = this.discarded ? this.dir : this.runDir.location();
    const displaced = this.discarded ? null : this.runDir.displaced();
    if (!this.discarded) unmarkLive(this.runDir);
    this.runDir.close();
    const summary = this.streams.stepSummary;
    if (summary && !this.discarded) this.tryWrite(summary, () => fs.appendFileSync(summary, `${markdown}\n`));
    // What a CI consumer parses on stdout agrees with the exit code: a record not written whole exits 54.
    const printed = this.printedReport(report);
    if (this.format === 'json') this.streams.stdout(this.redactor.redact(reportJson(printed)));
    if (this.pendingEnd) {
      const { event, ts } = this.pendingEnd;
      this.pendingEnd = null;
      // The stream's run_end says what its result says (the transcript's keeps the run's own status).
      const { status, exit_code, error, error_kind } = printed;
      const streamed = printed === report || event.type !== 'run_end' ? event : { ...event, status, exit_code, error, error_kind };
      this.stream(transcriptRecord(streamed, this.runId, ++this.streamSeq, ts));
      for (const message of this.peers?.after(event, () => printed) ?? []) this.streamPeer(message, ts);
    }
    if (this.format === 'text') {
      if (report.final_answer) this.streams.stdout(`${this.redactor.redact(terminalSafe(report.final_answer))}\n`);
      if (report.error) this.streams.stderr(`unattended: ${this.redactor.redact(terminalSafe(report.error))}\n`);
      // Name only a report that is there: report.md can fail where report.json did not.
      if (written || writtenMd) this.streams.stderr(`unattended: report ${path.join(where, writtenMd ? 'report.md' : 'report.json')}\n`);
    } else {
      // The other formats keep stderr for trouble, and a run's error is some: a CI log of
      // `run --output-format json > report.json` showed an exit code and not a word of why, where
      // a run refused before it had a directory says its error here too.
      if (report.error) this.streams.stderr(`unattended: ${this.redactor.redact(terminalSafe(report.error))}\n`);
      // A displaced directory is the run's error as a rule (execute-run.ts): said once.
      if (displaced && !report.error?.includes(displaced)) this.streams.stderr(`unattended: ${this.redactor.redact(terminalSafe(displaced))}\n`);
    }
    const unfinished = this.unfinishedRecord(report);
    if (unfinished) this.streams.stderr(`unattended: exit ${ExitCode.fatalTool}: ${this.redactor.redact(unfinished)}\n`);
    return report;
  }

  /** Why a run exits 54 though its report says otherwise: its record is not whole (null when it is, or it says 54 already). */
  private unfinishedRecord(report: Report): string | null {
    const runEndMissing = this.runEndMissing;
    if (!(this.unwrittenReport || runEndMissing) || report.exit_code === ExitCode.fatalTool) return null;
    // Name only the record that holds the run's own status: a run_end that did not fit is not one.
    const record = !runEndMissing
      ? "as its transcript's run_end says, but its report could not be written"
      : this.unwrittenReport
        ? "but neither its transcript's run_end nor its report could be written"
        : "as its report says, but its transcript's run_end could not be written";
    const cause = runEndMissing && this.writeFailure ? this.writeFailure.message : this.reportWriteError;
    return `the run ended ${report.status} (exit ${report.exit_code}), ${record}${cause ? ` (${cause})` : ''}`;
  }

  /**
   * The report printed on stdout (json) and the stream-json result: the real outcome when the
   * run's record is not whole. A consumer that parses them must not read success beside exit 54;
   * the files keep the run's own status, as its transcript does.
   */
  private printedReport(report: Report): Report {
    const unfinished = this.unfinishedRecord(report);
    if (!unfinished) return report;
    return { ...report, status: 'error', exit_code: ExitCode.fatalTool, error: unfinished, error_kind: 'io', limit: null };
  }

  /** The run ended but its transcript has no run_end (it did not fit): `unattended report` would call the run unfinished. */
  private get runEndMissing(): boolean {
    return this.finished && !this.discarded && !this.runEndWritten;
  }

  /**
   * The run's record is not whole: its report, or its transcript's last events, could not be
   * written (a disk that filled up at the very end, a directory made read-only). The run's own
   * files failed, so it exits 54 whatever it did: a CI step that sees exit 0 must find report.json,
   * and a transcript that ends in run_end.
   */
  get recordUnfinished(): boolean {
    return this.unwrittenReport !== null || this.runEndMissing || this.writeFailure !== null;
  }

  /** Whole or not at all (a full disk must not leave a 0-byte report): the previous content stays. */
  private writeReportFile(name: string, content: string): boolean {
    return this.tryWrite(path.join(this.dir, name), () => this.runDir.writeFile(name, content));
  }

  /** A file that cannot be written is said on stderr, never thrown: the run still ends with its record (see recordUnfinished). */
  private tryWrite(file: string, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (error) {
      const why = `cannot write ${file}: ${(error as Error).message}`;
      this.reportWriteError ??= why;
      this.streams.stderr(`unattended: ${why}\n`);
      return false;
    }
  }
}
