// Connect to one MCP server (stdio or Streamable HTTP), list its tools within the server's timeout,
// and take it down again leaving no process behind. The SDK is loaded only when a recipe has servers.
import { deadline } from '../../util/deadline.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../recipe/types.js';
import type { CommandWrapper } from '../../sandbox/wrapper.js';
import { MAX_TIMER_MS } from '../../recipe/duration.js';
import { useBaselineWasm } from '../../util/wasm-baseline.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { compileSchema } from '../../util/json-schema.js';
import { errorText, issuesText } from './errors.js';
import { stopProcess } from './process.js';
import type { GroupStdioTransport } from './stdio-transport.js';
import type { McpCaller } from './mcp-tool.js';
import { plantFreePath, programOnPath } from '../../util/host-program.js';
import { isDirectory } from '../../util/paths.js';

/** A tool as the server lists it (the fields the runner uses). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { title?: string };
  execution?: { taskSupport?: string };
}

/** A tool whose entry in the list breaks the MCP schema: it alone is left out (connect-all.ts). */
export interface McpRejectedTool {
  /** Its name, or its place in the list (`tools[3]`) when it has none. */
  name: string;
  problem: string;
}

export interface McpConnection {
  readonly config: McpServerConfig;
  readonly client: Client;
  /**
   * tools/call, its result taken as the server sent it (any object): the SDK's own check of the
   * result fails the whole call over one block outside the schema (a content type of a later spec,
   * filesystem's `blob`), though the tool ran, with the validator's JSON as the message. The
   * blocks are read one by one (content.ts), and one the runner cannot read is named in the result.
   */
  callTool: McpCaller['callTool'];
  readonly tools: McpToolInfo[];
  readonly rejectedTools: McpRejectedTool[];
  /**
   * The server sent notifications/tools/list_changed since its tools were last listed (cleared by
   * relist). Its tools are listed again before the next model request (list-changes.ts).
   */
  listChanged: boolean;
  /** The server declared tools.listChanged: it may add tools during the run. */
  readonly mayChangeTools: boolean;
  /** tools/list again, within the server's timeout: the list as it is now. */
  relist(signal: AbortSignal): Promise<{ tools: McpToolInfo[]; rejected: McpRejectedTool[] }>;
  /** The stdio server's process id (null for HTTP and injected transports). */
  readonly pid: number | null;
  /**
   * Why the server is gone, when it is: its exit code or signal and the end of its stderr (a stdio
   * server that crashed); null while it runs, or when there is nothing to say (HTTP).
   */
  whyGone(): string | null;
  /**
   * An HTTP server's new session, after it answered 404 for the one the run had (a server
   * restarted behind its URL forgets its sessions; the MCP spec says the client then initializes
   * again). Absent for stdio. Concurrent callers share one renewal.
   */
  renewSession?: () => Promise<void>;
  close(): Promise<void>;
}

export interface ConnectContext {
  /** Base environment for stdio servers; the server's own `env` entries are added on top. */
  env: Record<string, string>;
  signal: AbortSignal;
  /** The run's workspace: a bare command name is never taken from a directory inside it (hostCommand). */
  workspace?: string;
  /** The run's sandbox: stdio servers whose recipe entry says `sandbox: true` run inside it. */
  sandbox?: CommandWrapper;
  /** Supplies the transport instead of stdio/HTTP (embedding, in-memory servers in tests). */
  createTransport?: (server: McpServerConfig) => Transport | undefined;
}

/** A server that lists more pages than this is broken or hostile. */
const MAX_TOOL_PAGES = 100;
const STDERR_TAIL_CHARS = 2000;
/** How long a polite DELETE of an HTTP session may take at shutdown. */
const SESSION_END_GRACE_MS = 1000;

