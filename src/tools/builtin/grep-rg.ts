// ripgrep as grep's file finder. It walks the tree and counts matches per file on every core at
// ripgrep speed; the JavaScript side then reads only the files that matter (those with a match,
// and those ripgrep did not count as text) in the grep workers, in walk order, with the tool's
// own regular expression, binary rule, caps and output. So the answer is the JavaScript answer,
// found in ripgrep's time (see grep-regex.ts for why ripgrep's pattern is a superset).
//
// Most searches take one ripgrep process (grep-rg-one-pass.ts): no include glob, no .gitignore
// above the searched directory, no nested repository. Otherwise two run side by side over the
// same tree with the walk's rules: `--files` (every file the walk would visit) and `--count
// --include-zero` (each text file of at most 1 MB with its match count; binary files, those with
// a NUL byte, are left out). A file in the first list and not the second (binary, too large,
// unreadable, or left out by a difference between the two gitignore implementations) is judged
// as the JavaScript walk would.
//
// ripgrep is told to follow the walk's rules as far as flags go: hidden files included,
// .gitignore files read (inside or outside a git repository), not .ignore, global excludes or
// .git/info/exclude, no user config, .git, node_modules and .unattended skipped, no symbolic link
// followed, and nothing above the searched directory read. Where its gitignore logic still
// differs (it stops applying a parent's .gitignore at a nested repository; the .gitignore files
// above a searched subdirectory), the listing is filtered again with the walk's own rules, so
// only files the walk would visit are ever reported or counted. What no flag or filter can mend
// (a .rgignore, which ripgrep always reads; a .gitignore line globset reads otherwise than git; a
// .gitignore that is a link) is found beside the search, and the JavaScript walk searches instead
// (grep-rg-ignore-files.ts).
//
// Not sandboxed: ripgrep is started with a fixed argv built here (the pattern after -e, the path
// after --), follows no link to a file or directory it searches, writes only into the output
// files opened for it here and opens no socket; a sandbox would add 7-13 ms to every search. The
// ignore files it reads (.gitignore, .rgignore) it opens as any program does, through a link or a
// FIFO: what that could do (read without end, wait for ever) is bounded in grep-rg-guard.ts.
import fs from 'node:fs';
import type { Workspace } from '../../util/workspace.js';
import { hostProgram } from '../../util/host-program.js';
import { ALWAYS_SKIPPED, IgnoreRules } from '../walk.js';
import { MAX_GREP_FILE_BYTES } from './grep-worker.js';
import { DEBUG_LOG_BUDGET, onePass } from './grep-rg-one-pass.js';
import { notCounted, RipgrepPaths, unreadableInLog } from './grep-rg-output.js';
import { ignoreFilesReadAlike, ruleSourcesInLog } from './grep-rg-ignore-files.js';
import { fsPath, joinPath } from '../path-bytes.js';
import type { UnreadablePaths } from '../unreadable-paths.js';
import { COMMON_PATTERN_FILES, CountStream, run, sortInWalkOrder, type RipgrepProcess } from './grep-rg-process.js';

/** ripgrep on PATH, never one inside the workspace (util/host-program.ts: it runs outside the sandbox). */
export function findRipgrep(pathVariable: string | undefined, workspace: string = process.cwd()): string | null {
  return hostProgram('rg', pathVariable, workspace);
}

export interface RipgrepListing {
  /** Files the workers must read, workspace-relative, in walk order. */
  toRead: string[];
  /**
   * Those of them ripgrep did not count (binary, over 1 MB, unreadable, or a file its gitignore
   * reading left out): most are skipped as binary or large without a worker (see judgeUnread).
   */
  unjudged: ReadonlySet<string>;
  /** Text files ripgrep searched that hold no match: searched, and nothing to read. */
  emptyTextFiles: number;
  /** Files and directories ripgrep could not read (its messages say which). */
  unreadable: UnreadablePaths;
  /** The ignore files whose rules decided an entry, per ripgrep's log (see ripgrepListing). */
  ruleSources: ReadonlySet<string>;
}

export interface RipgrepSearch {
  rg: string;
  workspace: Workspace;
  /** Canonical directory to search, inside the workspace, and its workspace-relative form. */
  start: string;
  startRelative: string;
  /** Rust regex (a superset of the JavaScript pattern). */
  regex: string;
  /** The include glob's forms (grep.ts includeGlobs), a file matching any of them. */
  include?: readonly string[];
  /** The JavaScript include matcher, on workspace-relative paths. */
  included: (relative: string) => boolean;
  signal: AbortSignal;
  /** Past this, ripgrep is killed and the JavaScript walk searches with the time left. */
  giveUp?: AbortSignal;
}


/**
 * What ripgrep found, or null when the JavaScript walk should search instead: ripgrep refused the
 * pattern, or the pattern is common (see COMMON_PATTERN_FILES).
 */
