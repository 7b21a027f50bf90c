// All of a recipe's MCP servers, started in parallel, turned into tools named `alias__tool`.
// A server that fails is reported and left out, unless the recipe marks it required.
import { ConfigError } from '../../types/errors.js';
import type { McpServerConfig } from '../../recipe/types.js';
import type { JsonSchema } from '../../types/content.js';
import { compileSchema } from '../../util/json-schema.js';
import type { AnyTool } from '../tools.js';
import type { ToolSource } from '../registry.js';
import { connectMcpServer, type ConnectContext, type McpConnection, type McpRejectedTool, type McpToolInfo } from './client.js';
import { listChanges, type BuildTools } from './list-changes.js';
import { errorText } from './errors.js';
import { McpTool } from './mcp-tool.js';
import { ToolNameAllocator, sanitizeName } from './names.js';
import { outputValidator } from './output-schema.js';
import { cleanParameterSchema } from './schema-clean.js';

/** A required server did not start: the runner stops before the first turn (exit 52). */
export class McpStartError extends ConfigError {
  constructor(
    readonly failures: McpServerFailure[],
    message: string,
  ) {
    super(message);
  }
}

export interface McpServerFailure {
  alias: string;
  error: string;
}

export interface McpServersContext extends ConnectContext {
  /** Names the MCP tools must not take (built-ins, discovered tools). */
  reserved: (name: string) => boolean;
  onWarning: (message: string) => void;
  /** `limits.tool_timeout`: no call waits longer, whatever the server's own timeout. */
  maxCallMs?: number;
}

export interface McpServers {
  /** In recipe order of the servers, then the server's own order: stable run to run. */
  tools: AnyTool[];
  failures: McpServerFailure[];
  /** The servers that said their tools changed, listed again (list-changes.ts); the registry follows it. */
  changes: ToolSource;
  /** Aliases of the servers that declared tools.listChanged: a tool they lack at start may come later. */
  mayChangeTools: ReadonlySet<string>;
  /** Closes every client and waits until every stdio server process is gone. Idempotent. */
  close(): Promise<void>;
}

export async function connectMcpServers(configured: McpServerConfig[], ctx: McpServersContext): Promise<McpServers> {
  for (const server of configured) {
    if (server.disabledIn) ctx.onWarning(`MCP server '${server.alias}' is disabled in ${server.disabledIn}: not started, its tools are not offered`);
  }
  const servers = configured.filter((server) => !server.disabledIn);
  const settled = await Promise.allSettled(servers.map((server) => connectMcpServer(server, ctx)));
  const connections: McpConnection[] = [];
  const failures: McpServerFailure[] = [];
  const requiredFailures: McpServerFailure[] = [];
  settled.forEach((outcome, i) => {
    const server = servers[i]!;
    if (outcome.status === 'fulfilled') {
      connections.push(outcome.value);
      return;
    }
    const failure = { alias: server.alias, error: errorText(outcome.reason) };
    if (server.required) {
      requiredFailures.push(failure);
    } else {
      failures.push(failure);
      ctx.onWarning(`MCP server '${server.alias}' is left out: ${failure.error}`);
    }
  });

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.allSettled(connections.map((c) => c.close())).then(() => undefined));

  if (requiredFailures.length > 0) {
    await close();
    const lines = requiredFailures.map((f) => `required MCP server '${f.alias}' failed to start: ${f.error}`);
    throw new McpStartError(requiredFailures, lines.join('\n'));
  }

  const names = new ToolNameAllocator(ctx.reserved);
  // A list listed again says most of what it said at start: each warning once a run.
  const said = new Set<string>();
  const warn = (message: string) => void (said.has(message) || (said.add(message), ctx.onWarning(message)));
  const build: BuildTools = (connection, list, previous) => toolsOf(connection, list, names, warn, ctx.maxCallMs ?? Infinity, previous);
  const offered = new Map(connections.map((connection) => [connection, build(connection, { tools: connection.tools, rejected: connection.rejectedTools }, new Map())]));
  const tools = [...offered.values()].flat();
  const mayChangeTools = new Set(connections.filter((c) => c.mayChangeTools).map((c) => c.config.alias));
  return { tools, failures, close, changes: listChanges(offered, build, warn), mayChangeTools };
}

/** `docs__read` or `mcp__docs__read` for server `docs`: the tool's own name, `read`; else null. */
/** A filter's key as the user wrote it: a recipe's `include_tools`, an --mcp-config file's `includeTools`. */
function filterKey(cfg: McpServerConfig, key: 'include_tools' | 'exclude_tools'): string {
  if (!cfg.fromFile) return key;
  return key === 'include_tools' ? 'includeTools' : 'excludeTools';
}

function prefixed(alias: string, name: string): string | null {
  for (const prefix of [`${alias}__`, `mcp__${alias}__`]) if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length);
  return null;
}

/**
 * The tools to offer of one listing of a server. `previous`: the server's tool names and the names
 * they were offered under, which they keep (a rule or the model's history names them so).
 */
