// What a run changed, as git sees it, whichever tool changed it. File tools report their own
// diffs, but a shell command (a formatter, `sed -i`, a code generator) or an MCP tool changes files
// the runner never sees. In a git workspace the content is recorded as a tree object before the
// first call that can change anything, and again at the end; their diff is every change the run
// made, and nothing the workspace already had. Nothing in the repository changes: the trees are
// built in a temporary index, and only objects are added to .git.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalPath, isStrictlyInside } from '../util/paths.js';
import { gitEnvironment, gitProgram, safeGitArgs } from './git-env.js';
import { randomHex } from '../util/random-name.js';
import { keepPinnedLayout } from './pinned-layout.js';
import { capDiff } from '../util/unified-diff.js';
import { nearestRepository } from '../util/nearest-repository.js';
import { joinPath, reportedBytes, reportedName } from '../tools/path-bytes.js';
import { killProcessGroup, track, untrack } from '../tools/process-groups.js';
import { snapshotTimer } from './snapshot-deadline.js';
import { releaseFifoWaits } from './fifo-waits.js';
import { isRegularFile } from '../util/read-regular-file.js';

export interface SnapshotChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  diff: string;
}

/** More stdout than this is a failed snapshot, not a run that runs out of memory. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/** True when `dir` is inside a git work tree (a `.git` above it); cheap, no process. */
export function inGitWorkTree(dir: string): boolean {
  return nearestRepository(dir) !== null;
}

/**
 * True when the repository around `root` ignores `root` itself (a `workspace_mode: copy` workspace
 * under an ignored `.unattended`, a scratch folder a `.gitignore` lists): git records nothing in it,
 * so for the run it is no git work tree.
 */
export async function ignoredByItsRepository(root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  // Exit 0: ignored; 1: not ignored; 128: no repository. Only 0 is an answer (run gives '').
  return (await run(root, ['check-ignore', '-q', '.'], env)) !== null;
}

/**
 * Output directories as snapshot exclusions, those that lie inside the workspace: the run's own,
 * and the ones other runs write meanwhile (a batch's output directory, UNATTENDED_BATCH_DIR).
 */
export function snapshotExcludes(root: string, outDir: string, others: readonly string[] = []): string[] {
  // As git sees them: an --out given through a link into the workspace is still the run's own.
  const realRoot = canonicalPath(root);
  return [outDir, ...others]
    .map((dir) => canonicalPath(dir))
    .filter((dir) => isStrictlyInside(realRoot, dir))
    .map((dir) => path.relative(realRoot, dir).split(path.sep).join('/'));
}

/**
 * The output directory of the batch this run is a target of: the batch names it in its runs'
 * environment, as other targets' runs write there while this one runs.
 */
export function batchOutputDirs(env: NodeJS.ProcessEnv): string[] {
  const dir = env.UNATTENDED_BATCH_DIR;
  return dir && path.isAbsolute(dir) ? [dir] : [];
}

/** Where runs and batches started in the work tree keep their records by default (runner-paths.ts, batch.ts). */
const RECORD_DIRS = ['.unattended/runs', '.unattended/batches'];

/**
 * The workspace's content (tracked and untracked, not ignored) as a tree id; null when git cannot
 * tell (not a repository, git missing). `exclude`: workspace-relative paths left out (the run's
 * own output directory when it lies inside the workspace).
 */