export async function ripgrepListing(search: RipgrepSearch): Promise<RipgrepListing | null> {
  // The tree's ignore files are listed and judged alongside the search; ignore files ripgrep would
  // read otherwise than the walk stop it at once (see grep-rg-ignore-files.ts).
  const unlike = new AbortController();
  const checked = { ...search, giveUp: search.giveUp ? AbortSignal.any([search.giveUp, unlike.signal]) : unlike.signal };
  const ignoreFiles = listIgnoreFiles(checked)
    .then((files) => (files && ignoreFilesReadAlike(search.workspace.root, files) ? files : null))
    .catch(() => null)
    .then((files) => {
      if (!files) unlike.abort();
      return files;
    });
  let listing: RipgrepListing | null = null;
  try {
    if (search.include === undefined && (await IgnoreRules.above(search.workspace, search.start)).empty) {
      const one = await onePass(checked, commonArgs(checked));
      listing = one === 'two passes' ? await twoPasses(checked) : one;
    } else listing = await twoPasses(checked);
  } finally {
    // Settled either way: a search cancelled here leaves no listing pass behind.
    if (!listing) unlike.abort();
  }
  const files = await ignoreFiles;
  search.signal.throwIfAborted();
  if (!listing || !files) return null;
  // Every ignore file whose rules decided an entry must be one judged here: a .gitignore that is
  // a link, which ripgrep reads and git does not, is in no listing of regular files.
  const judged = new Set(files);
  for (const source of listing.ruleSources) if (!judged.has(source)) return null;
  return listing;
}

/** The .gitignore and .rgignore files ripgrep reads in the search (workspace-relative), or null when it could not say. */
async function listIgnoreFiles(search: RipgrepSearch): Promise<string[] | null> {
  const { common, where, process } = commonArgs(search);
  const args = [...common.filter((flag) => !isSkip(flag)), '--no-messages', '--files', '--glob=.gitignore', '--glob=.rgignore', ...skipped(), ...where];
  const listed = await run(process, args);
  if (listed.stopped || listed.abandoned || listed.code === null) return null;
  return RipgrepPaths.parse(listed.stdout, false)?.names ?? null;
}

/** The walk's rules as ripgrep flags (see the file comment), and where to search. */
export function commonArgs(search: RipgrepSearch): { common: string[]; where: string[]; process: RipgrepProcess } {
  const common = [
    // Messages stay on: they name the paths ripgrep could not read (see unreadableInLog).
    '--no-config', '--hidden', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-global', '--no-ignore-exclude',
    '--no-require-git', '--null',
    // Bytes as they are, as the walk reads them: no BOM stripped, no UTF-16 decoded (which hid a
    // match on the BOM, and counted a UTF-16 file the walk skips as binary).
    '--encoding=none',
    ...skipped(),
  ];
  return { common, where: ['--', search.startRelative || '.'], process: { rg: search.rg, cwd: search.workspace.root, signal: search.signal, giveUp: search.giveUp } };
}

/** Directories never searched, as globs. They must come after an include glob: ripgrep's last matching glob wins (`--glob=*` brought node_modules back). */
function skipped(): string[] {
  return [...ALWAYS_SKIPPED].map((name) => `--glob=!${name}/`);
}

const isSkip = (flag: string) => flag.startsWith('--glob=!');

/**
 * The general case: `--files` and `--count --include-zero` side by side, the listing filtered
 * with the walk's own .gitignore reading where ripgrep's can differ, and the include glob applied
 * as the walk applies it.
 */
