// `batch --dry-run`: what a batch would do — its targets, the recipe, the policy, the sandbox and
// the hand-off — checked as a real batch checks them, with nothing run, cloned or written.
import path from 'node:path';
import type { PolicyRule, Recipe } from '../recipe/types.js';
import { gitDirectoryTarget } from './work-tree.js';
import { targetDir } from './run-target.js';
import { isDirectory } from '../util/paths.js';
import { shownTarget, type Target } from './targets.js';
import type { BatchRow } from './batch-report.js';
import { handoffToRetry } from './resume-handoff.js';

export interface DryRunInput {
  recipe: Recipe;
  targets: readonly Target[];
  /** The shard's targets when --shard is given (else all). */
  selected: readonly Target[];
  shard: string | null;
  source: string;
  outDir: string;
  /** Where the earlier batch in the default directory would be moved first; null when none is there. */
  movesAsideTo?: string | null;
  concurrency: number;
  /** With --resume: the rows it would keep (final ones), by target index; the others run again. */
  kept?: ReadonlyMap<number, BatchRow>;
  /** The batch's own --timeout, --max-tokens and --max-cost-usd, shared by its targets. */
  batchLimits?: { timeoutMs: number | null; maxTokens: number | null; maxCostUsd: number | null };
  env: NodeJS.ProcessEnv;
}

export function renderDryRun(input: DryRunInput): string {
  const { recipe } = input;
  const rules = (list: PolicyRule[]) => (list.length ? list.map((r) => r.source).join(', ') : 'none');
  const sandbox = recipe.sandbox;
  const network = sandbox.network === true ? 'all' : sandbox.network === false ? 'none' : sandbox.network.join(', ');
  const lines = [
    'unattended batch --dry-run: nothing runs, nothing is cloned or written',
    `recipe     ${recipe.file ?? '(flags)'} (${recipe.name}): ${recipe.provider} ${recipe.model}`,
    `tools      ${recipe.tools.join(', ') || 'none'}${recipe.mcpServers.length ? `; MCP servers: ${recipe.mcpServers.map((s) => s.alias).join(', ')}` : ''}`,
    `policy     ${recipe.confirmation.mode}; allow: ${rules(recipe.confirmation.allow)}; deny: ${rules(recipe.confirmation.deny)}`,
    `sandbox    ${sandbox.mode}; network: ${network}`,
    `limits     ${limitsLine(recipe)}`,
    `batch      ${batchLimitsLine(input.batchLimits)}`,
    `hand-off   ${handoffLine(recipe, input.env)}`,
    `out        ${input.outDir}, ${input.concurrency} at a time`,
    ...(input.movesAsideTo ? [`           the earlier batch there would be moved to ${input.movesAsideTo} first`] : []),
    `targets    ${input.selected.length}${input.shard ? ` of ${input.targets.length} (shard ${input.shard})` : ''} from ${input.source}`,
    ...(input.kept ? [`resume     keeps ${input.kept.size} finished row${input.kept.size === 1 ? '' : 's'}, runs ${input.selected.length - input.kept.size} again`] : []),
  ];
  for (const t of input.selected) {
    // A directory that is not there would be a failed row ('workspace not found'): said now, with where it was looked for.
    const where = t.kind === 'git' ? 'cloned' : !isDirectory(t.location) ? `not found: ${t.location} is not a directory, the target would fail` : gitDirectoryTarget(t.location)?.concat('; the target would fail') ?? 'in place';
    const row = input.kept?.get(t.index);
    const again = row && handoffToRetry(t, row, input.outDir, recipe.git) ? ', its hand-off tried again' : '';
    const resume = input.kept ? (row ? `; kept: ${row.status}${again}` : '; runs again') : '';
    lines.push(`  ${String(t.index + 1).padStart(3)}. ${shownTarget(t.spec)}  (${where}; report ${path.relative(process.cwd(), targetDir(input.outDir, t)) || '.'}${resume})`);
  }
  return `${lines.join('\n')}\n`;
}

function batchLimitsLine(limits: DryRunInput['batchLimits']): string {
  const parts: string[] = [];
  if (limits?.timeoutMs != null) parts.push(`--timeout ${Math.round(limits.timeoutMs / 1000)} s`);
  if (limits?.maxTokens != null) parts.push(`--max-tokens ${limits.maxTokens}`);
  if (limits?.maxCostUsd != null) parts.push(`--max-cost-usd ${limits.maxCostUsd}`);
  return parts.length ? `${parts.join(', ')}, shared by the targets` : 'no deadline or budget of its own';
}

function limitsLine(recipe: Recipe): string {
  const l = recipe.limits;
  const parts = [`max_turns ${l.maxTurns}`];
  if (l.maxToolCalls !== null) parts.push(`max_tool_calls ${l.maxToolCalls}`);
  if (l.timeoutMs !== null) parts.push(`timeout ${Math.round(l.timeoutMs / 1000)} s`);
  if (l.maxTokens !== null) parts.push(`max_tokens ${l.maxTokens}`);
  if (l.maxCostUsd != null) parts.push(`max_cost_usd ${l.maxCostUsd}`);
  return parts.join(', ');
}

function handoffLine(recipe: Recipe, env: NodeJS.ProcessEnv): string {
  const git = recipe.git;
  if (!git) return 'none (changes stay in each workspace)';
  let line = `branch ${git.branch}, ${git.push ? 'pushed' : 'not pushed'}`;
  const pr = git.pullRequest;
  if (pr) {
    // A batch without a token was refused before this (exit 41).
    const token = env.GITHUB_TOKEN?.trim() ? 'GITHUB_TOKEN' : 'GH_TOKEN';
    line += `; pull request "${pr.title}" into ${pr.base ?? "the repository's default branch"}${pr.draft ? ', draft' : ''}${pr.labels.length ? `, labels ${pr.labels.join(', ')}` : ''}`;
    line += `; token from ${token}`;
  }
  return line;
}
