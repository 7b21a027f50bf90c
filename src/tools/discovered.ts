// Command-based tool discovery (the seed's toolDiscoveryCommand / toolCallCommand): a command in
// the workspace prints FunctionDeclarations; each call runs the call command with the tool's name as
// `$1` and the JSON arguments on stdin. Both run in their own process group under the same stop
// policy as the shell tool (group-supervisor.ts), so a timeout or a cancelled run takes down
// everything they started, sandboxed or not.
import { ConfigError } from '../types/errors.js';
import type { ToolDiscoveryConfig } from '../recipe/types.js';
import type { JsonSchema } from '../types/content.js';
import { compileSchema } from '../util/json-schema.js';
import { cleanParameterSchema } from './mcp/schema-clean.js';
import { sanitizeName } from './mcp/names.js';
import { superviseGroup, wrapperArgvOf } from './group-supervisor.js';
import { callMarker } from './pipe-holders.js';
import { HeadTailCapture } from './builtin/output-capture.js';
import { unwrapped, type CommandWrapper } from '../sandbox/wrapper.js';
import { BaseTool, errorResult, type AnyTool, type ConfirmationDetails, type ToolResult } from './tools.js';

/** Bad discovery output or a failed discovery command: the run stops before it starts (exit 52). */
export class DiscoveryError extends ConfigError {}

export interface DiscoveryContext {
  cwd: string;
  /** Already filtered by the recipe's env rules; nothing else is inherited. */
  env: Record<string, string>;
  signal: AbortSignal;
  /** Names a discovered tool may not take (the built-ins). */
  reserved: (name: string) => boolean;
  /** The run's sandbox: discovery and every call run inside it. */
  sandbox?: CommandWrapper;
  /** `limits.tool_timeout`: no call runs longer, whatever the discovery timeout. */
  maxCallMs?: number;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const MAX_STDOUT_BYTES = 1024 * 1024;
const MAX_STDERR_BYTES = 256 * 1024;
/** How much of stderr an error result carries: the end, where the reason usually is. */
const STDERR_IN_RESULT_CHARS = 4000;

export async function discoverTools(cfg: ToolDiscoveryConfig, ctx: DiscoveryContext): Promise<AnyTool[]> {
  const run = await runBash(cfg.command, [], { ...ctx, input: '', timeoutMs: cfg.timeoutMs });
  const failure = describeFailure(run, 'the tool discovery command', cfg.timeoutMs);
  if (failure) throw new DiscoveryError(failure.message);
  const declarations = parseDeclarations(run.stdout, ctx.reserved);
  return declarations.map(
    (d) =>
      new DiscoveredTool(d.offeredName, d.name, d.description, d.parameters, {
        callCommand: cfg.callCommand,
        cwd: ctx.cwd,
        env: ctx.env,
        timeoutMs: Math.min(cfg.timeoutMs, ctx.maxCallMs ?? Infinity),
        sandbox: ctx.sandbox ?? unwrapped,
      }),
  );
}

interface Declaration {
  /** As declared: the call command gets it, and rules may use it. */
  name: string;
  /** What the model is offered: providers accept only letters, digits, `_` and `-` (`git.status` -> `git_status`). */
  offeredName: string;
  description: string;
  parameters: JsonSchema;
}

/** Accepts `[decl...]`, `{function_declarations: [...]}` and `[{functionDeclarations: [...]}]`. */
export function parseDeclarations(stdout: string, reserved: (name: string) => boolean): Declaration[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (err) {
    const start = stdout.trim().slice(0, 80);
    throw new DiscoveryError(`tool discovery output is not JSON (${(err as Error).message}); it starts with: ${start || '(nothing)'}`);
  }
  const list = unwrap(parsed);
  if (!list) {
    throw new DiscoveryError('tool discovery output must be a JSON array of function declarations (or {"function_declarations": [...]})');
  }
  const seen = new Map<string, string>();
  return list.map((raw, i) => {
    const decl = validateDeclaration(raw, i);
    const other = seen.get(decl.offeredName);
    if (other === decl.name) throw new DiscoveryError(`tool discovery declares '${decl.name}' twice`);
    if (other !== undefined) {
      throw new DiscoveryError(`tool discovery declares '${other}' and '${decl.name}', which would both be offered as '${decl.offeredName}' (providers accept only letters, digits, '_' and '-' in a name)`);
    }
    if (reserved(decl.offeredName)) {
      throw new DiscoveryError(`discovered tool '${decl.name}' would shadow a built-in tool of the same name`);
    }
    seen.set(decl.offeredName, decl.name);
    return decl;
  });
}

function unwrap(parsed: unknown): unknown[] | null {
  const inner = (v: unknown): unknown[] | null => {
    if (!isRecord(v)) return null;
    const list = v.function_declarations ?? v.functionDeclarations;
    return Array.isArray(list) ? list : null;
  };
  if (!Array.isArray(parsed)) return inner(parsed);
  // Gemini CLI style: a list of Tool objects, each holding function declarations.
  if (parsed.length > 0 && parsed.every((item) => inner(item) !== null)) return parsed.flatMap((item) => inner(item)!);
  return parsed;
}

function validateDeclaration(raw: unknown, index: number): Declaration {
  const where = `tool discovery: declaration #${index + 1}`;
  if (!isRecord(raw)) throw new DiscoveryError(`${where} is not an object`);
  const { name, description } = raw;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new DiscoveryError(`${where} has an invalid name ${JSON.stringify(name)}: it must match ${NAME_PATTERN.source}`);
  }
  const offeredName = sanitizeName(name);
  if (offeredName.includes('__')) {
    throw new DiscoveryError(
      `${where} ('${name}'): a name with '__' is reserved for MCP servers' tools (alias__tool), so that rules naming a server's tools, such as '${offeredName.split('__')[0]}__*', never name a discovered one: rename it`,
    );
  }
  if (typeof description !== 'string') throw new DiscoveryError(`${where} ('${name}') needs a description string`);
  const schema = raw.parameters ?? raw.parametersJsonSchema ?? { type: 'object', properties: {} };
  if (!isRecord(schema)) throw new DiscoveryError(`${where} ('${name}'): parameters must be a JSON Schema object`);
  let parameters: JsonSchema;
  try {
    parameters = cleanParameterSchema(schema);
    compileSchema(parameters, { check: true });
  } catch (err) {
    throw new DiscoveryError(`${where} ('${name}'): parameters are not a usable JSON Schema: ${(err as Error).message}`);
  }
  return { name, offeredName, description, parameters };
}

