// A batch's targets: the lines of --targets, then what --org, --topic and --search find on
// GitHub (each repository once, a target already in the file keeps its place).
import path from 'node:path';
import { readTargetsFile, targetKey, targetSlug, type Target } from './targets.js';
import { describeQuery, hasGitHubQuery, listGitHubTargets, type GitHubTargetQuery } from './github-targets.js';
import { InputError } from '../recipe/index.js';

export interface CollectedTargets {
  targets: Target[];
  warnings: string[];
  /** Where they came from, for reports: `targets.txt`, `--org acme`, or both. */
  source: string;
}

/**
 * The targets file's lines, and the check that something names the targets: a usage error, told
 * before the slower and costlier checks of a batch (the recipe's key and price, GitHub's listing).
 */
export function readTargetSources(file: string | null, query: GitHubTargetQuery): Pick<CollectedTargets, 'targets' | 'warnings'> {
  if (file === null && !hasGitHubQuery(query)) throw new InputError('name the targets: --targets FILE, or GitHub repositories with --org, --topic or --search');
  return file === null ? { targets: [], warnings: [] } : readTargetsFile(file);
}

export async function collectTargets(
  file: string | null,
  query: GitHubTargetQuery,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
  fromFile = readTargetSources(file, query),
): Promise<CollectedTargets> {
  const targets: Target[] = [...fromFile.targets];
  if (hasGitHubQuery(query)) {
    const known = new Set(targets.map(targetKey));
    for (const url of await listGitHubTargets(query, env, signal)) {
      const key = targetKey({ kind: 'git', location: url });
      if (known.has(key)) continue;
      known.add(key);
      targets.push({ index: targets.length, spec: url, kind: 'git', location: url, slug: targetSlug(url) });
    }
  }
  const source = [file === null ? '' : path.resolve(file), hasGitHubQuery(query) ? describeQuery(query) : ''].filter(Boolean).join(' + ');
  return { targets, warnings: fromFile.warnings, source };
}
