// What an allowed command writes that no word of its line shows, checked before it runs: the
// members of an archive it extracts (archive-members.ts), the files a patch names
// (patch-targets.ts), a tree copied or moved into (or out of) a directory that holds protected
// paths, and git's configuration in a repository the line may have made (command-directories.ts).
// Each name is held to the workspace and the protected paths as shell-paths.ts holds a word.
import fs from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../util/workspace.js';
import { archiveWrites } from './archive-members.js';
import { foreignRepository } from './command-directories.js';
import { patchWrites } from './patch-targets.js';
import { protectedPrefix } from './protected-paths.js';
import { extractsNames } from './shell-extractors.js';
import { isDirectory } from '../util/paths.js';

/** What shell-paths.ts knows of where the command runs. */
export interface WriteContext {
  workspace: Workspace;
  /** Workspace-relative protected prefixes beyond .git and workflows. */
  protectedExtra: readonly string[];
  /** Every directory the command may run in. */
  runDirectories: readonly string[];
  /** Directories it takes words from besides (`-C`, its repository's top). */
  further: readonly string[];
  /** ` (taken from 'x', …)` for a reason, or ''. */
  from(directory: string): string;
  /** A path for a reason: workspace-relative when inside. */
  shown(p: string): string;
}

/** Why `argv` would write where no word shows and it may not, or null. `stdinFile`: the file on its stdin. */
export function unseenWriteProblem(argv: readonly string[], stdinFile: string | null, context: WriteContext): string | null {
  return foreignRepositoryProblem(argv, context) ?? archiveProblem(argv, context) ?? patchProblem(argv, stdinFile, context) ?? treeProblem(argv, context);
}

/** git in a repository other than the workspace's own: its configuration may run programs. */
function foreignRepositoryProblem(argv: readonly string[], context: WriteContext): string | null {
  if (path.posix.basename(argv[0] ?? '') !== 'git') return null;
  const root = fs.realpathSync(context.workspace.root);
  for (const directory of [...context.runDirectories, ...context.further]) {
    const foreign = foreignRepository(directory, root);
    if (foreign === null) continue;
    return (
      `git would run in the repository at '${context.shown(foreign)}', not the workspace's own: its configuration, which a command can write, may run programs ` +
      `(remote.*.uploadpack, core.sshCommand, filter and diff drivers); only the workspace's repository and its submodules are git's to use here${context.from(directory)}`
    );
  }
  return null;
}

/** Each member an extracting tar or unzip writes. The archive is opened where the command runs; its -C is archive-members.ts's to apply. */
function archiveProblem(argv: readonly string[], context: WriteContext): string | null {
  if (!extractsNames(argv)) return null;
  for (const directory of context.runDirectories) {
    const writes = archiveWrites(argv, directory, context.workspace.root);
    if (writes === null) continue;
    if ('problem' in writes) return writes.problem + context.from(directory);
    const problem = namesProblem(`the archive '${writes.archive}' holds`, writes.names, writes.into, context);
    if (problem) return problem + context.from(directory);
  }
  return null;
}

/** Each file a patch names. The patch file is read where the command runs; git takes the names from its repository's top too. */
function patchProblem(argv: readonly string[], stdinFile: string | null, context: WriteContext): string | null {
  for (const directory of context.runDirectories) {
    const writes = patchWrites(argv, directory, stdinFile);
    if (writes === null) return null;
    if ('problem' in writes) return writes.problem + context.from(directory);
    const into = path.posix.basename(argv[0] ?? '') === 'git' ? [...writes.into, ...context.further] : writes.into;
    const problem = namesProblem(`the patch '${writes.file}' names`, writes.names, into, context);
    if (problem) return problem + context.from(directory);
  }
  return null;
}

/** The first of `names`, written from any of `into`, that leaves the workspace or reaches a protected path. */
function namesProblem(subject: string, names: readonly string[], into: readonly string[], context: WriteContext): string | null {
  for (const directory of into) {
    for (const name of names) {
      const resolved = context.workspace.resolvePhysically(directory, name);
      if (!resolved.ok) return `${subject} '${name}', which it would write outside the workspace: ${resolved.reason}`;
      const prefix = protectedPrefix(resolved.relative, context.protectedExtra);
      if (prefix !== null) return `${subject} '${name}', which it would write to '${resolved.relative}', a protected path ('${prefix || '.'}' is never written by shell)`;
    }
  }
  return null;
}

/**
 * A tree copied or moved into a directory that holds protected paths (the root, `.github`): its
 * names land under it unseen (`cp -r stage/. .` with stage/.github/workflows/x.yml, `mv gh
 * .github`), as do a checkout-index --prefix that is such a directory and a tree copied from one
 * (`cp -r . dst` makes dst/.git).
 */
function treeProblem(argv: readonly string[], context: WriteContext): string | null {
  const program = path.posix.basename(argv[0] ?? '');
  const words = argv.slice(1);
  const recursive = words.some((w) => /^-[A-Za-z]*[rRa]/.test(w) || /^--(recursive|archive)$/.test(w));
  const destination =
    ((program === 'cp' || program === 'rsync') && recursive) || program === 'mv'
      ? destinationOf(words)
      : program === 'git'
        ? (words.find((w) => w.startsWith('--prefix='))?.slice('--prefix='.length) ?? null)
        : null;
  if (destination === null) return null;
  const sources = program === 'git' ? [] : words.filter((w) => !w.startsWith('-') && w !== destination);
  const holds = (relative: string) => holdsProtected(relative, context.protectedExtra);
  for (const directory of context.runDirectories) {
    if (program !== 'mv') {
      for (const source of sources) {
        const resolved = context.workspace.resolvePhysically(directory, source.replace(/\/\.?$/, '') || '.');
        if (resolved.ok && isDirectory(resolved.path) && holds(resolved.relative)) {
          return `'${program}' copies '${resolved.relative || '.'}', which holds protected paths, and would write them again under names no word of the line shows; copy the directories you need by name${context.from(directory)}`;
        }
      }
    }
    const resolved = context.workspace.resolvePhysically(directory, destination);
    if (!resolved.ok || !holds(resolved.relative)) continue;
    // mv of a file into the root is a file's move; a directory brings its tree.
    if (program === 'mv' && !sources.some((source) => isDirectory(path.resolve(directory, source)))) continue;
    return `'${program}' puts a tree into '${resolved.relative || '.'}', which holds protected paths, under names no word of the line shows; copy into a directory of its own${context.from(directory)}`;
  }
  return null;
}

/** The destination of cp, mv or rsync: -t's value, or the last operand. */
function destinationOf(words: readonly string[]): string | null {
  const target = words.findIndex((w) => w === '-t' || w.startsWith('--target-directory'));
  if (target >= 0) return words[target]!.includes('=') ? words[target]!.split('=')[1]! : (words[target + 1] ?? null);
  const operands = words.filter((w) => !w.startsWith('-'));
  return operands.length >= 2 ? operands.at(-1)! : null;
}

/** The workspace-relative directory `relative` is, or holds, a protected path (.git, .github/workflows, the recipe, the run output). */
function holdsProtected(relative: string, extra: readonly string[]): boolean {
  if (relative === '') return true;
  return ['.github/workflows', '.git', ...extra].some((prefix) => prefix === relative || prefix.startsWith(`${relative}/`)) || protectedPrefix(relative, extra) !== null;
}

