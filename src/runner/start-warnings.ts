// What a run says at its start, before the model spends anything, about what will not go as the
// recipe or the earlier run suggests: a git hand-off bound to fail, an earlier transcript with
// lines the continued conversation leaves out.
import { githubToken, NO_TOKEN } from '../git/github-repo.js';
import { gitProgram, NO_GIT } from '../git/git-env.js';
import { inGitWorkTree } from '../git/snapshot.js';
import type { ProviderName, Recipe } from '../recipe/types.js';
import type { EarlierRun } from './continuation.js';

/** A `git:` section the run cannot honour: the hand-off would fail (exit 58) after the whole run. */
export function handoffWarnings(recipe: Recipe, root: string, env: NodeJS.ProcessEnv): string[] {
  if (!recipe.git) return [];
  const section = recipe.git.section ?? 'git';
  const warnings: string[] = [];
  // Without git, "not inside a git repository" would send the user looking at the wrong thing.
  if (gitProgram(root, env) === null) warnings.push(`${section}: ${NO_GIT}, so the hand-off fails (exit 58) after the run; install git, or drop the section`);
  else if (!inGitWorkTree(root)) warnings.push(`${section}: the workspace ${root} is not inside a git repository, so the hand-off fails (exit 58) after the run; run it in a clone, or drop the section`);
  if (recipe.git.pullRequest && !githubToken(env)) warnings.push(`${section}.pull_request: ${NO_TOKEN}; without one the hand-off fails (exit 58) after the run`);
  return warnings;
}

/** Lines of the earlier run's transcript that are not in the conversation a continued run goes on with. */
export function earlierRunWarnings(earlier: EarlierRun | null): string[] {
  if (!earlier) return [];
  return [
    // A line a kill cut off: said, not passed over.
    ...earlier.unreadable.map((where) => `an earlier run's transcript has lines that are not events (cut off while written?), left out of the conversation this run goes on with: ${where}`),
    ...earlier.malformed.map((where) => `an earlier run's transcript has events with a field of the wrong type (changed after the run?), left out of the conversation this run goes on with: ${where}`),
  ];
}

/** The variable each peer reads its model from, for the provider that serves it here. */
const PEER_MODEL_VARIABLES: Partial<Record<ProviderName, { variable: string; peer: string }>> = {
  gemini: { variable: 'GEMINI_MODEL', peer: 'Gemini CLI' },
  anthropic: { variable: 'ANTHROPIC_MODEL', peer: 'Claude Code' },
  openai: { variable: 'OPENAI_MODEL', peer: 'Qwen Code' },
};

/**
 * A peer's model variable naming another model than the run's, with no --model given: a Gemini
 * CLI user with GEMINI_MODEL=gemini-2.5-pro ran gemini-2.5-flash without a word. Only flags and the
 * recipe choose the model here; said before the model spends anything.
 */
export function peerModelWarnings(recipe: Recipe, modelFlag: boolean, env: NodeJS.ProcessEnv): string[] {
  const peer = PEER_MODEL_VARIABLES[recipe.provider];
  const value = peer && !modelFlag ? env[peer.variable]?.trim() : undefined;
  if (!peer || !value || value === recipe.model) return [];
  return [`${peer.variable}=${value} is ${peer.peer}'s setting, which is not read here: this run uses ${recipe.model}${recipe.file ? " (the recipe's model, or the provider's default)" : " (the provider's default)"}; for ${value}, give --model ${value}`];
}
