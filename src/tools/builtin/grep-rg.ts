// ripgrep as grep's file finder. It walks the tree and counts matches per file on every core at
// ripgrep speed; the JavaScript side then reads only the files that matter (those with a match,
// and those ripgrep did not count as text) in the grep workers, in walk order, with the tool's
// own regular expression, binary rule, caps and output. So the answer is the JavaScript answer,
// found in ripgrep's time (see grep-regex.ts for why ripgrep's pattern is a superset).
//
// Two ripgrep processes run side by side over the same tree with the walk's rules: `--files`
// (every file the walk would visit) and `--count --include-zero` (each text file of at most 1 MB
// with its match count; binary files, those with a NUL byte, are left out). A file in the first
// list and not the second (binary, too large, unreadable, or left out by a difference between the
// two gitignore implementations) goes to the workers, which decide as the JavaScript walk would.
//
// ripgrep is told to follow the walk's rules exactly: hidden files included, .gitignore files
// read (inside or outside a git repository) and nothing else (.ignore, .rgignore, global and
// .git/info/exclude ignored, no user config), .git, node_modules and .unattended skipped, no
// symbolic link followed, and nothing above the searched directory read. Where its gitignore
// logic still differs (it stops applying a parent's .gitignore at a nested repository; the
// .gitignore files above a searched subdirectory), the listing is filtered again with the walk's
// own rules, so only files the walk would visit are ever reported or counted.
//
// Not sandboxed: ripgrep is started with a fixed argv built here (the pattern after -e, the path
// after --), reads only inside the workspace, follows no link, writes nothing and opens no
// socket; it is the same trust as the in-process JavaScript walk that it replaces, and a sandbox
// would add 7-13 ms to every search.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Workspace } from '../../util/workspace.js';
import { ALWAYS_SKIPPED, IgnoreRules } from '../walk.js';
import { MAX_GREP_FILE_BYTES } from './grep-worker.js';
import { notCounted, RipgrepPaths } from './grep-rg-output.js';

/** At most this much of ripgrep's stderr is kept, to explain a failure. */
const STDERR_KEPT = 4096;

const found = new Map<string, string | null>();

