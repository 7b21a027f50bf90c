// Paths no tool writes unless a rule names them: any `.git` directory (hooks and config run
// code), a file the repository's git config includes, `.github/workflows` (CI runs with the
// repository's secrets), and the paths the runner adds (the recipe file, the run output directory). Compared case-insensitively everywhere, so
// `.GIT/config` on a case-insensitive file system is the same `.git/config`.
import type { Workspace } from '../util/workspace.js';
import { commonDirOf, findGitDir, gitDirConfigSources, submoduleGitDirs } from '../util/git-config-sources.js';

/**
 * The files the repository's git configuration is read from, included ones too, existing or not
 * (`include.path = ../shared.gitconfig`): a line that wrote a filter there, then ran an allowed `git
 * add`, would run it, since git's programs are neutralised as the call starts. Outside `.git`
 * only these need naming; the sandbox holds the existing ones read-only the same way.
 */
export function repositoryConfigFiles(root: string): string[] {
  const gitDir = findGitDir(root);
  if (!gitDir) return [];
  return [gitDir, ...submoduleGitDirs(gitDir)].flatMap((dir) => gitDirConfigSources(dir));
}

/**
 * The repository's git directory, and the common one a linked work tree's names, whatever they are
 * called: a `.git` file can name one in the workspace (`git init --separate-git-dir=.bare`, a
 * bare repository beside its work trees), whose hooks and config run code as `.git`'s do.
 */
export function repositoryGitDirs(root: string): string[] {
  const gitDir = findGitDir(root);
  return gitDir ? [...new Set([gitDir, commonDirOf(gitDir)])] : [];
}

/** Workspace-relative protected prefixes for the runner's extra paths (those inside the workspace). */
export function protectedPrefixes(workspace: Workspace, extra: readonly string[]): string[] {
  const prefixes: string[] = [];
  for (const p of extra) {
    const resolved = workspace.resolve(p);
    // Outside the workspace: confinement already keeps every tool away from it.
    if (resolved.ok) prefixes.push(resolved.relative);
  }
  return prefixes;
}

/** The protected prefix `relative` falls under (as it appears in `relative`), or null. */
export function protectedPrefix(relative: string, extra: readonly string[]): string | null {
  const lower = relative.toLowerCase();
  const segments = relative.split('/');
  const gitAt = segments.findIndex((segment) => segment.toLowerCase() === '.git');
  if (gitAt >= 0) return segments.slice(0, gitAt + 1).join('/');
  if (isAtOrBelow(lower, '.github/workflows')) return relative.slice(0, '.github/workflows'.length);
  for (const prefix of extra) {
    if (prefix === '' || isAtOrBelow(lower, prefix.toLowerCase())) return prefix === '' ? '' : relative.slice(0, prefix.length);
  }
  return null;
}

/** True when a rule's pattern spells out the protected prefix itself (`.github/workflows/ci.yml`). */
export function patternNamesPrefix(pattern: string, prefix: string): boolean {
  // A protected workspace root (output directory = workspace) cannot be named: every write is refused.
  if (prefix === '') return false;
  const normalized = pattern.trim().replace(/^\.\//, '').toLowerCase();
  return isAtOrBelow(normalized, prefix.toLowerCase());
}

function isAtOrBelow(lowerPath: string, lowerPrefix: string): boolean {
  if (lowerPrefix === '') return true;
  return lowerPath === lowerPrefix || lowerPath.startsWith(`${lowerPrefix}/`);
}