/** `marked`: gets the paths the real index marks skip-worktree or assume-unchanged (which the snapshot looks at anyway). */
export async function snapshotTree(root: string, exclude: readonly string[], env: NodeJS.ProcessEnv, marked?: string[]): Promise<string | null> {
  const index = path.join(os.tmpdir(), `unattended-index-${randomHex(6)}`);
  try {
    const source = await realIndexOf(root, env);
    if (source === null) return null;
    // Starting from the real index lets git trust its stat cache: only changed files are hashed.
    // A command may have left a FIFO there (`mkfifo .git/index`), whose copy would wait forever on
    // the event loop's thread: such an index is none, and git builds the snapshot's from scratch.
    if (isRegularFile(source)) {
      fs.copyFileSync(source, index, fs.constants.COPYFILE_FICLONE);
      // Keep the index's own mtime: git treats an entry changed in the same second as the index was
      // written as "racily clean" and compares its content. A copy dated now would hide a same-size
      // edit made right after the user's last `git add` or checkout (git compares stat, not bytes).
      const { atime, mtime } = fs.statSync(source);
      fs.utimesSync(index, atime, mtime);
      if (!(await clearHidingMarks(root, env, index, marked))) return null;
    }
    const unexamined = mayHaveGitlinks(index, path.dirname(source)) ? await setGitlinksAside(root, env, index) : [];
    if (unexamined === null) return null;
    // Literal: an output directory named `out[1]` must not also exclude `out1` as a glob would.
    // Only what git does not ignore already: naming an ignored path, even to exclude it, makes
    // `git add` fail ("paths are ignored"), and a repository that ignores .unattended is common.
    // Runs' and batches' records are left out (other runs write there meanwhile), not the whole
    // .unattended: a recipe a repository keeps in it, changed by a command, is a change.
    const excluded = await notIgnored(root, [...RECORD_DIRS, ...exclude], env);
    const pathspec = ['.', ...excluded.map((p) => `:(exclude,literal)${p}`)].map((p) => Buffer.from(p));
    pathspec.push(...unexamined.map((p) => Buffer.concat([Buffer.from(':(exclude,literal)'), p])));
    if (!(await addAll(root, env, index, nulJoined(pathspec)))) return null;
    return (await run(root, ['write-tree'], env, index))?.trim() || null;
  } catch {
    return null;
  } finally {
    fs.rmSync(index, { force: true });
  }
}

/**
 * `git add --all` into our index. A repository nested in the workspace with no commit yet (`git
 * init sub`, nothing committed: a test fixture, a tool's scratch) has nothing a tree can record,
 * and git then refuses the whole add ("does not have a commit checked out"), which would leave the
 * run with no snapshot at all. So the add is made again with --ignore-errors, and only such
 * repositories are left out; any other error still fails the snapshot.
 */
async function addAll(root: string, env: NodeJS.ProcessEnv, index: string, pathspec: Buffer): Promise<boolean> {
  const add = (more: string[]) => runForOutcome(root, ['-c', 'advice.addEmbeddedRepo=false', 'add', '--all', ...more, '--pathspec-from-file=-', '--pathspec-file-nul'], env, index, pathspec);
  const first = await add([]);
  if (first.ok) return true;
  if (!onlyUncommittedRepositories(first.stderr)) return false;
  const again = await add(['--ignore-errors']);
  return again.ok || onlyUncommittedRepositories(again.stderr);
}

/** git's complaints (in the C locale) are all of a nested repository with no commit. */
function onlyUncommittedRepositories(stderr: string): boolean {
  const lines = stderr.split('\n').filter((line) => line.trim() && line !== 'fatal: adding files failed');
  return lines.length > 0 && lines.every((line) => /^error: '.+' does not have a commit checked out$/.test(line));
}

/**
 * The copied index may mark entries assume-unchanged or skip-worktree (`git update-index
 * --skip-worktree Makefile`, which any command can run): `git add` never looks at such a file
 * again, so a change to it would be missing from the snapshot, from files_changed and from the
 * user's `git status`. Our copy loses the marks: assume-unchanged everywhere, skip-worktree where
 * the file is in the work tree (a sparse checkout's absent files keep it, or they would read as
 * deleted). False when git could not list the index.
 */
async function clearHidingMarks(root: string, env: NodeJS.ProcessEnv, index: string, marked?: string[]): Promise<boolean> {
  const listed = await runForBytes(root, ['ls-files', '-v', '-z'], env, index);
  if (listed === null) return false;
  const assumed: Buffer[] = [];
  const skipped: Buffer[] = [];
  for (const entry of splitNul(listed)) {
    // `ls-files -v`: a tag letter, a space, the path; lower case is assume-unchanged, S skip-worktree.
    const tag = String.fromCharCode(entry[0] ?? 0);
    const file = entry.subarray(2);
    const assumedHere = tag !== tag.toUpperCase();
    const skippedHere = tag.toUpperCase() === 'S' && fs.existsSync(Buffer.concat([Buffer.from(`${root}${path.sep}`), file]));
    if (assumedHere) assumed.push(file);
    if (skippedHere) skipped.push(file);
    if (assumedHere || skippedHere) marked?.push(file.toString());
  }
  for (const [flag, files] of [['--no-assume-unchanged', assumed], ['--no-skip-worktree', skipped]] as const) {
    if (files.length > 0 && (await runForBytes(root, ['update-index', flag, '-z', '--stdin'], env, index, nulJoined(files))) === null) return false;
  }
  return true;
}