/** The `rg` executable on PATH (cached per PATH), or null. */
export function findRipgrep(pathVariable: string | undefined): string | null {
  const key = pathVariable ?? '';
  if (found.has(key)) return found.get(key)!;
  let result: string | null = null;
  for (const dir of key.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry would depend on the cwd
    const candidate = path.join(dir, 'rg');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) {
        result = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  found.set(key, result);
  return result;
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
}

export interface RipgrepSearch {
  rg: string;
  workspace: Workspace;
  /** Canonical directory to search, inside the workspace, and its workspace-relative form. */
  start: string;
  startRelative: string;
  /** Rust regex (a superset of the JavaScript pattern). */
  regex: string;
  include?: string;
  /** The JavaScript include matcher, on workspace-relative paths. */
  included: (relative: string) => boolean;
  signal: AbortSignal;
}

/**
 * Past this many files with a match, ripgrep is stopped and the JavaScript walk searches instead:
 * matches that common fill the 200-match cap within the first files of the walk, while ripgrep,
 * searching in no particular order, would have to open every file to know which come first.
 */
export const COMMON_PATTERN_FILES = 1000;

/**
 * What ripgrep found, or null when the JavaScript walk should search instead: ripgrep refused the
 * pattern, or the pattern is common (see COMMON_PATTERN_FILES).
 */
export async function ripgrepListing(search: RipgrepSearch): Promise<RipgrepListing | null> {
  const common = [
    '--no-config', '--hidden', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-global', '--no-ignore-exclude',
    '--no-require-git', '--no-messages', '--null',
    ...[...ALWAYS_SKIPPED].map((name) => `--glob=!${name}/`),
  ];
  const where = ['--', search.startRelative || '.'];
  // `--flag=value` throughout: a value that starts with '-' can never be read as a flag.
  const include = search.include === undefined ? [] : [`--glob=${search.include}`];
  const counted = new CountStream();
  // --max-count 1: whether a file holds a match is all that is needed (the workers find the lines).
  const countArgs = [...common, '--count', '--include-zero', '--max-count', '1', '--max-filesize', String(MAX_GREP_FILE_BYTES), ...include, `--regexp=${search.regex}`, ...where];
  const listing = new AbortController();
  const [counting, listed] = await Promise.all([
    run(search, countArgs, (chunk) => counted.add(chunk) > COMMON_PATTERN_FILES).finally(() => {
      if (counted.withMatch > COMMON_PATTERN_FILES) listing.abort();
    }),
    run({ ...search, signal: AbortSignal.any([search.signal, listing.signal]) }, [...common, '--files', ...where]),
  ]);
  // Cancelled or out of time: the caller says so (ripgrep was killed, what it printed is partial).
  search.signal.throwIfAborted();
  if (counting.stopped || listed.stopped || counting.code === null || listed.code === null) return null;
  // Exit 2 with nothing printed: the pattern was refused (or nothing could be read).
  if (counting.code === 2 && counted.bytes === 0) return null;
  if (listed.code === 2 && listed.stdout.length === 0) return null;

  // Per-file work is what costs on a tree of 200,000 small files, so the common case (no filter,
  // no include) makes no string per file: only the files to read are named.
  const counts = RipgrepPaths.parse(counted.output(), true);
  const listedPaths = RipgrepPaths.parse(listed.stdout, false);
  const uncounted = notCounted(listedPaths, counts);
  const visible = await walkFilter(search, listedPaths);
  if (!visible && search.include === undefined) {
    const toRead = new Set<string>();
    for (let i = 0; i < counts.length; i++) if (counts.matched[i]) toRead.add(counts.name(i));
    const unjudged = new Set([...uncounted].map((i) => listedPaths.name(i)));
    return { toRead: sortInWalkOrder([...toRead, ...unjudged]), unjudged, emptyTextFiles: counts.length - counts.matchedCount };
  }
  const matched = new Set<string>();
  for (let i = 0; i < counts.length; i++) if (counts.matched[i]) matched.add(counts.name(i));
  let emptyTextFiles = 0;
  const toRead: string[] = [];
  const unjudged = new Set<string>();
  for (let i = 0; i < listedPaths.length; i++) {
    const relative = listedPaths.name(i);
    if (!search.included(relative) || (visible && !visible(relative))) continue;
    if (uncounted.has(i)) unjudged.add(relative);
    else if (!matched.has(relative)) {
      emptyTextFiles++;
      continue;
    }
    toRead.push(relative);
  }
  return { toRead: sortInWalkOrder(toRead), unjudged, emptyTextFiles };
}

/** The records of ripgrep's `--count` output as they stream in: counts the files with a match. */
class CountStream {
  private readonly chunks: Buffer[] = [];
  bytes = 0;
  /** Files with a match seen so far: with --max-count 1 the count is 0 or 1, so a NUL then `1`. */
  withMatch = 0;
  private nulAtEnd = false;

  /** Takes a chunk; returns how many files with a match were seen so far. */
  add(chunk: Buffer): number {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.nulAtEnd && chunk[0] !== 0x30) this.withMatch++;
    for (let nul = chunk.indexOf(0); nul >= 0; nul = chunk.indexOf(0, nul + 1)) {
      if (nul + 1 < chunk.length && chunk[nul + 1] !== 0x30) this.withMatch++;
    }
    this.nulAtEnd = chunk.length > 0 && chunk[chunk.length - 1] === 0;
    return this.withMatch;
  }

  output(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * The walk's order: names sorted at each level, depth first. Comparing paths with `/` replaced by
 * NUL (below every character a name can hold) orders them segment by segment, which is that.
 */
export function sortInWalkOrder(paths: string[]): string[] {
  return paths
    .map((p) => [p.replaceAll('/', '\0'), p] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, p]) => p);
}

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
  const nestedRepository = [...dirs].some((dir) => fs.existsSync(path.join(root, dir, '.git')));
  if (!nestedRepository && (await IgnoreRules.above(search.workspace, search.start)).empty) return null;
  const withGitignore = new Set<string>();
  for (let i = 0; i < listed.length; i++) {
    const name = listed.name(i);
    if (name === '.gitignore' || name.endsWith('/.gitignore')) withGitignore.add(listed.dirs[listed.dirOf[i]!]!);
  }
  // null: the directory is ignored, and so is everything under it.
  const rulesOf = new Map<string, IgnoreRules | null>([[search.startRelative, await IgnoreRules.forDirectory(search.workspace, search.start)]]);
  // Parents before children: a path sorts after its prefix.
  for (const dir of [...dirs].sort()) {
    const above = rulesOf.get(dir.slice(0, Math.max(0, dir.lastIndexOf('/'))));
    const ignored = !above || above.ignores(dir, true);
    rulesOf.set(dir, ignored ? null : await above.enter(path.join(root, dir), dir, withGitignore.has(dir)));
  }
  return (relative) => {
    const rules = rulesOf.get(relative.slice(0, Math.max(0, relative.lastIndexOf('/'))));
    return rules !== null && rules !== undefined && !rules.ignores(relative, false);
  };
}

