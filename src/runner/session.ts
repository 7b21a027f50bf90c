// Assembles what one run needs from a recipe: the workspace, the tools, the policy, the provider.
// Everything it opens is closed by `close()`, whatever happens in between.
import path from 'node:path';
import type { PolicyDecision } from '../types/events.js';
import type { PolicyJudge } from '../loop/prepare.js';
import { RunFeatures, type ToolExtras } from './run-features.js';
import { judgeTaskWithoutConfirmation } from '../loop/sub-agent.js';
import type { ModelProvider } from '../providers/provider.js';
import type { Recipe } from '../recipe/types.js';
import { decide, warmUpShellParser } from '../policy/decide.js';
import { contextWindowLookup, createProvider, type CreateProviderOptions } from '../providers/create.js';
import { createBuiltinTools, unavailableBuiltins } from '../tools/builtin/index.js';
import { isBuiltinToolName } from '../tools/names.js';
import { ToolRegistry } from '../tools/registry.js';
import { absoluteSearchPath, shellEnvironment, toolEnvironment } from '../tools/tool-env.js';
import { DEFAULT_RUNS_DIR, runnerOwnDirs, runnerProtectedPaths } from './runner-paths.js';
import type { Workspace } from '../util/workspace.js';
import { openToolsWorkspace } from '../sandbox/credentials-inside.js';
import type { AddressCheck } from '../sandbox/proxy.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { CommandWrapper } from '../sandbox/wrapper.js';
import { pinRepositoryLayout, type PinnedLayout } from '../git/pinned-layout.js';
import type { McpServerStatus } from '../types/events.js';

export interface SessionOptions {
  recipe: Recipe;
  outDir: string;
  /** Where the runner writes into it (runner/out-dir.ts RunDir.at): the default memory file is there. */
  writeDir?: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  record: string | null;
  /** Files besides the recipe and its script that --record must not replace: the run's own outputs, the flags' files, a continued transcript. */
  recordInputs?: ReadonlyArray<{ file: string; what: string }>;
  onWarning: (message: string) => void;
  /** The sandbox's network proxy refused a host. */
  onNetworkDenied?: (host: string, port: number, reason: string) => void;
  /** `--max-cost-usd` set the budget in dollars (not the recipe): an unknown price names the flag. */
  maxCostFromFlag?: boolean;
  /** The run's redaction, for what tools keep beyond the run (the memory file). */
  redact?: (text: string) => string;
}

export interface Session {
  workspace: Workspace;
  registry: ToolRegistry;
  provider: ModelProvider;
  judge: PolicyJudge;
  /** Run state, memory, plan mode, structured output, sub-agents (runner/run-features.ts). */
  features: RunFeatures;
  /** What contains the processes tools start (none: status.kind is null and says why). */
  sandbox: Sandbox;
  /** The model's context window: limits.context_tokens, else a lookup in the price table. */
  contextWindow: number | (() => Promise<number | null>) | null;
  /** The repository's layout as it was before any tool ran (git/pinned-layout.ts); null outside one. */
  layout: PinnedLayout | null;
  /** The recipe's MCP servers and whether each started. */
  mcpServers: McpServerStatus[];
  close(): Promise<void>;
}

