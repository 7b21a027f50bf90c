// transcript.jsonl: one event per line, written as it happens, so the file is valid JSONL at every
// instant and survives a crash or a kill. (Not quite a SIGKILL while one line of megabytes is being
// written: the kernel may store part of it before the process dies, and no write can be taken back
// by a process that is gone; readers skip such a torn last line and say so, read-transcript.ts.)
// A line is written whole or not at all: a short write (the
// disk filled up mid-line) is cut back to the last whole line, and the failure is reported. After a
// failure only the run's last event is still tried: what follows a gap would read as a complete
// record, and the run is stopping anyway.
import { UserFacingError } from '../types/errors.js';
import { ExitCode } from '../types/outcome.js';
import fs from 'node:fs';
import type { RunEvent } from '../types/events.js';
import type { ToolResultDisplay } from '../types/tool-result.js';
import type { Redactor } from './redact.js';

/** The transcript cannot be written (disk full, I/O error): the record of the run is at risk. */
export class TranscriptWriteError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(file: string, cause: unknown, hint = 'free space there, or choose another directory with --out DIR') {
    super(`cannot write the transcript ${file}: ${(cause as Error).message ?? String(cause)}`, hint);
  }
}

/**
 * Events flushed to the disk itself, not only to the kernel: the run's last word, once per run
 * (some file systems, NFS or a full thin volume, report a failed write only when it is flushed).
 * Every other line is in the kernel when write() returns, so it survives any crash or kill of this
 * process, and a local disk that is full says so right there; syncing each tool call's record as
 * well would cost ~2 ms per call (a 200-call run: half a second) for power-loss safety only.
 */
const FLUSHED_EVENTS: ReadonlySet<RunEvent['type']> = new Set(['run_end']);

/** The events after which the run spends or changes something: a removed transcript stops it there. */
const ACTING_EVENTS: ReadonlySet<RunEvent['type']> = new Set(['model_request', 'tool_call']);

export class TranscriptWriter {
  /** Null once closed: the number may belong to another file by then, which a late write would corrupt. */
  private fd: number | null;
  private seq = 0;
  /** Bytes of whole lines in the file: where a cut line is truncated back to. */
  private size: number;
  private failed: TranscriptWriteError | null = null;
  /** This writer made the file (it was not there, or was empty): discard() may take it away. */
  private readonly ownFile: boolean;

  constructor(
    readonly file: string,
    private readonly runId: string,
    private readonly redactor: Redactor,
  ) {
    const before = fs.statSync(file, { throwIfNoEntry: false });
    this.ownFile = before === undefined;
    try {
      this.fd = fs.openSync(file, 'a');
      this.size = fs.fstatSync(this.fd).size;
    } catch (error) {
      throw new TranscriptWriteError(file, error);
    }
  }

  /**
   * Writes the event as one whole line and returns it (stream-json prints the same line). Throws
   * TranscriptWriteError when the line could not be written; the file then still ends with the
   * last whole line.
   */
  write(event: RunEvent, ts: string = new Date().toISOString()): string {
    if (this.fd === null) throw new TranscriptWriteError(this.file, new Error(`the transcript is closed (a ${event.type} event came after the run's end)`));
    if (this.failed && event.type !== 'run_end') throw this.failed;
    const line = this.redactor.redact(JSON.stringify(transcriptRecord(event, this.runId, this.seq + 1, ts)));
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    try {
      writeWhole(this.fd, bytes);
      if (FLUSHED_EVENTS.has(event.type)) flush(this.fd);
    } catch (error) {
      this.cutBack();
      this.failed ??= new TranscriptWriteError(this.file, error);
      throw this.failed;
    }
    this.seq++;
    this.size += bytes.length;
    // Written, but into a file a tool removed (an `rm -rf` of --out, a `git clean -x` of the
    // workspace holding it): no one will read it, so the run's record is lost from here on, as on
    // a full disk, and the run must stop before its next call runs unrecorded. Asked only where
    // the run is about to act (a model request, a tool call), not after every line of a turn.
    if (ACTING_EVENTS.has(event.type) && this.removed()) {
      this.failed ??= new TranscriptWriteError(
        this.file,
        new Error('it was removed during the run (a tool deleted it or its directory): what the run does from here would go unrecorded'),
        'keep --out outside what the run\'s tools may delete (by default it is .unattended/runs/ under the current directory)',
      );
      throw this.failed;
    }
    return line;
  }

  /** The file has no name left (nlink 0); a device or a pipe always has its one. */
  private removed(): boolean {
    try {
      return this.fd !== null && fs.fstatSync(this.fd).nlink === 0;
    } catch {
      return false;
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: nothing left to flush.
    }
  }

  /**
   * Closes the transcript and, when this writer made the file, removes it: the run was refused
   * this directory, so it leaves nothing there.
   */
  discard(): void {
    this.close();
    if (this.ownFile) fs.rmSync(this.file, { force: true });
  }

  /** Removes a partly written line, so a reader never sees half an event. */
  private cutBack(): void {
    if (this.fd === null) return;
    try {
      fs.ftruncateSync(this.fd, this.size);
    } catch {
      // Not a regular file (a device, a pipe): nothing can be taken back there.
    }
  }

}

/**
 * An event as a record of the run: `type`, `ts`, `run_id` and `seq` first, then its fields. The
 * transcript numbers its lines, stream-json its own (it also carries text deltas and the peer
 * messages), so each output's `seq` runs 1, 2, 3... without gaps.
 */
export function transcriptRecord(event: RunEvent, runId: string, seq: number, ts: string): Record<string, unknown> {
  const { type, ...fields } = event;
  const record: Record<string, unknown> = { type, ts, run_id: runId, seq, ...fields };
  if (event.type === 'tool_result') record.return_display = slimDisplay(event.return_display);
  return record;
}

/** writeSync may write less than asked (the disk filled up mid-line); the rest is retried until an error. */
function writeWhole(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) {
    const n = fs.writeSync(fd, bytes, written, bytes.length - written);
    if (n <= 0) throw Object.assign(new Error('no space left on device (a write wrote nothing)'), { code: 'ENOSPC' });
    written += n;
  }
}

function flush(fd: number): void {
  try {
    fs.fdatasyncSync(fd);
  } catch (error) {
    // A device or pipe cannot be synced; only a real failure to store the line counts.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EROFS') throw error;
  }
}

/** File contents are in the report's diff already; the transcript keeps the diff, not two copies. */
function slimDisplay(display: ToolResultDisplay): ToolResultDisplay | { fileName: string; fileDiff: string } {
  return typeof display === 'string' ? display : { fileName: display.fileName, fileDiff: display.fileDiff };
}