interface CallSettings {
  callCommand: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  sandbox: CommandWrapper;
}

export class DiscoveredTool extends BaseTool<Record<string, unknown>> {
  readonly kind = 'other' as const;
  override readonly timesItself = true;
  readonly displayName: string;
  /** Rules may name the tool as declared (`git.status`) as well as offered (`git_status`). */
  override readonly ruleNames: readonly string[];

  constructor(
    readonly name: string,
    /** As declared: what the call command is given as `$1`. */
    private readonly declaredName: string,
    readonly description: string,
    readonly parameterSchema: JsonSchema,
    private readonly settings: CallSettings,
  ) {
    super();
    this.displayName = declaredName;
    this.ruleNames = declaredName === name ? [] : [declaredName];
  }

  getDescription(params: Record<string, unknown>): string {
    const args = JSON.stringify(params ?? {});
    return `${this.declaredName} ${args.length > 200 ? `${args.slice(0, 199)}…` : args}`;
  }

  /** A discovered tool can do anything its command does: always ask. */
  async shouldConfirmExecute(params: Record<string, unknown>): Promise<ConfirmationDetails> {
    return { kind: 'other', title: `Run discovered tool ${this.getDescription(params)}` };
  }

  async execute(params: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const { callCommand, cwd, env, timeoutMs, sandbox } = this.settings;
    // The name travels as "$1", never inside the command string: no quoting, no injection.
    const run = await runBash(`${callCommand} "$1"`, [this.declaredName], {
      cwd,
      env,
      signal,
      timeoutMs,
      input: JSON.stringify(params ?? {}),
      sandbox,
      headAndTail: true,
    });
    const failure = describeFailure(run, `tool '${this.declaredName}'`, timeoutMs);
    if (failure) {
      const failed = errorResult(failure.type, failure.message);
      // What it printed before failing is often why it failed (a test runner's report, a linter's
      // findings): it follows the error line, as a command's output so far does (loop/calls.ts).
      if (!run.stdout || failure.type === 'aborted') return failed;
      const content = `${failed.llmContent as string}\nStdout:\n${run.stdout}`;
      return { ...failed, llmContent: content, returnDisplay: content };
    }
    return { llmContent: run.stdout || '(no output)', returnDisplay: run.stdout || '(no output)' };
  }
}