export async function connectMcpServer(cfg: McpServerConfig, ctx: ConnectContext): Promise<McpConnection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const stderr = new TailBuffer(STDERR_TAIL_CHARS);
  let transport = ctx.createTransport?.(cfg) ?? (await createDefaultTransport(cfg, ctx, stderr));
  const pid = trackPid(transport);
  // The SDK's own validator (a second Ajv, which prints warnings) is never needed: output schemas
  // are compiled per tool by connect-all.ts, and the Client is never handed the list to compile.
  const client = new Client({ name: 'unattended', version: '0.1.0' }, { capabilities: {}, jsonSchemaValidator: runnerSchemaValidator });

  // Never aborted once start-up is over (util/deadline.ts): no cancellation of answered requests.
  const startup = deadline(ctx.signal, cfg.timeoutMs, () => new Error(`did not start within ${cfg.timeoutMs} ms`));
  try {
    // initialize is never cancelled (the MCP spec forbids it): at the deadline the transport is
    // closed instead (below), which ends it. The SDK's own timeout for it must not come first.
    // Set before initialize: a server may say its list changed at any time after it (even while
    // the first list is on its way), whether or not it declared tools.listChanged.
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const changed = { value: false };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed.value = true));
    const connecting = client.connect(transport, { timeout: MAX_TIMER_MS });
    connecting.catch(() => undefined);
    await untilAborted(connecting, startup.signal);
    const { tools, rejected } = await listAllTools(client, { signal: startup.signal, timeout: cfg.timeoutMs });
    const { ResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const connection: McpConnection = {
      config: cfg,
      client,
      // What client.callTool sends; its checks are the runner's own (task-only tools are left out at start).
      callTool: (params, _resultSchema, options) => client.request({ method: 'tools/call', params }, ResultSchema, options),
      tools,
      rejectedTools: rejected,
      get listChanged() {
        return changed.value;
      },
      set listChanged(value: boolean) {
        changed.value = value;
      },
      get mayChangeTools() {
        return client.getServerCapabilities()?.tools?.listChanged === true;
      },
      relist: (signal) => {
        // Cleared first: a notification during this listing is another change, listed next time.
        changed.value = false;
        return listAllTools(client, { signal, timeout: cfg.timeoutMs });
      },
      get pid() {
        return pid.value;
      },
      whyGone: () => {
        const stdio = transport as Partial<GroupStdioTransport>;
        const failure = stdio.failure?.() ?? null;
        if (failure !== null) return failure;
        const exit = stdio.exitStatus?.() ?? null;
        if (exit === null) return null;
        const tail = stderr.text().trim();
        return `its process ended (${exit})${stderrNote(tail)}`;
      },
      close: once(() => closeGracefully(client, transport, pid.value, ctx.signal)),
    };
    if (cfg.url && !ctx.createTransport) {
      let renewing: Promise<void> | null = null;
      connection.renewSession = () =>
        (renewing ??= (async () => {
          const fresh = await createDefaultTransport(cfg, ctx, stderr);
          await client.close().catch(() => undefined);
          transport = fresh;
          // As at start, initialize is never cancelled: its own timeout ends it.
          await client.connect(fresh, { timeout: cfg.timeoutMs });
        })().finally(() => (renewing = null)));
    }
    return connection;
  } catch (err) {
    // A server that failed to start gets no grace: the SDK's polite close would take seconds.
    (transport as Partial<GroupStdioTransport>).kill?.();
    await Promise.allSettled([client.close(), pid.value === null ? undefined : stopProcess(pid.value, 0)]);
    const failure = (transport as Partial<GroupStdioTransport>).failure?.() ?? null;
    throw new Error(describeStartFailure(failure ?? err, cfg, ctx.signal, startup.expired(), stderr.text()));
  } finally {
    startup.dispose();
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

async function createDefaultTransport(
  cfg: McpServerConfig,
  { env: baseEnv, sandbox, workspace }: ConnectContext,
  stderr: TailBuffer,
): Promise<GroupStdioTransport | StreamableHTTPClientTransport> {
  if (cfg.command) {
    const { GroupStdioTransport } = await import('./stdio-transport.js');
    // SHLVL: a server started through bash (`command: bash`, a wrapper script) has a socket for
    // stdin (Node's pipes are socket pairs), and bash then sources ~/.bashrc as if sshd had
    // started it, unless SHLVL says it is a nested shell: a slow or chatty shell set-up (pyenv,
    // nvm, conda, an `echo`) delayed the server past its start timeout or wrote into the protocol.
    const env = { SHLVL: '1', ...baseEnv, ...cfg.env };
    const spawn =
      cfg.sandbox && sandbox
        ? sandbox.command([cfg.command, ...cfg.args], { cwd: cfg.cwd ?? process.cwd(), env, besideRunnerGit: true })
        : { file: hostCommand(cfg, env, workspace), args: cfg.args, env };
    // stderr is piped, never inherited: only the runner's events reach the console.
    const transport = new GroupStdioTransport({
      command: spawn.file,
      args: spawn.args,
      env: spawn.env,
      ...(cfg.cwd ? { cwd: cfg.cwd } : {}),
    });
    transport.stderr.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
    return transport;
  }
  if (cfg.url) {
    // Its requests go through the global fetch, whose HTTP parser is WebAssembly.
    useBaselineWasm();
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { HttpCallWatch } = await import('./http-calls.js');
    const calls = new HttpCallWatch();
    const transport = new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers }, fetch: calls.fetch });
    calls.attach(transport);
    return transport;
  }
  throw new Error(`MCP server '${cfg.alias}' has neither a command nor a url`);
}