export async function openSession(opts: SessionOptions): Promise<Session> {
  const { recipe } = opts;
  const workspace = openToolsWorkspace(await prepareWorkspaceDir(recipe, opts.outDir, opts.signal, opts.onWarning), opts.env, recipe.sandbox.hide);
  // Before any tool process exists: the runner's own git keeps to this layout.
  const layout = pinRepositoryLayout(workspace.root);
  const closers: Array<() => Promise<void>> = [];
  try {
    const toolEnv = toolEnvironment(opts.env, recipe.env.pass);
    const relativePath = absoluteSearchPath(opts.env.PATH ?? '').dropped;
    if (opts.env.PATH !== undefined && relativePath.length) {
      opts.onWarning(`PATH holds relative entries (${relativePath.map((e) => `'${e}'`).join(', ')}): tools get PATH without them, since each would find programs in whatever directory a command runs; give them as absolute paths`);
    }
    const features = new RunFeatures(recipe, { outDir: opts.writeDir ?? opts.outDir, env: opts.env, ...(opts.redact ? { redact: opts.redact } : {}) });
    // Before any tool process exists (discovery, MCP servers): `required` fails here, exit 52.
    const sandbox = await Sandbox.open(recipe.sandbox, {
      workspace: workspace.root,
      outDir: opts.outDir,
      // Every run's records under the current directory too, not only this run's (--out may be
      // elsewhere): an earlier run's transcript is what `--continue` and `batch --resume` trust.
      protectedFiles: [path.resolve(path.dirname(DEFAULT_RUNS_DIR)), ...(recipe.file ? [recipe.file] : []), ...(recipe.memory.file ? [recipe.memory.file] : [])],
      protectedDirs: runnerOwnDirs(opts.env),
      env: opts.env,
      readable: recipe.file ? [path.dirname(recipe.file)] : [],
      onWarning: opts.onWarning,
      ...(opts.onNetworkDenied ? { onNetworkDenied: opts.onNetworkDenied } : {}),
      checkAddress: sandboxAddressCheck,
    });
    closers.push(() => sandbox.close());
    for (const note of sandbox.notes) opts.onWarning(note);
    if (!sandbox.active && recipe.sandbox.mode === 'auto' && startsProcesses(recipe)) {
      opts.onWarning(`no sandbox: ${sandbox.status.reason}; tool processes run uncontained (sandbox.mode: required would fail the run instead)`);
    }
    // `required` reads as "everything is contained": the stdio servers that are not say so.
    if (sandbox.active && recipe.sandbox.mode === 'required') {
      for (const server of recipe.mcpServers.filter((s) => s.command && !s.sandbox && !s.disabledIn)) {
        opts.onWarning(`MCP server '${server.alias}' runs outside the sandbox: its entry does not say sandbox: true, so what its tools do is not contained`);
      }
    }
    const mcpServers: McpServerStatus[] = [];
    const registry = await buildRegistry(recipe, workspace, toolEnv, { ...features.toolContext, sandbox }, opts, closers, mcpServers);
    const judge = createJudge(recipe, workspace, opts.outDir, opts.env);
    const providerOptions: CreateProviderOptions = {
      name: recipe.provider,
      model: recipe.model,
      script: recipe.script,
      baseUrl: recipe.baseUrl,
      replayOf: recipe.replayOf ?? null,
      env: opts.env,
      workspaceRoot: workspace.root,
      record: opts.record,
      recordInputs: [...(recipe.file ? [{ file: recipe.file, what: 'the recipe' }] : []), ...(opts.recordInputs ?? [])],
      retry: { maxAttempts: recipe.limits.modelRetries },
      idleTimeoutMs: recipe.limits.modelIdleTimeoutMs,
      options: recipe.providerOptions,
      pricing: recipe.pricing,
      priceRequired: recipe.limits.maxCostUsd === null ? null : { what: opts.maxCostFromFlag ? '--max-cost-usd' : 'limits.max_cost_usd', adHoc: recipe.file === null },
    };
    const [provider] = await Promise.all([
      createProvider(providerOptions),
      needsShellParser(recipe) ? warmUpShellParser() : Promise.resolve(),
    ]);
    return {
      workspace,
      registry,
      provider,
      judge,
      features,
      sandbox,
      contextWindow: recipe.limits.contextTokens ?? contextWindowLookup(providerOptions),
      layout,
      mcpServers,
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

/**
 * The policy as the loop asks it. `unattended policy check` uses this same function, with the
 * default runs directory for `outDir`: the protected paths come from one place (runner-paths.ts).
 */
export function createJudge(recipe: Recipe, workspace: Workspace, outDir: string, env: NodeJS.ProcessEnv = process.env): PolicyJudge {
  const protectedPaths = runnerProtectedPaths(recipe, outDir, env);
  const context = { workspace, policy: recipe.confirmation, protectedPaths };
  return judgeTaskWithoutConfirmation((question): Promise<PolicyDecision> => decide(question, context));
}

/** Outside a run (`policy check`, `tools`) the tools' run extras are only described, never used. */
export function describeOnlyExtras(recipe: Recipe): ToolExtras {
  return new RunFeatures(recipe, { outDir: path.resolve(DEFAULT_RUNS_DIR), env: {} }).toolContext;
}

/** The built-in tools a recipe offers, in the recipe's order (without those this run cannot offer: a warning each). */
export function builtinRegistry(
  recipe: Recipe,
  workspace: Workspace,
  toolEnv: Record<string, string>,
  extras: ToolExtras = describeOnlyExtras(recipe),
  onWarning: (message: string) => void = () => {},
): ToolRegistry {
  const registry = new ToolRegistry();
  const names = recipe.tools.filter(isBuiltinToolName);
  const ctx = { workspace, env: toolEnv, maxTimeoutMs: recipe.limits.toolTimeoutMs, ...extras };
  for (const { reason } of unavailableBuiltins(ctx, names)) onWarning(reason);
  for (const tool of createBuiltinTools(ctx, names)) {
    registry.register(tool);
  }
  return registry;
}

/** Every tool a run offers: built-ins, discovered, MCP. `unattended tools` lists the same. */
export async function buildRegistry(
  recipe: Recipe,
  workspace: Workspace,
  toolEnv: Record<string, string>,
  extras: ToolExtras & { sandbox?: CommandWrapper },
  opts: Pick<SessionOptions, 'signal' | 'onWarning'>,
  closers: Array<() => Promise<void>>,
  mcpStatus: McpServerStatus[] = [],
): Promise<ToolRegistry> {
  const registry = builtinRegistry(recipe, workspace, toolEnv, extras, opts.onWarning);
  const reserved = (name: string) => isBuiltinToolName(name) || registry.has(name);
  const sandbox = extras.sandbox ? { sandbox: extras.sandbox } : {};
  // Discovered tools and MCP servers may run git in the workspace too: the repository's
  // program-running settings are neutralised for them as for the shell.
  // (Computed only when needed: it runs `git config`.)
  let shellEnv: Record<string, string> | undefined;
  const processEnv = () => (shellEnv ??= shellEnvironment(toolEnv, workspace.root));
  if (recipe.toolDiscovery) {
    const { discoverTools } = await import('../tools/discovered.js');
    const discovered = await discoverTools(recipe.toolDiscovery, { cwd: workspace.root, env: processEnv(), signal: opts.signal, reserved, maxCallMs: recipe.limits.toolTimeoutMs, ...sandbox });
    for (const tool of discovered) registry.register(tool);
  }
  if (recipe.mcpServers.length) {
    const { connectMcpServers } = await import('../tools/mcp/connect-all.js');
    const servers = await connectMcpServers([...recipe.mcpServers], { env: processEnv(), workspace: workspace.root, signal: opts.signal, reserved, onWarning: opts.onWarning, maxCallMs: recipe.limits.toolTimeoutMs, ...sandbox });
    closers.push(() => servers.close());
    for (const tool of servers.tools) registry.register(tool);
    registry.follow(servers.changes);
    for (const { alias, disabledIn } of recipe.mcpServers) {
      const failed = servers.failures.find((f) => f.alias === alias);
      if (disabledIn) mcpStatus.push({ name: alias, status: 'disabled' });
      else mcpStatus.push(failed ? { name: alias, status: 'failed', error: failed.error } : { name: alias, status: 'connected' });
    }
    const { rulesNamingNoMcpTool } = await import('./mcp-rule-check.js');
    for (const warning of rulesNamingNoMcpTool(recipe.confirmation, mcpStatus, servers.tools, servers.mayChangeTools)) opts.onWarning(warning);
  }
  return registry;
}

/** `workspace_mode: copy` runs on a fresh copy inside the run output: the original is never touched. */
async function prepareWorkspaceDir(recipe: Recipe, outDir: string, signal: AbortSignal, onWarning: (message: string) => void): Promise<string> {
  if (recipe.workspaceMode !== 'copy') return recipe.workspace;
  const copy = path.join(outDir, 'workspace');
  const { copyTree, stoppedCopyWarning } = await import('./workspace-copy.js');
  // The run's own output directory may lie inside the workspace (the default does): copying it
  // would copy the copy into itself.
  const out = path.resolve(outDir);
  try {
    await copyTree(recipe.workspace, copy, { signal, skip: (name, from) => name === 'node_modules' || path.resolve(from, name) === out });
  } catch (error) {
    const stopped = signal.aborted ? stoppedCopyWarning(recipe.workspace, copy) : null;
    if (stopped) onWarning(stopped);
    throw error;
  }
  return copy;
}

/** The proxy holds hosts to web_fetch's address rules: no private address unless named exactly. */
async function sandboxAddressCheck(host: string, exactNames: ReadonlySet<string>): ReturnType<AddressCheck> {
  const { checkHost, normalizeHost, resolveWithDns } = await import('../tools/net-guard.js');
  const checked = await checkHost(host, exactNames, resolveWithDns);
  if (!checked.ok) return checked;
  // A host named exactly is connected to by name (every address family is tried); any other
  // goes to the addresses that were checked, each in turn.
  if (exactNames.has(normalizeHost(host))) return { ok: true, address: host };
  return { ok: true, address: checked.targets[0].address, addresses: checked.targets.map((t) => t.address) };
}

function startsProcesses(recipe: Recipe): boolean {
  return recipe.tools.includes('shell') || recipe.toolDiscovery !== null || recipe.mcpServers.some((s) => s.sandbox && !s.disabledIn);
}

function needsShellParser(recipe: Recipe): boolean {
  return recipe.tools.includes('shell') && (recipe.confirmation.mode === 'allowlist' || recipe.confirmation.deny.some((r) => r.tool === 'shell'));
}

async function closeAll(closers: Array<() => Promise<void>>): Promise<void> {
  await Promise.allSettled(closers.map((close) => close()));
}