interface Finished {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Killed because `enough` said so, or because the listing was no longer wanted. */
  stopped: boolean;
}

/**
 * Runs ripgrep to its end, or until `enough(chunk)` returns true (then kills it).
 *
 * With `enough`, ripgrep writes into an unlinked temporary file that is read every few
 * milliseconds, not into a pipe: a multi-threaded ripgrep writes each file's record with its own
 * write, and through a pipe each of those woke this process for one read of a few dozen bytes
 * (28,700 wake-ups and reads for a 28,700-file tree, ~0.2 s of CPU here and a context switch each
 * on ripgrep's side). A file takes them all without waking anyone. `--files` output is written in
 * large blocks by one thread: a pipe is as cheap there.
 */
function run(search: RipgrepSearch, args: string[], enough?: (chunk: Buffer) => boolean): Promise<Finished> {
  const output = enough ? openScratchFile() : null;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // No inherited environment: RIPGREP_CONFIG_PATH and friends must not change the search.
      child = spawn(search.rg, args, { cwd: search.workspace.root, env: {}, stdio: ['ignore', output?.fd ?? 'pipe', 'pipe'] });
    } catch {
      output?.close();
      resolve({ code: null, stdout: Buffer.alloc(0), stderr: '', stopped: false });
      return;
    }
    const chunks: Buffer[] = [];
    let stderr = '';
    let stopped = false;
    const kill = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    const take = (chunk: Buffer) => {
      if (chunk.length === 0 || stopped) return;
      if (enough ? enough(chunk) : (chunks.push(chunk), false)) kill();
    };
    if (search.signal.aborted) kill();
    else search.signal.addEventListener('abort', kill, { once: true });
    const poll = output ? setInterval(() => take(output.readNew()), OUTPUT_POLL_MS) : null;
    child.stdout?.on('data', take);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    let settled = false;
    const settle = (error: Error | null, code: number | null) => {
      if (settled) return; // 'error' can be followed by 'close'
      settled = true;
      search.signal.removeEventListener('abort', kill);
      if (poll) clearInterval(poll);
      if (output) {
        if (!error) take(output.readNew());
        output.close();
      }
      // A ripgrep that cannot be started (removed since, not executable) leaves the search to JavaScript.
      resolve({ code: error ? null : code, stdout: Buffer.concat(chunks), stderr, stopped });
    };
    child.once('error', (error) => settle(error, null));
    child.once('close', (code) => settle(null, code));
  });
}

/** How often ripgrep's output file is read while it runs (for `enough`). */
const OUTPUT_POLL_MS = 10;

interface ScratchFile {
  fd: number;
  /** The bytes written since the last call. */
  readNew(): Buffer;
  close(): void;
}

/**
 * A temporary file for ripgrep's output, already unlinked (nothing is left behind, whatever
 * happens), readable by this process only; or null when the temporary directory cannot take one
 * (then a pipe is used).
 */
function openScratchFile(): ScratchFile | null {
  let fd: number;
  const file = path.join(os.tmpdir(), `unattended-rg-${process.pid}-${randomBytes(8).toString('hex')}`);
  try {
    fd = fs.openSync(file, 'wx+', 0o600);
  } catch {
    return null;
  }
  try {
    fs.unlinkSync(file);
  } catch {
    // left behind in the temporary directory: harmless, and rare
  }
  let offset = 0;
  const readNew = (): Buffer => {
    const size = fs.fstatSync(fd).size;
    if (size <= offset) return Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(size - offset);
    let got = 0;
    while (got < chunk.length) {
      const n = fs.readSync(fd, chunk, got, chunk.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    offset += got;
    return chunk.subarray(0, got);
  };
  return { fd, readNew, close: () => fs.closeSync(fd) };
}
