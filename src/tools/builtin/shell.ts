// shell: `bash -c` in the workspace, a fresh process group per call, killed whole on abort,
// time-out, or when bash exits (nothing it started in the background outlives the call).
import { BaseTool, errorResult, type ConfirmationDetails, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { OUTPUT_GRACE_MS, superviseGroup, wrapperArgvOf, type OutputHold } from '../group-supervisor.js';
import { callMarker } from '../pipe-holders.js';
import { unwrapped, type CommandWrapper } from '../../sandbox/wrapper.js';
import { shellEnvironment } from '../tool-env.js';
import { firstBinaryLine, outsideWorkspace, probe, resolvePath, signalOfExitCode } from './common.js';
import { HeadTailCapture } from './output-capture.js';
import { isDirectory } from '../../util/paths.js';
import { withoutEscapeSequences } from '../../util/terminal.js';

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
/**
 * Each of stdout and stderr keeps this much of its head and of its tail: the model gets a head and
 * tail of that (loop/output-cap.ts), and tool-outputs/ keeps all of it, so a failing test suite's
 * whole log is there up to 2 MiB a stream. Past that the middle goes, and the text says so.
 */
export const OUTPUT_KEEP_BYTES = 1024 * 1024;

export interface ShellParams {
  command: string;
  description?: string;
  directory?: string;
  timeout_ms?: number;
}

export class ShellTool extends BaseTool<ShellParams> {
  override readonly timesItself = true;
  readonly name = 'shell';
  readonly displayName = 'Shell';
  readonly description = 'Run a command with bash -c (fresh process, no stdin). Returns exit code, stdout, stderr.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      command: { type: 'string' },
      description: { type: 'string', description: 'Why, in a few words' },
      directory: { type: 'string', description: 'Working dir in the workspace (default: root)' },
      timeout_ms: { type: 'integer', minimum: 1, description: 'Default 120000' },
    },
    required: ['command'],
    additionalProperties: false,
  };
  readonly kind = 'execute' as const;
  override readonly pathParams = ['directory'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  protected override validateSemantics(params: ShellParams): string | null {
    if (params.command.trim() === '') return 'command is empty';
    const resolved = resolvePath(this.ctx, params.directory ?? '.');
    if (!resolved.ok) return resolved.reason;
    if (!isDirectory(resolved.path)) return `directory '${params.directory}' is not an existing directory`;
    return null;
  }

  getDescription(params: ShellParams): string {
    const where = params.directory ? ` (in ${params.directory})` : '';
    return `${params.command}${where}${params.description ? ` # ${params.description}` : ''}`;
  }

  async shouldConfirmExecute(params: ShellParams): Promise<ConfirmationDetails> {
    const resolved = resolvePath(this.ctx, params.directory ?? '.');
    const directory = resolved.ok ? resolved.path : (params.directory ?? '.');
    return { kind: 'exec', title: params.description ?? params.command, command: params.command, directory };
  }

  async execute(params: ShellParams, signal: AbortSignal): Promise<ToolResult> {
    const resolved = resolvePath(this.ctx, params.directory ?? '.');
    if (!resolved.ok) return outsideWorkspace(resolved);
    if (probe(resolved.path).kind !== 'directory') {
      return errorResult('not_a_directory', `directory '${params.directory}' is not an existing directory`);
    }
    if (signal.aborted) return errorResult('aborted', 'cancelled before the command started');
    const timeoutMs = Math.min(params.timeout_ms ?? DEFAULT_SHELL_TIMEOUT_MS, this.ctx.maxTimeoutMs);
    const env = shellEnvironment(this.ctx.env, this.ctx.workspace.root);
    return runInProcessGroup(params.command, resolved.path, env, timeoutMs, signal, this.ctx.sandbox ?? unwrapped);
  }
}