interface BashRun {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  signalName: string | undefined;
  timedOut: boolean;
  aborted: boolean;
  overflow: boolean;
  /** Set when the process could not even start (bash missing, bad cwd). */
  spawnError: string | undefined;
}

async function runBash(
  script: string,
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    signal: AbortSignal;
    timeoutMs: number;
    input: string;
    sandbox?: CommandWrapper;
    /** A call's output: past the limit, keep its head and tail (as the shell does) instead of failing. Discovery's JSON must be whole. */
    headAndTail?: boolean;
  },
): Promise<BashRun> {
  const { execa } = await import('execa');
  // --norc: with stdin a socket and no SHLVL (a filtered env), bash would source ~/.bashrc as if
  // started by sshd: the user's shell setup, slow and side-effecting, before every call.
  const marker = callMarker(opts.env);
  const spawn = (opts.sandbox ?? unwrapped).command(['bash', '--norc', '--noprofile', '-c', script, 'unattended', ...args], { cwd: opts.cwd, env: marker.env });
  const child = execa(spawn.file, spawn.args, {
    cwd: opts.cwd,
    env: spawn.env,
    extendEnv: false,
    input: opts.input,
    detached: true,
    reject: false,
    // A call's stderr is kept head and tail too: past a buffer limit execa would kill the call, and
    // a tool that logs its progress there (a build) would fail for the size of its log.
    buffer: { stdout: !opts.headAndTail, stderr: !opts.headAndTail },
    maxBuffer: { stdout: MAX_STDOUT_BYTES, stderr: MAX_STDERR_BYTES },
  });
  const kept = opts.headAndTail ? new HeadTailCapture(MAX_STDOUT_BYTES / 2, MAX_STDOUT_BYTES / 2) : null;
  const keptErr = opts.headAndTail ? new HeadTailCapture(MAX_STDERR_BYTES / 2, MAX_STDERR_BYTES / 2) : null;
  if (kept) child.stdout?.on('data', (chunk: Buffer | string) => kept.push(chunk));
  if (keptErr) child.stderr?.on('data', (chunk: Buffer | string) => keptErr.push(chunk));
  const supervisor = superviseGroup(child, { timeoutMs: opts.timeoutMs, signal: opts.signal, wrapperArgv: wrapperArgvOf(spawn, 'bash'), marker: marker.entry });
  try {
    const r = await child;
    return {
      // As execa gives buffered output: without one final newline.
      stdout: kept ? kept.text().replace(/\r?\n$/, '') : String(r.stdout ?? ''),
      stderr: keptErr ? keptErr.text() : String(r.stderr ?? ''),
      exitCode: r.exitCode,
      signalName: r.signal,
      timedOut: supervisor.stoppedBy === 'timeout',
      aborted: opts.signal.aborted,
      overflow: r.isMaxBuffer,
      spawnError: r.failed && r.exitCode === undefined && !r.signal && !r.isMaxBuffer ? r.shortMessage : undefined,
    };
  } finally {
    supervisor.release();
  }
}

function describeFailure(
  run: BashRun,
  what: string,
  timeoutMs: number,
): { type: 'aborted' | 'timeout' | 'execution_failed'; message: string } | null {
  const stderr = tail(run.stderr);
  const withStderr = (text: string) => (stderr ? `${text}; stderr: ${stderr}` : text);
  if (run.aborted) return { type: 'aborted', message: `${what} was cancelled` };
  if (run.timedOut) return { type: 'timeout', message: withStderr(`${what} did not finish within ${timeoutMs} ms`) };
  if (run.spawnError) return { type: 'execution_failed', message: `${what} could not start: ${run.spawnError}` };
  if (run.overflow) {
    return { type: 'execution_failed', message: `${what} printed more than ${MAX_STDOUT_BYTES / 1024} KiB (stdout) or ${MAX_STDERR_BYTES / 1024} KiB (stderr)` };
  }
  if (run.exitCode !== 0) {
    const how = run.exitCode === undefined ? `was killed by ${run.signalName ?? 'a signal'}` : `exited with code ${run.exitCode}`;
    return { type: 'execution_failed', message: withStderr(`${what} ${how}`) };
  }
  return null;
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > STDERR_IN_RESULT_CHARS ? `…${trimmed.slice(-STDERR_IN_RESULT_CHARS)}` : trimmed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