async function twoPasses(search: RipgrepSearch): Promise<RipgrepListing | null> {
  const { common: all, where, process } = commonArgs(search);
  const common = all.filter((flag) => !isSkip(flag));
  // `--flag=value` throughout: a value that starts with '-' can never be read as a flag.
  const include = (search.include ?? []).map((glob) => `--glob=${glob}`);
  const counted = new CountStream();
  // --max-count 1: whether a file holds a match is all that is needed (the workers find the lines).
  const countArgs = [...common, '--count', '--include-zero', '--max-count', '1', '--max-filesize', String(MAX_GREP_FILE_BYTES), ...include, ...skipped(), `--regexp=${search.regex}`, ...where];
  const listing = new AbortController();
  const [counting, listed] = await Promise.all([
    run(process, countArgs, (chunk) => counted.add(chunk) > COMMON_PATTERN_FILES, MESSAGES_BUDGET).finally(() => {
      if (counted.withMatch > COMMON_PATTERN_FILES) listing.abort();
    }),
    // --debug: the ignore files whose rules decided an entry (see ripgrepListing); past the budget
    // (a line each in some 60 writes: see grep-rg-one-pass.ts) the JavaScript walk searches.
    run({ ...process, signal: AbortSignal.any([search.signal, listing.signal]) }, [...common, '--no-messages', '--debug', ...skipped(), '--files', ...where], undefined, DEBUG_LOG_BUDGET),
  ]);
  // Cancelled or out of time: the caller says so (ripgrep was killed, what it printed is partial).
  search.signal.throwIfAborted();
  if (counting.stopped || listed.stopped || counting.code === null || listed.code === null || listed.overBudget) return null;
  const unreadable = unreadableInLog(counting.stderr, search.workspace.root);
  const ruleSources = ruleSourcesInLog(listed.stderr);
  if (!unreadable || !ruleSources) return null;
  // Exit 2 with nothing printed: the pattern was refused (or nothing could be read).
  if (counting.code === 2 && counted.bytes === 0) return null;
  if (listed.code === 2 && listed.stdout.length === 0) return null;

  // Per-file work is what costs on a tree of 200,000 small files, so the common case (no filter,
  // no include) makes no string per file: only the files to read are named.
  const counts = RipgrepPaths.parse(counted.output(), true);
  const listedPaths = RipgrepPaths.parse(listed.stdout, false);
  if (!counts || !listedPaths) return null;
  // An include glob is an override to ripgrep, and overrides win over .gitignore: the counting
  // pass also counts the ignored files it matches, which the listing does not hold. So the
  // counted files are no subset of the listed ones there, and each listed file is looked up.
  const uncounted = search.include === undefined ? notCounted(listedPaths, counts) : null;
  const countedNames = uncounted ? null : new Set(counts.names);
  const visible = await walkFilter(search, listedPaths);
  const matched = new Set<string>();
  for (let i = 0; i < counts.length; i++) if (counts.matched[i]) matched.add(counts.name(i));
  if (!visible && uncounted) {
    const unjudged = new Set([...uncounted].map((i) => listedPaths.name(i)));
    return { toRead: sortInWalkOrder([...matched, ...unjudged]), unjudged, emptyTextFiles: counts.length - counts.matchedCount, unreadable, ruleSources };
  }
  let emptyTextFiles = 0;
  const toRead: string[] = [];
  const unjudged = new Set<string>();
  for (let i = 0; i < listedPaths.length; i++) {
    const relative = listedPaths.name(i);
    if (!search.included(relative) || (visible && !visible(relative))) continue;
    if (uncounted ? uncounted.has(i) : !countedNames!.has(relative)) unjudged.add(relative);
    else if (!matched.has(relative)) {
      emptyTextFiles++;
      continue;
    }
    toRead.push(relative);
  }
  return { toRead: sortInWalkOrder(toRead), unjudged, emptyTextFiles, unreadable, ruleSources };
}

/** ripgrep's messages kept from a counting pass: a line per path it could not read; past this, JavaScript searches. */
const MESSAGES_BUDGET = 4 * 1024 * 1024;


/**
 * Whether the JavaScript walk would visit a file ripgrep listed (workspace-relative), or null when
 * ripgrep's listing is already the walk's: ripgrep reads the same .gitignore files with git's
 * rules, except those above the searched directory (the walk applies them, --no-ignore-parent
 * keeps ripgrep inside) and those above a nested repository (ripgrep stops applying them there).
 * When either is in play, every directory on the way and the file itself are checked against the
 * .gitignore files in force there, read as the walk reads them; each directory is decided once.
 */
async function walkFilter(search: RipgrepSearch, listed: RipgrepPaths): Promise<((relative: string) => boolean) | null> {
  // Every directory below the start that holds a listed file, and those on the way to it.
  const dirs = new Set<string>();
  for (const listedDir of listed.dirs) {
    for (let dir = listedDir; dir.length > search.startRelative.length && !dirs.has(dir); dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) dirs.add(dir);
  }
  const root = search.workspace.root;
  const at = (dir: string) => (dir ? joinPath(root, fsPath(dir)) : root);
  const nestedRepository = [...dirs].some((dir) => fs.existsSync(joinPath(at(dir), '.git')));
  if (!nestedRepository && (await IgnoreRules.above(search.workspace, search.start)).empty) return null;
  // Asked of the disk, not of ripgrep's listing: a .gitignore that ignores itself is never listed.
  const withGitignore = new Set([...dirs].filter((dir) => fs.existsSync(joinPath(at(dir), '.gitignore'))));
  // null: the directory is ignored, and so is everything under it.
  const rulesOf = new Map<string, IgnoreRules | null>([[search.startRelative, await IgnoreRules.forDirectory(search.workspace, search.start)]]);
  // Parents before children: a path sorts after its prefix.
  for (const dir of [...dirs].sort()) {
    const above = rulesOf.get(dir.slice(0, Math.max(0, dir.lastIndexOf('/'))));
    const ignored = !above || above.ignores(dir, true);
    rulesOf.set(dir, ignored ? null : await above.enter(at(dir), dir, withGitignore.has(dir)));
  }
  return (relative) => {
    const rules = rulesOf.get(relative.slice(0, Math.max(0, relative.lastIndexOf('/'))));
    return rules !== null && rules !== undefined && !rules.ignores(relative, false);
  };
}

