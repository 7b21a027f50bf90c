// Starts one success-check command: `bash -c` in the workspace, in its own process group, with the
// tools' environment, a time limit, and the run's AbortSignal. The one place a check spawns a
// process, so it can be routed through the sandbox like the tools' processes.
import { superviseGroup, wrapperArgvOf } from '../tools/group-supervisor.js';
import { callMarker } from '../tools/pipe-holders.js';
import { HeadTailCapture } from '../tools/builtin/output-capture.js';
import { hasOddCharacter, looksBinary, signalOfExitCode } from '../tools/builtin/common.js';
import { withoutEscapeSequences } from '../util/terminal.js';
import { unwrapped, type CommandWrapper } from '../sandbox/wrapper.js';
import { monotonicMs } from '../util/clock.js';

/** Between SIGTERM to the group and SIGKILL. */
/** The end of the output kept for the transcript, the report and the model. */
export const CHECK_OUTPUT_TAIL_BYTES = 4 * 1024;

export interface CheckProcessOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** The run's sandbox; without one the command runs as it is. */
  sandbox?: CommandWrapper;
}

export interface CheckProcessResult {
  /** null when it was killed or could not start. */
  exitCode: number | null;
  /** The signal that killed it (SIGSEGV), when one did and it was not the runner's own stop. */
  killedBy: string | null;
  /** What stopped it when it did not exit by itself. */
  stoppedBy: 'timeout' | 'aborted' | null;
  /** Set when bash could not be started at all. */
  startError: string | null;
  /** stdout and stderr interleaved as they arrived: the last CHECK_OUTPUT_TAIL_BYTES. */
  outputTail: string;
  durationMs: number;
}

export async function runCheckProcess(command: string, opts: CheckProcessOptions): Promise<CheckProcessResult> {
  const started = monotonicMs();
  const { execa } = await import('execa');
  const output = new HeadTailCapture(0, CHECK_OUTPUT_TAIL_BYTES);
  // No rc files and no stdin, as for the shell tool: a check must not depend on the machine's shell setup.
  const marker = callMarker(opts.env);
  const spawn = (opts.sandbox ?? unwrapped).command(['bash', '--norc', '--noprofile', '-c', command], { cwd: opts.cwd, env: marker.env });
  const subprocess = execa(spawn.file, spawn.args, {
    cwd: opts.cwd,
    env: spawn.env,
    extendEnv: false,
    stdin: 'ignore',
    detached: true,
    buffer: false,
    reject: false,
  });
  subprocess.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  subprocess.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const supervisor = superviseGroup(subprocess, { timeoutMs: opts.timeoutMs, signal: opts.signal, wrapperArgv: wrapperArgvOf(spawn, 'bash'), marker: marker.entry });
  try {
    const result = await subprocess;
    const startError = result.failed && result.exitCode === undefined && !result.signal ? (result.shortMessage ?? 'bash could not be started') : null;
    const stoppedBy = supervisor.stoppedBy;
    // A sandbox's wrapper reports its command's death by signal n as exit 128+n, as bash does.
    const killedBy = stoppedBy ? null : (result.signal ?? (spawn.signalsAsExitCodes ? signalOfExitCode(result.exitCode) : undefined) ?? null);
    return {
      exitCode: stoppedBy || killedBy || result.exitCode === undefined ? null : result.exitCode,
      killedBy,
      stoppedBy,
      startError,
      // A test runner forced to colour: the words, for the model, the transcript and the report.
      outputTail: withoutEscapeSequences(describeBinary(output.text())).text.replace(/^\n/, ''),
      durationMs: Math.round(monotonicMs() - started),
    };
  } finally {
    supervisor.release();
  }
}

/**
 * Binary a check printed (a dumped artifact, a core) goes to the model, the transcript and the
 * report described, as the shell tool's does, never raw. Each run of binary lines becomes one note
 * and the text after it stays: a test runner's verdict is at the end. Lines next to a binary one
 * that hold characters no text has belong to the same blob (binary split at its newline bytes).
 */
function describeBinary(text: string): string {
  const lines = text.split('\n');
  const binary = lines.map(looksBinary);
  if (!binary.includes(true)) return text;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < lines.length; i++) {
      if (binary[i] || !hasOddCharacter(lines[i]!) || !(binary[i - 1] || binary[i + 1])) continue;
      binary[i] = true;
      changed = true;
    }
  }
  const shown: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!binary[i]) {
      shown.push(lines[i++]!);
      continue;
    }
    while (i < lines.length && binary[i]) i++;
    shown.push('[binary output: not shown]');
  }
  return shown.join('\n');
}
