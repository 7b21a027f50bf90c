// The step's files the runner gives ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY): one that cannot be
// written (a directory, a full disk, no permission) is said in the step's log with the file and the
// reason, as an annotation, never a crash reported as "unexpected error" that drops the run's own
// exit code.
import fs from 'node:fs';
import { writeOutputs } from './output-file.js';
import { command } from './workflow-commands.js';

type Log = (text: string) => void;

/** Writes the outputs; false, with an ::error naming the file and why, when $GITHUB_OUTPUT cannot take them. */
export function writeStepOutputs(env: NodeJS.ProcessEnv, outputs: Record<string, string>, log: Log): boolean {
  const file = env.GITHUB_OUTPUT;
  if (!file) {
    log(`unattended action: GITHUB_OUTPUT is not set; outputs: status=${outputs.status} exit-code=${outputs['exit-code']}\n`);
    return true;
  }
  try {
    writeOutputs(file, outputs);
    return true;
  } catch (error) {
    if (!isFileError(error)) throw error;
    const shown = Object.entries(outputs)
      .filter(([name, value]) => ['status', 'exit-code', 'allowed'].includes(name) && value !== '')
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    log(command('error', `cannot write the step's outputs to GITHUB_OUTPUT ${file}: ${reason(error)}; later steps will not see the run's outputs (${shown}). GITHUB_OUTPUT must name a file the job can append to: leave it as the runner sets it.`, { title: 'unattended action: outputs not written' }));
    return false;
  }
}

/** Appends to the job summary; a summary that cannot be written is a warning: the run's outcome stands. */
export function appendStepSummary(env: NodeJS.ProcessEnv, text: string, log: Log): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    fs.appendFileSync(file, text);
  } catch (error) {
    if (!isFileError(error)) throw error;
    log(command('warning', `cannot write the job summary GITHUB_STEP_SUMMARY ${file}: ${reason(error)}; the step's log says what it would have`, { title: 'unattended action: job summary not written' }));
  }
}

function isFileError(error: unknown): error is NodeJS.ErrnoException {
  return typeof (error as NodeJS.ErrnoException)?.code === 'string';
}

function reason(error: NodeJS.ErrnoException): string {
  const words: Record<string, string> = { EISDIR: 'it is a directory', EACCES: 'permission denied', EPERM: 'permission denied', ENOSPC: 'no space left on the device', ENOENT: 'its directory does not exist', EROFS: 'a read-only file system' };
  return `${error.code}${words[error.code!] ? ` (${words[error.code!]})` : ''}`;
}
