// transcript.jsonl: one event per line, written and flushed as it happens, so the file is valid
// JSONL at every instant (a line is written with one write call) and survives a crash or a kill.
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
  constructor(file: string, cause: unknown) {
    super(`cannot write the transcript ${file}: ${(cause as Error).message ?? String(cause)}`, 'free space there, or choose another directory with --out DIR');
  }
}

export class TranscriptWriter {
  private readonly fd: number;
  private seq = 0;

  constructor(
    readonly file: string,
    private readonly runId: string,
    private readonly redactor: Redactor,
  ) {
    try {
      this.fd = fs.openSync(file, 'a');
    } catch (error) {
      throw new TranscriptWriteError(file, error);
    }
  }

  /** The redacted line written for the event (stream-json prints the same line). */
  write(event: RunEvent): string {
    const line = this.line(event);
    try {
      fs.writeSync(this.fd, `${line}\n`);
    } catch (error) {
      throw new TranscriptWriteError(this.file, error);
    }
    return line;
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed: nothing left to flush.
    }
  }

  private line(event: RunEvent): string {
    const { type, ...fields } = event;
    const record: Record<string, unknown> = { type, ts: new Date().toISOString(), run_id: this.runId, seq: ++this.seq, ...fields };
    if (event.type === 'tool_result') record.return_display = slimDisplay(event.return_display);
    return this.redactor.redact(JSON.stringify(record));
  }
}

/** File contents are in the report's diff already; the transcript keeps the diff, not two copies. */
function slimDisplay(display: ToolResultDisplay): ToolResultDisplay | { fileName: string; fileDiff: string } {
  return typeof display === 'string' ? display : { fileName: display.fileName, fileDiff: display.fileDiff };
}
