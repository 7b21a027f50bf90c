// Path rules for the file tools (compiled by recipe/rule-path.ts): a picomatch glob over the
// workspace-relative canonical path (`src/**`, `docs/*.md`). Allow rules match case-sensitively (fewer matches), deny rules
// case-insensitively (more matches). A deny rule on a tool that walks directories also covers
// a walk that would reach files the glob names: `grep: "secrets/**"` refuses a grep over `.`.
import { picomatchLib } from '../util/globs.js';
import type { PathPattern } from '../recipe/rules.js';
import type { Workspace } from '../util/workspace.js';
import { isDirectory } from '../util/paths.js';

export { PATH_TOOLS } from '../recipe/rules.js';
/** Tools that read whole directory trees from the paths they are given (the workspace root by default). */
export const WALK_TOOLS: ReadonlySet<string> = new Set(['ls', 'grep', 'glob', 'read_many_files']);

export interface PathTarget {
  /** As the model gave it. */
  input: string;
  /** Canonical, workspace-relative, `/`-separated; '' for the root. */
  relative: string;
  /** Where a walk from this target starts (the static part of a glob-like input). */
  walkBase: string;
  /** A directory (or a glob-like input): a walk may reach anything below it. */
  directory: boolean;
}

/** Resolve every input through the workspace; the first one outside (or at credentials) ends it with a reason. */
export function resolveTargets(inputs: readonly string[], workspace: Workspace): { ok: true; targets: PathTarget[] } | { ok: false; reason: string; credentials?: true } {
  const targets: PathTarget[] = [];
  for (const input of new Set(inputs)) {
    // As the tools resolve it: credentials inside the workspace are refused too (Workspace.keptAt).
    const resolved = workspace.resolveForTools(input);
    if (!resolved.ok) return resolved;
    const scanned = picomatchLib().scan(resolved.relative);
    const globLike = scanned.isGlob;
    const walkBase = globLike ? scanned.base : resolved.relative;
    targets.push({ input, relative: resolved.relative, walkBase, directory: globLike || isDirectory(resolved.path) });
  }
  return { ok: true, targets };
}

export function allowCovers(pattern: PathPattern, target: PathTarget): boolean {
  return target.relative !== '' && pattern.matchCase(target.relative);
}

/** `walk`: the tool reads everything below a directory target. */
export function denyCovers(pattern: PathPattern, target: PathTarget, walk: boolean): boolean {
  if (target.relative !== '' && pattern.matchNoCase(target.relative)) return true;
  if (!walk || !target.directory) return false;
  // The walk and the glob are on one line of descent when either base lies at or below the other.
  const a = target.walkBase.toLowerCase();
  const b = pattern.base.toLowerCase();
  return a === '' || b === '' || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

