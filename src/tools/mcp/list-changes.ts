// An MCP server may change its tools during a run and say so with notifications/tools/list_changed
// (GitHub's server after `enable_toolset`, a server that offers more once logged in). The model
// must be offered what the server offers now, or it is told "unknown tool" for a tool the server
// just gave it: before each model request, every server that said so is listed again, and the
// registry takes the new list (same checks, include/exclude_tools and names as at start; a tool
// that stays keeps its name, so rules and the history still name it). The policy judges each call
// by name as it judges any tool of its server.
import type { ToolSource, ToolsUpdate } from '../registry.js';
import type { McpConnection, McpRejectedTool, McpToolInfo } from './client.js';
import { errorText } from './errors.js';
import type { McpTool } from './mcp-tool.js';

/** toolsOf in connect-all.ts, for one server's listing; `previous`: its tool names → offered names. */
export type BuildTools = (connection: McpConnection, list: { tools: McpToolInfo[]; rejected: McpRejectedTool[] }, previous: ReadonlyMap<string, string>) => McpTool[];

export function listChanges(offered: Map<McpConnection, McpTool[]>, build: BuildTools, warn: (message: string) => void): ToolSource {
  // Every name a server's tool was offered under: one it takes back later gets its name back.
  const named = new Map([...offered].map(([connection, tools]) => [connection, new Map(tools.map((tool) => [tool.serverToolName, tool.name]))]));
  return async (signal) => {
    const updates: ToolsUpdate[] = [];
    for (const [connection, before] of offered) {
      if (!connection.listChanged || connection.whyGone() !== null || signal.aborted) continue;
      let list: Awaited<ReturnType<McpConnection['relist']>>;
      try {
        list = await connection.relist(signal);
      } catch (err) {
        // Abandoned, not failed (a sub-agent stopped while it listed): the change is still to be
        // listed, by whoever refreshes next, or the run would keep the old tools to its end.
        if (signal.aborted) {
          connection.listChanged = true;
          break;
        }
        warn(`MCP server '${connection.config.alias}' said its tools changed, but listing them again failed (${errorText(err)}): the tools it offered stay as they were`);
        continue;
      }
      const names = named.get(connection)!;
      const after = build(connection, list, names);
      for (const tool of after) names.set(tool.serverToolName, tool.name);
      offered.set(connection, after);
      const declared = new Map(before.map((tool) => [tool.name, JSON.stringify(tool.schema)]));
      const now = new Set(after.map((tool) => tool.name));
      const change = {
        server: connection.config.alias,
        added: after.filter((tool) => !declared.has(tool.name)).map((tool) => tool.name),
        removed: before.filter((tool) => !now.has(tool.name)).map((tool) => tool.name),
        changed: after.filter((tool) => declared.has(tool.name) && declared.get(tool.name) !== JSON.stringify(tool.schema)).map((tool) => tool.name),
      };
      // Listed again with nothing new (a server that notifies on every call): no event, no new declarations.
      if (change.added.length + change.removed.length + change.changed.length === 0) {
        offered.set(connection, before);
        continue;
      }
      updates.push({ change, removed: change.removed, tools: after });
    }
    return updates;
  };
}