/**
 * Remembers the stdio server's pid as soon as it is spawned: the SDK forgets it the moment close()
 * starts, which is exactly when we need it to make sure the process is gone.
 */
function trackPid(transport: Transport): { value: number | null } {
  const tracked = { value: null as number | null };
  if (!('pid' in transport)) return tracked;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    tracked.value = (transport as GroupStdioTransport).pid;
  };
  return tracked;
}

/**
 * Every page of tools/list. Each tool is checked on its own: the SDK's listTools checks the whole
 * list at once, so one tool with a bad schema took every tool of its server out, and it compiles
 * every output schema, throwing over the first it cannot compile without naming the tool.
 */
async function listAllTools(client: Client, options: { signal: AbortSignal; timeout: number }): Promise<{ tools: McpToolInfo[]; rejected: McpRejectedTool[] }> {
  const { ResultSchema, ToolSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const tools: McpToolInfo[] = [];
  const rejected: McpRejectedTool[] = [];
  let cursor: string | undefined;
  const followed = new Set<string>();
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ResultSchema, options);
    const listed: unknown = (result as { tools?: unknown }).tools;
    if (!Array.isArray(listed)) throw new Error('its reply to tools/list has no list of tools');
    // The list ends without a cursor, with null (Wazuh's and Codewhale's servers send it, which the
    // SDK's schema refused: the server was left out), or with a cursor this listing already
    // followed: codebase-memory-mcp answers every page with the whole list and the same cursor
    // (the listing went on to the page limit and failed); what such a page lists again is its repeat.
    const next: unknown = (result as { nextCursor?: unknown }).nextCursor;
    const repeated = typeof next === 'string' && followed.has(next);
    const earlier = repeated ? new Set(tools.map((t) => t.name)) : null;
    listed.forEach((raw: unknown) => {
      const checked = ToolSchema.safeParse(raw);
      if (checked.success) {
        if (!earlier?.has(checked.data.name)) tools.push(checked.data as McpToolInfo);
      } else rejected.push({ name: toolLabel(raw, tools.length + rejected.length), problem: `its entry does not follow the MCP schema: ${issuesText(checked.error.issues, 'the entry')}` });
    });
    if (next === undefined || next === null || repeated) return { tools, rejected };
    if (typeof next !== 'string') throw new Error(`its reply to tools/list has a nextCursor that is no string (${JSON.stringify(next)})`);
    followed.add(next);
    cursor = next;
  }
  throw new Error(`listed more than ${MAX_TOOL_PAGES} pages of tools`);
}

