// MCP tools are offered under provider-safe names (`_1password__read_secret`), but recipes write
// rules with the names the user knows (`1password__*`, `docs__repo.search`). The policy must apply
// those rules to the registered tool: a deny rule that silently stops matching would fail open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { prepareCall } from '../../src/loop/prepare.js';
import { McpTool } from '../../src/tools/mcp/mcp-tool.js';
import { ToolNameAllocator } from '../../src/tools/mcp/names.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ConfirmationMode } from '../../src/recipe/types.js';
import { makeFixture, type Fixture } from './fixture.js';

let f: Fixture;
beforeAll(() => {
  f = makeFixture();
});
afterAll(() => f.cleanup());

const neverCalled = { callTool: async () => ({ content: [] }) };

/** Registers the server's tools as connect-all does, and returns the registered name of each. */
function registryWith(alias: string, serverToolNames: string[]): { registry: ToolRegistry; names: string[] } {
  const registry = new ToolRegistry();
  const allocator = new ToolNameAllocator(() => false);
  const names = serverToolNames.map((serverToolName) => {
    const tool = new McpTool({
      name: allocator.allocate(alias, serverToolName),
      serverAlias: alias,
      serverToolName,
      displayName: serverToolName,
      description: 'test tool',
      parameterSchema: { type: 'object', properties: {} },
      trust: false,
      timeoutMs: 1000,
      client: neverCalled,
    });
    registry.register(tool);
    return tool.name;
  });
  return { registry, names };
}

async function decisionFor(registeredName: string, registry: ToolRegistry, mode: ConfirmationMode, allow: string[], deny: string[]) {
  const context = f.context(mode, allow, deny);
  const prepared = await prepareCall({ name: registeredName, args: {} }, registry, (q) => decide(q, context), AbortSignal.timeout(5000));
  return prepared.decision;
}

describe('rules written with the original MCP names apply to the sanitised tools', () => {
  it('registers the tools under names that differ from the ones the recipe uses', () => {
    expect(registryWith('1password', ['read_secret']).names).toEqual(['_1password__read_secret']);
    expect(registryWith('docs', ['repo.search']).names).toEqual(['docs__repo_search']);
  });

  it.each([
    ['a server wildcard for an alias starting with a digit', '1password', 'read_secret', '1password__*'],
    ['an exact rule for a server tool name with a dot', 'docs', 'repo.search', 'docs__repo.search'],
    ['an exact rule for a server tool name with a space', 'docs', 'repo search', 'docs__repo search'],
  ])('a deny rule by %s refuses the call under auto-approve', async (_label, alias, serverToolName, rule) => {
    const { registry, names } = registryWith(alias, [serverToolName]);
    const decision = await decisionFor(names[0]!, registry, 'auto-approve', [], [rule]);
    expect(decision).toMatchObject({ decision: 'deny', rule });
  });

  it.each([
    ['a server wildcard for an alias starting with a digit', '1password', 'read_secret', '1password__*'],
    ['an exact rule for a server tool name with a dot', 'docs', 'repo.search', 'docs__repo.search'],
  ])('an allow rule by %s allows the call under allowlist', async (_label, alias, serverToolName, rule) => {
    const { registry, names } = registryWith(alias, [serverToolName]);
    const decision = await decisionFor(names[0]!, registry, 'allowlist', [rule], []);
    expect(decision).toMatchObject({ decision: 'allow', rule });
  });

  it('an exact rule for one tool does not reach its sibling on the same server', async () => {
    const { registry, names } = registryWith('docs', ['repo.search', 'repo.delete']);
    const decision = await decisionFor(names[1]!, registry, 'allowlist', ['docs__repo.search'], []);
    expect(decision?.decision).toBe('deny');
  });

  it('rules written with the registered name keep working', async () => {
    const { registry, names } = registryWith('1password', ['read_secret']);
    const decision = await decisionFor(names[0]!, registry, 'auto-approve', [], ['_1password__read_secret']);
    expect(decision).toMatchObject({ decision: 'deny', rule: '_1password__read_secret' });
  });
});