/**
 * The workspace-relative paths git does not ignore (one `git check-ignore` for them all). Asked at
 * every snapshot: a tool may change a .gitignore during the run.
 */
async function notIgnored(root: string, paths: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  // Exit 0 lists the ignored ones; exit 1 (none ignored) or a failure gives null: keep them all.
  const listed = await runForBytes(root, ['check-ignore', '-z', '--stdin'], env, undefined, nulJoined(paths.map((p) => Buffer.from(p))));
  if (listed === null) return [...paths];
  const ignored = new Set(listed.toString('utf8').split('\0').filter(Boolean));
  return paths.filter((p) => !ignored.has(p));
}

/**
 * `git add` runs `git status` inside each checked-out repository its index has a gitlink for, and
 * that status runs under the inner repository's own config: a clean filter a command planted in
 * an embedded repository (`git init sub`, `git add sub`) would run here, on the host. Nothing tells
 * `git add` not to. So each such gitlink leaves the temporary index first, and `add --all` records
 * the repository afresh, as the embedded repository it is: its HEAD, which git reads itself. A
 * gitlink with nothing checked out stays as it is, and its path is returned to be left out of the
 * pathspec, so that one checked out meanwhile is not gone into either. Paths are git's bytes,
 * relative to `root`.
 */
async function setGitlinksAside(root: string, env: NodeJS.ProcessEnv, index: string): Promise<Buffer[] | null> {
  const listed = await runForBytes(root, ['ls-files', '--stage', '-z'], env, index);
  if (listed === null) return null;
  const checkedOut: Buffer[] = [];
  const unexamined: Buffer[] = [];
  for (const link of gitlinksIn(listed)) {
    const dotGit = Buffer.concat([Buffer.from(`${root}/`), link, Buffer.from('/.git')]);
    (fs.lstatSync(dotGit, { throwIfNoEntry: false }) ? checkedOut : unexamined).push(link);
  }
  if (checkedOut.length && (await run(root, ['update-index', '--force-remove', '-z', '--stdin'], env, index, nulJoined(checkedOut))) === null) return null;
  return unexamined;
}

/** A gitlink's mode (0160000) as an index entry holds it: four bytes, network order. */
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);

/**
 * False only when the index file certainly has no gitlink, which spares most snapshots a listing
 * of their index (a tenth of a second at 100,000 files): every entry holds its mode in full (index
 * versions 2 to 4 alike), so an index without those four bytes anywhere has none. A split index
 * keeps entries in a shared file in the git directory too: with one there, it cannot tell.
 */
function mayHaveGitlinks(index: string, gitDir: string): boolean {
  if (!fs.existsSync(index)) return false;
  if (fs.readdirSync(gitDir).some((name) => name.startsWith('sharedindex.'))) return true;
  return fs.readFileSync(index).includes(GITLINK_MODE);
}

/** The paths of the gitlinks (mode 160000) in `ls-files --stage -z` output. */
function gitlinksIn(listing: Buffer): Buffer[] {
  const links: Buffer[] = [];
  // Most indexes have none: one search finds that out.
  if (listing.indexOf('160000 ') < 0) return links;
  for (let start = 0; start < listing.length; ) {
    const nul = listing.indexOf(0, start);
    const end = nul < 0 ? listing.length : nul;
    if (listing.toString('latin1', start, start + 7) === '160000 ') links.push(listing.subarray(listing.indexOf(9, start) + 1, end));
    start = end + 1;
  }
  return links;
}

/** The NUL-terminated items of git's -z output, as bytes (a file name need not be UTF-8). */
function splitNul(bytes: Buffer): Buffer[] {
  const items: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nul = bytes.indexOf(0, start);
    const end = nul < 0 ? bytes.length : nul;
    if (end > start) items.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return items;
}

function nulJoined(items: readonly Buffer[]): Buffer {
  return Buffer.concat(items.flatMap((item) => [item, Buffer.from([0])]));
}