function toolLabel(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : `tools[${index}]`;
}

/** For the SDK's Client, which asks only for what it is handed (output schemas are compiled per tool elsewhere). */
const runnerSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: object) {
    const validate = compileSchema(schema);
    return (input: unknown) => {
      const problems = validate(input);
      return problems === null ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: problems };
    };
  },
};

/**
 * Polite by default (stdin closed, then signals to the server's group: stdio-transport.ts); once
 * the run is being stopped (a signal, the wall-clock limit), a stdio server is killed at once,
 * whenever the stop comes, so that the runner exits within seconds.
 */
async function closeGracefully(client: Client, transport: Transport, pid: number | null, runSignal: AbortSignal): Promise<void> {
  const killable = transport as Partial<GroupStdioTransport>;
  const hurry = () => killable.kill?.();
  if (runSignal.aborted) hurry();
  else runSignal.addEventListener('abort', hurry, { once: true });
  try {
    const http = transport as Partial<StreamableHTTPClientTransport>;
    if (typeof http.terminateSession === 'function' && !runSignal.aborted) {
      await Promise.race([http.terminateSession().catch(() => undefined), delay(SESSION_END_GRACE_MS)]);
    }
    await client.close().catch(() => undefined);
    if (pid !== null) await stopProcess(pid, 0);
  } finally {
    runSignal.removeEventListener('abort', hurry);
  }
}

function describeStartFailure(
  err: unknown,
  cfg: McpServerConfig,
  runSignal: AbortSignal,
  timedOut: boolean,
  stderrTail: string,
): string {
  let reason: string;
  if (runSignal.aborted) reason = 'start was cancelled';
  else if (timedOut) reason = `did not start and list its tools within ${cfg.timeoutMs} ms`;
  else reason = errorText(err);
  // spawn's ENOENT names the command when it is the working directory that is missing.
  if (cfg.cwd !== null && /\bENOENT\b/.test(reason) && !isDirectory(cfg.cwd)) reason = `its cwd ${cfg.cwd} is not a directory`;
  return `${reason}${stderrNote(stderrTail.trim())}`;
}

/**
 * What the server said last, after the reason: one line in the sentence, more on lines of their
 * own, as a traceback reads (the report shows them as a block, the terminal indented).
 */
function stderrNote(tail: string): string {
  if (tail === '') return '';
  return tail.includes('\n') ? `; its stderr ends with:\n${tail}` : `; its stderr ends with: ${tail}`;
}

class TailBuffer {
  private value = '';
  constructor(private readonly max: number) {}
  append(text: string): void {
    this.value = (this.value + text).slice(-this.max);
  }
  text(): string {
    return this.value;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * An unsandboxed server runs on the host: a bare command name is looked up on PATH without the
 * directories a repository could plant a program in (util/host-program.ts: inside the workspace,
 * the current directory, the server's cwd, the git repository around each, node_modules), where
 * `npx` puts node_modules/.bin. A recipe that means such a program names it by its path.
 */
function hostCommand(cfg: McpServerConfig, env: Record<string, string>, workspace: string | undefined): string {
  if (cfg.command!.includes('/')) return cfg.command!;
  const pathVariable = env.PATH ?? process.env.PATH;
  const found = programOnPath(cfg.command!, plantFreePath(pathVariable, [workspace, cfg.cwd]));
  if (found) return found;
  const skipped = programOnPath(cfg.command!, pathVariable);
  const where = `directories inside the workspace${workspace ? ` ${workspace}` : ''}, the current directory, the server's cwd, the git repositories around them and node_modules directories are not searched, where a repository could plant a program`;
  if (skipped) throw new Error(`command '${cfg.command}' was found only at ${skipped}, which is not searched (${where}); if you mean that program, give its path as the command`);
  throw new Error(`command '${cfg.command}' is not on PATH (${where})`);
}
