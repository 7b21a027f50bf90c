// Which tool names a recipe can mean, known before any server starts: built-ins, `alias__tool`
// for a declared MCP server, and (only when tool_discovery is set) names a command will supply.
import { BUILTIN_TOOL_NAMES, isBuiltinToolName } from '../tools/names.js';
import { peerToolNameHint } from './peer-tool-names.js';
import { didYouMean } from './suggest.js';

export interface McpToolFilter {
  alias: string;
  includeTools: readonly string[] | null;
  excludeTools: readonly string[];
  /** `--mcp-config m.json` for a server from such a file (McpServerConfig.fromFile). */
  fromFile?: string;
}

/** Where a server's filter is written, in the words of the file that writes it. */
export function mcpFilterKey(server: { alias: string; fromFile?: string }, key: 'include_tools' | 'exclude_tools'): string {
  if (!server.fromFile) return `mcp_servers.${server.alias}.${key}`;
  return `"${key === 'include_tools' ? 'includeTools' : 'excludeTools'}" of server '${server.alias}' in ${server.fromFile}`;
}

export class ToolCatalog {
  constructor(
    /** Built-in (and any other) names in the recipe's `tools`. */
    private readonly offered: readonly string[],
    private readonly servers: readonly McpToolFilter[],
    private readonly discovery: boolean,
  ) {}

  /** Why `name` cannot be a tool of this recipe, or null when it can. */
  unknownReason(name: string, where: 'recipe' | 'flag' = 'recipe'): string | null {
    if (isBuiltinToolName(name)) return null;
    const mcp = splitMcpName(name);
    if (mcp) {
      if (this.server(mcp.alias)) return null;
      // Claude Code's `mcp__github__create_issue`, unless the recipe has a server it calls `mcp`.
      const peer = peerToolNameHint(name);
      if (peer) return `unknown tool '${name}': ${peer}`;
      const aliases = this.servers.map((s) => s.alias);
      // A flag's rule: the run's servers come from the recipe and --mcp-config (an ad-hoc run has no recipe).
      const declared = where === 'recipe' ? 'which mcp_servers does not declare' : "which the run does not have (its servers are the recipe's mcp_servers and those of --mcp-config)";
      return `tool '${name}' names MCP server '${mcp.alias}', ${declared}${didYouMean(mcp.alias, aliases)}`;
    }
    if (this.discovery) return null; // tool_discovery supplies names only at run time
    const peer = peerToolNameHint(name);
    if (peer) return `unknown tool '${name}': ${peer}`;
    const suggestion = didYouMean(name, BUILTIN_TOOL_NAMES);
    return suggestion
      ? `unknown tool '${name}'${suggestion}`
      : `unknown tool '${name}': built-in tools are ${BUILTIN_TOOL_NAMES.join(', ')}; MCP tools are alias__tool`;
  }

  /** Whether the model is offered `name` (assuming it is known). */
  isOffered(name: string): boolean {
    if (this.offered.includes(name)) return true;
    if (isBuiltinToolName(name)) return false;
    const mcp = splitMcpName(name);
    if (!mcp) return this.discovery;
    const server = this.server(mcp.alias);
    if (!server) return false;
    // `server__*` is offered when the server offers any tool at all.
    if (mcp.tool === '*') return server.includeTools === null || server.includeTools.some((t) => !server.excludeTools.includes(t));
    if (server.excludeTools.includes(mcp.tool)) return false;
    return server.includeTools === null || server.includeTools.includes(mcp.tool);
  }

  /**
   * Why an allow rule for `name` approves nothing here, with what to change: it is not offered
   * (assuming it is known). For an MCP tool the fix is the server's filter, not `tools`.
   */
  notOfferedReason(name: string, where: 'recipe' | 'flag'): string {
    const mcp = splitMcpName(name);
    const server = mcp ? this.server(mcp.alias) : undefined;
    const at = (key: 'include_tools' | 'exclude_tools'): string => (server ? mcpFilterKey(server, key) : key);
    if (mcp && server && mcp.tool === '*')
      return server.includeTools?.length === 0
        ? `'${name}' matches no tool: ${at('include_tools')} is empty`
        : `'${name}' matches no tool: every tool ${at('include_tools')} names is in ${at('exclude_tools')}`;
    if (mcp && server && server.excludeTools.includes(mcp.tool))
      return `'${name}' is not offered to the model: ${at('exclude_tools')} lists '${mcp.tool}' (remove it there, or drop this rule)`;
    if (mcp && server)
      return `'${name}' is not offered to the model: ${at('include_tools')} does not list '${mcp.tool}' (add it there, or drop this rule)`;
    return where === 'recipe'
      ? `allow rule for '${name}', which is not offered to the model: add it to tools`
      : `tool '${name}' is not offered to the model by this recipe: add it to the recipe's tools (or --tools)`;
  }

  private server(alias: string): McpToolFilter | undefined {
    return this.servers.find((s) => s.alias === alias);
  }
}

/** `github__create_issue` -> {alias: 'github', tool: 'create_issue'}; split on the first `__`. */
export function splitMcpName(name: string): { alias: string; tool: string } | null {
  const at = name.indexOf('__');
  if (at <= 0 || at + 2 >= name.length) return null;
  return { alias: name.slice(0, at), tool: name.slice(at + 2) };
}
