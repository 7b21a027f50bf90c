// Rules that name an MCP tool no server offers match nothing, silently: a deny rule with a typo
// (`docs__delte`) denies nothing, and an allow rule leaves the tool it meant asking. Which tools a
// server has is known only once it has started, so this is said then, as a warning, as a misspelt
// include_tools entry is. A server that declared tools.listChanged may add the tool later
// (tools/mcp/list-changes.ts): the warning says so rather than that the rule can never match.
import type { McpServerStatus } from '../types/events.js';
import type { PolicyRule } from '../recipe/types.js';
import { splitMcpName } from '../recipe/catalog.js';
import { ruleWhere } from '../recipe/rules.js';
import { didYouMean } from '../recipe/suggest.js';
import type { AnyTool } from '../tools/tools.js';

export function rulesNamingNoMcpTool(
  rules: { allow: readonly PolicyRule[]; deny: readonly PolicyRule[] },
  servers: readonly McpServerStatus[],
  tools: readonly AnyTool[],
  mayChangeTools: ReadonlySet<string> = new Set(),
): string[] {
  const mcpTools = tools.filter((t) => t.mcpServer !== null && t.mcpServer !== undefined);
  const warnings: string[] = [];
  for (const [kind, list] of [['deny', rules.deny], ['allow', rules.allow]] as const) {
    for (const rule of list) {
      const named = splitMcpName(rule.tool);
      // `alias__*` names the server, which validation checked; a server that did not start was warned about.
      if (!named || named.tool === '*') continue;
      const server = servers.find((s) => s.name === named.alias);
      if (server && server.status !== 'connected') continue;
      if (mcpTools.some((t) => t.name === rule.tool || t.ruleNames.includes(rule.tool))) continue;
      const candidates = mcpTools.flatMap((t) => [t.name, ...t.ruleNames]);
      const what = server ? `no tool MCP server '${named.alias}' offers` : `no MCP server the run has ('${named.alias}')`;
      const until = server && mayChangeTools.has(named.alias) ? ` at start, so it matches nothing unless the server adds that tool during the run (it says it may: tools.listChanged)` : ', so it matches nothing';
      warnings.push(`${kind} rule '${rule.source}'${ruleWhere(rule)} names ${what}${until}${didYouMean(rule.tool, candidates)}`);
    }
  }
  return warnings;
}