/**
 * Where the workspace's own index is, asked of git once per workspace for the life of the process:
 * a run snapshots the same workspace several times (the baseline, the end, around every round of
 * success checks, the hand-off), and the answer depends only on where the repository is, which a
 * run does not move (the environment cannot redirect it: gitEnvironment strips GIT_DIR and the
 * like). Were it moved all the same (a tool runs `git init` in a workspace that was a folder of a
 * bigger repository), the stale path only seeds the temporary index: `add --all` drops the entries
 * the work tree lacks and rehashes what their stat data does not vouch for, and a tree naming an
 * object the new repository lacks fails to write (write-tree checks), a null snapshot as any git
 * failure is; the baseline of the other repository could not be compared with it anyway.
 * Only answers are kept, so a workspace that becomes a repository during the run is asked again.
 */
const indexPaths = new Map<string, string>();

async function realIndexOf(root: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const known = indexPaths.get(root);
  if (known !== undefined) return known;
  const answer = await run(root, ['rev-parse', '--git-path', 'index'], env);
  if (answer === null) return null;
  const resolved = path.resolve(root, answer.trim());
  indexPaths.set(root, resolved);
  return resolved;
}

/** The repository's object directory (a linked work tree's is its main repository's), absolute; null when git cannot tell. */
export async function objectsDirectory(root: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const answer = await run(root, ['rev-parse', '--git-path', 'objects'], env);
  return answer === null ? null : path.resolve(root, answer.trim());
}

/**
 * What git ignores and does not track under `root` now, repository-relative (`--full-name`), an
 * ignored directory once, with a `/` (`--directory`); null when git cannot tell.
 */
export async function ignoredUntracked(root: string, env: NodeJS.ProcessEnv, { fullName = true } = {}): Promise<string[] | null> {
  const args = ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', ...(fullName ? ['--full-name'] : []), '-z'];
  const out = await runForBytes(root, args, env);
  return out === null ? null : splitNul(out).map(reportedName);
}

/** True when `file` is one of `entries` or lies in one of its directories (those end in `/`). */
export function listedIn(file: string, entries: readonly string[]): boolean {
  return entries.some((entry) => file === entry || (entry.endsWith('/') && file.startsWith(entry)));
}

/**
 * Every file that differs between two snapshots, with a unified diff, paths relative to `root`;
 * null when git cannot list them (the caller must not take that for "nothing changed").
 */
export async function changesBetween(root: string, from: string, to: string, env: NodeJS.ProcessEnv): Promise<SnapshotChange[] | null> {
  const diff = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--no-renames', '--relative', from, to];
  // The names from -z, byte for byte: in the patch git quotes a name with non-ASCII bytes, a tab or
  // a quote ("b/\303\251.txt") and ends one with a space with a tab, which no reader should undo.
  // The patch may fail alone (larger than the output buffer: a command rewrote a 50 MB file): the
  // names still say what changed.
  const [names, patch] = await Promise.all([runForBytes(root, [...diff, '--name-status', '-z', '--', '.'], env), run(root, [...diff, '--', '.'], env)]);
  if (names === null) return null;
  // A file gone from the later tree but still on disk was not deleted: a changed .gitignore (or
  // info/exclude) now hides it, and saying "deleted" would make up a change the run did not make.
  // A directory there now is no such file: the file was deleted and a directory made in its place.
  return withDiffs(parseNameStatus(names), patch).filter((c) => c.status !== 'deleted' || !stillAFile(joinPath(root, reportedBytes(c.path))));
}

/** Whether something other than a directory is at `file` (a link counts, as git records one). */
function stillAFile(file: string | Buffer): boolean {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  return stat !== undefined && !stat.isDirectory();
}

/** Which of `files` (relative to `root`) are in the snapshot `tree`; none when git cannot tell. */
export async function presentIn(root: string, tree: string, files: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  if (files.length === 0) return [];
  const out = await runForBytes(root, ['ls-tree', '-r', '-z', '--name-only', tree, '--', ...files.map((f) => `:(literal)${f}`)], env);
  return out === null ? [] : out.toString('utf8').split('\0').filter((f) => f && files.includes(f));
}

