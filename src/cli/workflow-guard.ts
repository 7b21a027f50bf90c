// In GitHub Actions the runner reads workflow commands (`::set-output`, `::add-mask::`,
// `::add-path::`, `::stop-commands::`, `##[name]` anywhere in a line) from everything a step
// prints. A plain `unattended run` step prints what the model wrote (its answer, the per-call lines
// that quote its calls and their output, errors that quote it, the report), so a model, or a
// repository that steers it, could issue them. As the action's run step and `batch` do, command
// processing is stopped before anything is printed and resumed, with a random token the model
// cannot know, as the process exits.
//
// The stop and the resume go on stderr only: stdout stays exactly the answer, the JSON or the
// JSON lines a pipe (`| jq`) or a file expects. The runner keeps one stop state for both streams,
// but reads them through two pipes and, each time it looks, handles what stderr brought before
// what stdout did; so the resume waits a moment after the last output when stdout is another pipe,
// for stdout's last lines to be read (and ignored) first. The stop is the process's first output,
// long before any model text (a model request at least lies between).
import fs from 'node:fs';
import { stopCommands } from '../action/workflow-commands.js';

/** How long the resume waits for a separate stdout pipe's last lines to reach the runner. */
const DRAIN_MS = 250;

/** Stops workflow command processing until this process exits; nothing outside GitHub Actions, or when stderr reaches no runner. */
export function suspendWorkflowCommands(env: NodeJS.ProcessEnv): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  const stderr = fstatOrNull(2);
  // A file or /dev/null: the runner reads nothing of it (a batch's runs write their stderr to a file).
  if (!stderr || !(stderr.isFIFO() || stderr.isSocket())) return;
  const stdout = fstatOrNull(1);
  const separatePipe = stdout !== null && (stdout.isFIFO() || stdout.isSocket()) && !(stdout.dev === stderr.dev && stdout.ino === stderr.ino);
  const { stop, resume } = stopCommands();
  if (!writeAll(stop)) return;
  process.on('exit', () => {
    if (separatePipe) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, DRAIN_MS);
    writeAll(resume);
  });
}

function writeAll(text: string): boolean {
  try {
    fs.writeSync(2, text);
    return true;
  } catch {
    // The reader is gone: nothing it prints reaches a runner either.
    return false;
  }
}

function fstatOrNull(fd: number): fs.Stats | null {
  try {
    return fs.fstatSync(fd);
  } catch {
    return null;
  }
}
