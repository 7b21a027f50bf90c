// One tool of an MCP server, offered to the model as `alias__toolName` (the seed's DiscoveredMCPTool).
import type { JsonSchema } from '../../types/content.js';
import { BaseTool, errorResult, type ConfirmationDetails, type ToolResult } from '../tools.js';
import { mapMcpContent, type McpContentBlock } from './content.js';
import { errorText } from './errors.js';

/** The part of the SDK Client a tool needs; the SDK's Client satisfies it. */
export interface McpCaller {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<Record<string, unknown>>;
}

export interface McpToolOptions {
  name: string;
  serverAlias: string;
  /** The tool's name on its server (before prefixing and sanitising). */
  serverToolName: string;
  displayName: string;
  description: string;
  parameterSchema: JsonSchema;
  /** The tool's output schema, compiled: null when its structured content is valid, else the problems. */
  checkOutput?: (structuredContent: unknown) => string | null;
  trust: boolean;
  timeoutMs: number;
  client: McpCaller;
  /** Why the server is gone, once it is (client.ts's McpConnection.whyGone). */
  whyGone?: () => string | null;
  /** A new session of an HTTP server that no longer knows the run's (client.ts's McpConnection.renewSession). */
  renewSession?: () => Promise<void>;
}

/** MCP's JSON-RPC codes the SDK raises (kept here so this file never loads the SDK). */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;
/** The status of the SDK's StreamableHTTPError (its `code`) when the server does not know the session. */
const HTTP_NOT_FOUND = 404;
/**
 * ...or a 400 that says so: the TypeScript SDK's example server, which many servers are built
 * from, answers a session it does not know (once restarted) 400 "Bad Request: No valid session ID
 * provided" (modelcontextprotocol/typescript-sdk#1476); others "Invalid session ID: …".
 */
const SESSION_REFUSED = /\b(no valid|invalid|unknown|expired) session\b|\bsession (id )?(not found|is invalid|expired|unknown)\b/i;

/** The server no longer knows the session the run opened with it, so the call never ran. */
function sessionForgotten(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === HTTP_NOT_FOUND || (code === 400 && SESSION_REFUSED.test(errorText(err)));
}

export class McpTool extends BaseTool<Record<string, unknown>> {
  readonly kind = 'other' as const;
  override readonly timesItself = true;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly parameterSchema: JsonSchema;
  readonly serverAlias: string;
  readonly serverToolName: string;
  readonly trust: boolean;
  /** The recipe names the tool as `alias__toolName`, before sanitising: its rules must apply. */
  override readonly ruleNames: readonly string[];
  override readonly mcpServer: string;
  private readonly timeoutMs: number;
  private readonly client: McpCaller;
  private readonly whyGone: () => string | null;
  private readonly renewSession: (() => Promise<void>) | null;
  private readonly checkOutput: ((structuredContent: unknown) => string | null) | null;

  constructor(opts: McpToolOptions) {
    super();
    this.name = opts.name;
    this.displayName = opts.displayName;
    this.description = opts.description;
    this.parameterSchema = opts.parameterSchema;
    this.serverAlias = opts.serverAlias;
    this.serverToolName = opts.serverToolName;
    this.ruleNames = [`${opts.serverAlias}__${opts.serverToolName}`];
    this.mcpServer = opts.serverAlias;
    this.trust = opts.trust;
    this.timeoutMs = opts.timeoutMs;
    this.client = opts.client;
    this.whyGone = opts.whyGone ?? (() => null);
    this.renewSession = opts.renewSession ?? null;
    this.checkOutput = opts.checkOutput ?? null;
  }

  getDescription(params: Record<string, unknown>): string {
    const args = JSON.stringify(params ?? {});
    return `${this.serverAlias}: ${this.serverToolName} ${args.length > 200 ? `${args.slice(0, 199)}…` : args}`;
  }

  async shouldConfirmExecute(params: Record<string, unknown>): Promise<ConfirmationDetails | false> {
    if (this.trust) return false;
    return { kind: 'other', title: `Call MCP tool ${this.getDescription(params)}` };
  }

  async execute(params: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    if (signal.aborted) return errorResult('aborted', `call to ${this.name} was cancelled`);
    let result: Record<string, unknown>;
    const call = () => this.client.callTool({ name: this.serverToolName, arguments: params ?? {} }, undefined, { signal, timeout: this.timeoutMs });
    try {
      result = await call();
    } catch (err) {
      // 404 on a call of a session the server accepted at start: it forgot the session (it was
      // restarted), so the call never ran. Once in a new session, as the MCP spec says to.
      if (!this.renewSession || !sessionForgotten(err) || signal.aborted) return this.protocolError(err, signal);
      try {
        await this.renewSession();
        result = await call();
      } catch (again) {
        return this.protocolError(again, signal, ' (it had forgotten the run\'s session, and a new one did not help)');
      }
    }
    const badOutput = result.isError === true ? null : this.outputProblem(result.structuredContent);
    if (badOutput) return errorResult('execution_failed', `MCP server '${this.serverAlias}' failed on ${this.serverToolName}: ${badOutput}`);
    // The SDK takes a missing content for none; content that is no list would be lost without a word.
    if (result.content !== undefined && !Array.isArray(result.content)) {
      const kind = result.content === null ? 'null' : `a ${typeof result.content}`;
      return errorResult('execution_failed', `MCP server '${this.serverAlias}' failed on ${this.serverToolName}: its reply is invalid: its content is ${kind}, not a list of content blocks`);
    }
    const content = (result.content ?? []) as McpContentBlock[];
    const mapped = mapMcpContent(content, result.structuredContent);
    if (result.isError === true) {
      const message = mapped.text || `MCP tool ${this.serverToolName} reported an error without a message`;
      return {
        llmContent: `Error: ${message}`,
        returnDisplay: `Error: ${mapped.display || message}`,
        error: { type: 'execution_failed', message },
      };
    }
    return { llmContent: mapped.llmContent, returnDisplay: mapped.display || '(no output)' };
  }

  /** What the SDK's Client checked, when it compiled the output schemas itself. */
  private outputProblem(structuredContent: unknown): string | null {
    if (!this.checkOutput) return null;
    if (structuredContent === undefined) return 'the tool has an output schema but returned no structured content';
    const problems = this.checkOutput(structuredContent);
    return problems === null ? null : `its structured content does not match the tool's output schema: ${problems}`;
  }

  private protocolError(err: unknown, signal: AbortSignal, renewed = ''): ToolResult {
    const server = `MCP server '${this.serverAlias}'`;
    if (signal.aborted) return errorResult('aborted', `call to ${this.name} was cancelled`);
    const code = (err as { code?: unknown }).code;
    if (code === REQUEST_TIMEOUT) {
      return errorResult('timeout', `${server} did not answer ${this.serverToolName} within ${this.timeoutMs} ms`);
    }
    // A server that died says how (the SDK says only "Not connected", or that the connection closed).
    const gone = this.whyGone();
    if (gone !== null) return errorResult('execution_failed', `${server} is gone: ${gone}`);
    if (code === CONNECTION_CLOSED) return errorResult('execution_failed', `${server} closed the connection`);
    // The SDK's `MCP error -32603: ` says nothing a reader can use.
    return errorResult('execution_failed', `${server} failed on ${this.serverToolName}${renewed}: ${errorText(err).replace(/^MCP error -?\d+: /, '')}`);
  }
}