/** `git diff --name-status -z`: a status letter, then the path, each ended by NUL (no renames asked for). */
export function parseNameStatus(out: Buffer): Omit<SnapshotChange, 'diff'>[] {
  const fields = splitNul(out);
  const files: Omit<SnapshotChange, 'diff'>[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const letter = fields[i]!.toString('latin1');
    // A name that is not UTF-8 as the listing tools show it (reportedName), not with U+FFFD.
    files.push({ path: reportedName(fields[i + 1]!), status: letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified' });
  }
  return files;
}

/**
 * Each file's part of the patch: a mode change's `old mode`/`new mode` lines, then from its `---`
 * line or its `Binary files` line. Both listings come in git's path order, one entry per file, so
 * they pair by position; a name can never split the patch, since git quotes one with a line break.
 * `patch` null: git could not give it (too large), which each diff says.
 */
export function withDiffs(files: Omit<SnapshotChange, 'diff'>[], patch: string | null): SnapshotChange[] {
  const chunks = patch === null ? [] : patch.split(/^diff --git /m).slice(1);
  return files.map((file, i) => {
    if (chunks.length !== files.length) return { ...file, diff: patch === null ? '(no diff: git could not give the patch of the changes, larger than 64 MB)\n' : '' };
    const lines = chunks[i]!.split('\n');
    const modes = lines.filter((l) => l.startsWith('old mode ') || l.startsWith('new mode '));
    const body = lines.findIndex((l) => l.startsWith('--- ') || l.startsWith('Binary files'));
    const text = [...modes, ...(body === -1 ? [] : lines.slice(body))].join('\n').replace(/\n*$/, '');
    return { ...file, diff: text ? capDiff(`${text}\n`) : '' };
  });
}

/**
 * stdout, or null when git failed: a snapshot is best effort and never fails the run. `index`: our
 * temporary index; an index file the caller's environment names is never used (gitEnvironment
 * strips it), so a run started from a git hook cannot snapshot through someone else's index.
 */
async function run(cwd: string, args: string[], env: NodeJS.ProcessEnv, index?: string, input?: Buffer): Promise<string | null> {
  return (await runForBytes(cwd, args, env, index, input))?.toString('utf8') ?? null;
}

async function runForBytes(cwd: string, args: string[], env: NodeJS.ProcessEnv, index?: string, input?: Buffer): Promise<Buffer | null> {
  const outcome = await runForOutcome(cwd, args, env, index, input);
  return outcome.ok ? outcome.stdout : null;
}

/** Whether git succeeded, its stdout, and its stderr in the C locale (for the one caller that reads it). */
function runForOutcome(cwd: string, args: string[], env: NodeJS.ProcessEnv, index?: string, input?: Buffer): Promise<{ ok: boolean; stdout: Buffer; stderr: string }> {
  const program = gitProgram(cwd, env);
  if (program === null) return Promise.resolve({ ok: false, stdout: Buffer.alloc(0), stderr: '' });
  // Change tracking's git writes objects only (add, write-tree; the index is a temporary one).
  keepPinnedLayout(cwd, 'objects');
  const gitEnv = gitEnvironment(env, { LC_ALL: 'C', ...(index ? { GIT_INDEX_FILE: index } : {}) }, cwd);
  return new Promise((resolve) => {
    // In a process group of its own, tracked: a run stopped while git hashes a big workspace (a
    // minute for a few GB) kills it on the way out. In the runner's group and tracked by nothing,
    // it outlived the run, writing objects into the repository after the report said cancelled.
    // spawn, not execFile: execFile hands spawn a fixed set of options, and `detached` is not one.
    const child = spawn(program, [...safeGitArgs(cwd, gitEnv), ...args], { cwd, env: gitEnv, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid !== undefined) track(pid);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let failed = false;
    const stop = () => {
      failed = true;
      if (pid !== undefined) killProcessGroup(pid, 'SIGKILL');
    };
    const disarm = snapshotTimer(stop);
    // A FIFO named .gitignore or .gitattributes would hold git until that timer (fifo-waits.ts).
    const unwatch = pid !== undefined ? releaseFifoWaits(pid) : () => {};
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) stop();
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      disarm();
      unwatch();
      if (pid !== undefined) {
        killProcessGroup(pid, 'SIGKILL'); // what git left in its group (a timed-out git's children)
        untrack(pid);
      }
      resolve({ ok: ok && !failed, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') });
    };
    child.on('error', () => settle(false));
    child.on('close', (code) => settle(code === 0));
    // git may exit before reading it all (a bad pathspec): the error is its exit status, not EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