async function runInProcessGroup(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
  sandbox: CommandWrapper,
): Promise<ToolResult> {
  // Loaded on first use: start-up time is measured, and many runs never call the shell.
  const { execa } = await import('execa');
  // No rc files: Debian's bash sources ~/.bashrc even for `-c` when it thinks it runs over ssh, and
  // a run must not depend on (or execute) whatever the machine's shell setup does.
  const marker = callMarker(env);
  const spawn = sandbox.command(['bash', '--norc', '--noprofile', '-c', command], { cwd, env: marker.env });
  const subprocess = execa(spawn.file, spawn.args, {
    cwd,
    env: spawn.env,
    extendEnv: false,
    stdin: 'ignore',
    detached: true,
    buffer: false,
    reject: false,
  });
  const stdout = new HeadTailCapture(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
  const stderr = new HeadTailCapture(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
  subprocess.stdout?.on('data', (chunk: Buffer | string) => stdout.push(chunk));
  subprocess.stderr?.on('data', (chunk: Buffer | string) => stderr.push(chunk));

  const supervisor = superviseGroup(subprocess, { timeoutMs, signal, wrapperArgv: wrapperArgvOf(spawn, 'bash'), marker: marker.entry });
  try {
    const result = await subprocess;
    if (result.failed && result.exitCode === undefined && !result.signal) {
      return errorResult('execution_failed', `could not run bash: ${result.shortMessage}`);
    }
    const killedBy = result.signal ?? (spawn.signalsAsExitCodes ? signalOfExitCode(result.exitCode) : undefined);
    const formatted = formatOutput(killedBy ? undefined : result.exitCode, killedBy, stdout, stderr);
    const output = formatted.output + describeHold(supervisor.outputHeldBy);
    // Binary output is described to the model; people get it all, saved beside the transcript.
    const fullOutput = formatted.fullOutput === undefined ? {} : { fullOutput: formatted.fullOutput };
    const stoppedBy = supervisor.stoppedBy;
    if (stoppedBy === 'timeout') {
      const message = `command timed out after ${formatSeconds(timeoutMs)}; its process group was killed`;
      return { ...failure('timeout', message, output), ...fullOutput };
    }
    if (stoppedBy === 'aborted') return { ...failure('aborted', 'command cancelled; its process group was killed', output), ...fullOutput };
    return { llmContent: output, returnDisplay: output, ...fullOutput, ...(stdout.cut || stderr.cut ? { cutAtSource: true as const } : {}) };
  } finally {
    supervisor.release();
  }
}

/** The result's text, and, when binary output in it was described instead of shown, the whole of it. */
function formatOutput(
  exitCode: number | undefined,
  signal: string | undefined,
  stdout: HeadTailCapture,
  stderr: HeadTailCapture,
): { output: string; fullOutput?: string } {
  const status = exitCode === undefined ? `Killed by ${signal ?? 'a signal'}` : `Exit code: ${exitCode}`;
  const out = stdout.text().replace(/\n$/, '');
  const err = stderr.text().replace(/\n$/, '');
  const shownOut = shownText(out, stdout.total);
  const shownErr = shownText(err, stderr.total);
  const removed = shownOut.escapesRemoved + shownErr.escapesRemoved;
  const note = removed > 0 ? `\n[${removed} terminal escape ${removed === 1 ? 'sequence' : 'sequences'} (colours, cursor moves) removed]` : '';
  // Text in another encoding (a Latin-1 file cat'ed) reads as U+FFFD: said, or the model takes the
  // file to hold U+FFFD. Binary output is described already.
  const notUtf8 = [!shownOut.binary && out && !stdout.validUtf8 ? 'stdout' : '', !shownErr.binary && err && !stderr.validUtf8 ? 'stderr' : ''].filter(Boolean);
  const encoding = notUtf8.length ? `\n[${notUtf8.join(' and ')} ${notUtf8.length === 1 ? 'is' : 'are'} not valid UTF-8 (Latin-1 or another encoding?): each byte that is not is shown as \ufffd; iconv -f LATIN1 -t UTF-8 converts Latin-1]` : '';
  const output = assemble(status, shownOut.text, shownErr.text) + note + encoding;
  return shownOut.binary || shownErr.binary ? { output, fullOutput: assemble(status, out, err) } : { output };
}

/**
 * What the model is shown of one stream: binary output described; text without its colour and
 * cursor codes (a test runner forced to colour, a progress bar), tokens that show nothing.
 */
function shownText(text: string, totalBytes: number): { text: string; binary: boolean; escapesRemoved: number } {
  const described = describeBinary(text, totalBytes);
  if (described !== text) return { text: described, binary: true, escapesRemoved: 0 };
  const plain = withoutEscapeSequences(text);
  return { text: plain.text, binary: false, escapesRemoved: plain.removed };
}

function assemble(status: string, out: string, err: string): string {
  if (!out && !err) return `${status} (no output)`;
  const parts = [status];
  if (out) parts.push(`Stdout:\n${out}`);
  if (err) parts.push(`Stderr:\n${err}`);
  return parts.join('\n');
}

/** A background process that left the group and held the pipes: the model should know its output ends there. */
function describeHold(hold: OutputHold | null): string {
  if (!hold) return '';
  const who = hold.holders.map(({ pid, command }) => `pid ${pid}: ${command.length > 80 ? `${command.slice(0, 80)}…` : command}`);
  if (who.length === 0) {
    return `\n[note: bash exited but a background process it started kept the output open; the output was closed after ${OUTPUT_GRACE_MS} ms without it, and that process may still be running]`;
  }
  return `\n[note: bash exited but a background process it started outside its process group (${who.join('; ')}) kept the output open; it was killed after ${OUTPUT_GRACE_MS} ms, and anything it would have printed later is lost]`;
}

/** Binary output (`cat` of an image, a compressed stream) is described, never sent to the model raw. */
function describeBinary(text: string, totalBytes: number): string {
  const lines = text.split('\n');
  const at = firstBinaryLine(lines);
  if (at === -1) return text;
  const note = `[binary output from line ${at + 1} on (${totalBytes} bytes in all): not shown]`;
  return at === 0 ? note : `${lines.slice(0, at).join('\n')}\n${note}`;
}

/** The partial output goes to the model too: it shows how far the command got. */
function failure(type: 'timeout' | 'aborted', message: string, output: string): ToolResult {
  const text = `Error: ${message}\n${output}`;
  return { llmContent: text, returnDisplay: text, error: { type, message } };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