function toolsOf(
  connection: McpConnection,
  list: { tools: McpToolInfo[]; rejected: McpRejectedTool[] },
  names: ToolNameAllocator,
  warn: (message: string) => void,
  maxCallMs: number,
  previous: ReadonlyMap<string, string>,
): McpTool[] {
  const cfg = connection.config;
  const server = `MCP server '${cfg.alias}'`;
  const offered = new Set(list.tools.map((t) => t.name));
  // A name that matches no tool changes nothing: an exclude_tools entry written as the model sees
  // the tool (`docs__write_file`, Claude Code's `mcp__docs__write_file`) left the tool offered.
  const known = new Set([...offered, ...list.rejected.map((t) => t.name)]);
  const filters: Array<[string, readonly string[], Set<string>]> = [
    [filterKey(cfg, 'include_tools'), cfg.includeTools ?? [], offered],
    [filterKey(cfg, 'exclude_tools'), cfg.excludeTools, known],
  ];
  for (const [key, wantedNames, present] of filters) {
    for (const wanted of wantedNames) {
      if (present.has(wanted)) continue;
      const own = prefixed(cfg.alias, wanted);
      const hint = own !== null && present.has(own) ? `: ${key} takes the server's own tool names, here '${own}'` : '';
      warn(`${server} has no tool '${wanted}' (named in ${key}${cfg.fromFile ? ` in ${cfg.fromFile}` : ''})${hint}`);
    }
  }
  const wanted = (name: string) => (!cfg.includeTools || cfg.includeTools.includes(name)) && !cfg.excludeTools.includes(name);
  for (const rejected of list.rejected) {
    if (wanted(rejected.name)) warn(`${server}: tool '${rejected.name}' is left out: ${rejected.problem}`);
  }
  const goneTold = whyGoneSaidOnce(connection, warn);
  const listed = namesNotToOffer(cfg.alias, [...list.tools, ...list.rejected].map((t) => t.name));
  const seen = new Set<string>();
  const tools: McpTool[] = [];
  for (const info of list.tools) {
    if (!wanted(info.name)) continue;
    // A second tool of one name: a rule or a call by that name could mean either.
    if (seen.has(info.name)) {
      warn(`${server}: tool '${info.name}' is listed twice; the second one is left out`);
      continue;
    }
    seen.add(info.name);
    if (info.execution?.taskSupport === 'required') {
      warn(`${server}: tool '${info.name}' is left out: it only runs as an MCP task, which the runner does not support`);
      continue;
    }
    const usable = usableSchema(info.inputSchema);
    if (!usable.ok) {
      warn(`${server}: tool '${info.name}' is left out: its input schema is unusable (${usable.problem})`);
      continue;
    }
    const output = info.outputSchema ? outputValidator(info.outputSchema) : null;
    if (output && !output.ok) {
      warn(`${server}: tool '${info.name}' is left out: its output schema is unusable (${output.problem})`);
      continue;
    }
    tools.push(
      new McpTool({
        name: previous.get(info.name) ?? names.allocate(cfg.alias, info.name, listed),
        serverAlias: cfg.alias,
        serverToolName: info.name,
        displayName: `${info.title ?? info.annotations?.title ?? info.name} (${cfg.alias})`,
        description: describe(info, cfg.alias),
        parameterSchema: usable.schema,
        ...(output ? { checkOutput: output.validate } : {}),
        trust: cfg.trust,
        // On timeout the SDK sends the server notifications/cancelled for the request.
        timeoutMs: Math.min(cfg.timeoutMs, maxCallMs),
        client: connection,
        whyGone: goneTold,
        ...(connection.renewSession ? { renewSession: connection.renewSession } : {}),
      }),
    );
  }
  return tools;
}

/**
 * The connection's whyGone, which also warns, the first time a call finds the server gone: a run
 * whose every call to a crashed server failed otherwise ended `success` with no word of it.
 */
function whyGoneSaidOnce(connection: McpConnection, warn: (message: string) => void): () => string | null {
  let said = false;
  return () => {
    const why = connection.whyGone();
    if (why !== null && !said) {
      said = true;
      // Said before the reason, which may end in lines of the server's stderr.
      warn(`MCP server '${connection.config.alias}' stopped during the run, so its tools fail from here on: ${why}`);
    }
    return why;
  };
}

/**
 * Names a tool of this server is offered under only if they are its own: every listed tool's
 * original `alias__tool` name, and a sanitised name two listed tools share (`e.cho`, `e cho`), which
 * would otherwise go to whichever is listed first. Each such tool gets a hashed name instead, and a
 * rule naming the shared name names none of them (runner/mcp-rule-check.ts warns).
 */
function namesNotToOffer(alias: string, toolNames: string[]): Set<string> {
  const originals = toolNames.map((name) => `${alias}__${name}`);
  const bases = originals.map(sanitizeName);
  const shared = bases.filter((base, i) => bases.indexOf(base) !== i);
  return new Set([...originals, ...shared]);
}

function describe(info: McpToolInfo, alias: string): string {
  const text = info.description?.trim() || info.title?.trim();
  return text || `Tool '${info.name}' of MCP server '${alias}'.`;
}

/** Compiling here means a broken schema costs a warning at start, not a crash at the first call. */
/** The cleaned schema, or why it cannot be offered (too large once inlined, or not compilable). */
function usableSchema(schema: unknown): { ok: true; schema: JsonSchema } | { ok: false; problem: string } {
  try {
    const cleaned = cleanParameterSchema(schema);
    compileSchema(cleaned, { check: true });
    return { ok: true, schema: cleaned };
  } catch (err) {
    return { ok: false, problem: errorText(err) };
  }
}
