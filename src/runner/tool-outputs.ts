// Where the loop's capped tool outputs are kept whole: `tool-outputs/` in the run's directory,
// redacted like the transcript beside it, one file per call (a sub-agent's under its task call).
import path from 'node:path';
import { UserFacingError } from '../types/errors.js';
import { ExitCode } from '../types/outcome.js';
import type { RunDir } from './out-dir.js';

/**
 * A whole output cannot be kept (disk full, a file-size limit): the run's own files are at risk, as
 * when the transcript cannot be written, so the run stops with exit 54 naming the file, rather than
 * an "unexpected error" (exit 1) or a note sending the model to a file that is not there.
 */
export class ToolOutputWriteError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(file: string, cause: unknown) {
    super(`cannot write ${file} (a tool's whole output): ${(cause as Error).message ?? String(cause)}`, 'free space there, or choose another directory with --out DIR');
  }
}

export function toolOutputSaver(dir: RunDir, redact: (text: string) => string): (text: string, name: string) => string {
  return (text, name) => {
    // A call id of dots alone (or none) would name a directory, not a file in one.
    const segments = name.split('/').map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.*$/, '_$&'));
    const rel = `${['tool-outputs', ...segments].join('/')}.txt`;
    try {
      dir.writeFile(rel, redact(text));
    } catch (error) {
      throw new ToolOutputWriteError(path.join(dir.path, rel), error);
    }
    return path.join(dir.path, rel);
  };
}
