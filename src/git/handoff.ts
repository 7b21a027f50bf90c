// The git hand-off: after a successful run, what the run changed goes onto a new branch as one
// commit (and optionally to origin), so a person reviews a branch instead of a dirty checkout.
//
// Only what the run changed: the workspace was recorded as a tree when the run started
// (snapshot.ts), and again now; the commit applies exactly the difference to HEAD's tree, in a
// temporary index. Files the user had modified or created before the run, earlier run outputs and
// this run's own outputs stay out. A file the user had modified that the run changed too gets only
// the run's change when that applies on its own, and is left out (and named) when it does not.
// The user's checkout is never switched: the commit is built with commit-tree and the branch
// created with update-ref, so their branch, index and uncommitted work stay as they were.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GitHandoff } from '../recipe/types.js';
import type { GitHandoffReport } from '../types/changes.js';
import { git, gitComplaint, type GitOptions, type GitResult } from './git-exec.js';
import { NO_GIT } from './git-env.js';
import { repositoryProblem } from './refused-repository.js';
import { batchOutputDirs, listedIn, snapshotTree, snapshotExcludes } from './snapshot.js';
import { leftUnseen } from './handoff-unseen.js';
import { rewrittenObjects, rewrittenObjectsMessage } from './rewritten-objects.js';
import { localBranchProblem } from './own-branch.js';
import { pushBranch } from './push-branch.js';
import type { HandoffBaseline } from './handoff-step.js';
import type { MadeBranch } from './handoff-interrupted.js';
import { originUrls } from './origin.js';
import { randomHex } from '../util/random-name.js';
import { reportedBytes, reportedName } from '../tools/path-bytes.js';

/** A push was asked of a repository without a remote named origin. */
export const NO_ORIGIN = "the repository has no remote named 'origin'";

export const DEFAULT_AUTHOR = Object.freeze({ name: 'unattended', email: 'unattended@localhost' });

const LOCAL_TIMEOUT_MS = 60_000;
/** Verifying a pack a command's fetch brought hashes every object in it (and a commit-graph reads every commit). */
const PACK_TIMEOUT_MS = 5 * 60_000;
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface HandoffRequest {
  config: GitHandoff;
  /** The run's workspace: only changes inside it are committed. */
  workspace: string;
  /** The run's outputs (transcript, report): never committed, even when inside the workspace. */
  outDir: string;
  /** The workspace as a tree when the run started, and origin's URLs then (handoff-step.ts): a push goes there or nowhere. */
  baseline: HandoffBaseline | null;
  /** The paths files_changed lists (workspace-relative): one git cannot commit is named in left_out. */
  reported?: readonly string[];
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** How long a stopped push may spend asking origin whether it got the branch (handoff-interrupted.ts); tests on a loaded machine give more. */
  originCheckMs?: number;
}

interface TreeEntry {
  mode: string;
  object: string;
}

export async function handOff(req: HandoffRequest): Promise<GitHandoffReport> {
  const made: MadeBranch = { ref: null, pushStarted: false };
  const report = await commitAndPush(req, made);
  if (!req.signal?.aborted) return report;
  const { settleInterrupted } = await import('./handoff-interrupted.js');
  return settleInterrupted(req, report, made);
}

async function commitAndPush(req: HandoffRequest, made: MadeBranch): Promise<GitHandoffReport> {
  const { config } = req;
  const report: GitHandoffReport = { branch: config.branch, commit: null, pushed: false, skipped: null, error: null, push_error: null, files: [], left_out: [] };
  // A git command the stop killed failed because of it: settleInterrupted says what happened instead.
  const fail = (why: string) => ({ ...report, error: req.signal?.aborted ? null : why });

  const top = await git(['rev-parse', '--show-toplevel'], { cwd: req.workspace, parentEnv: req.env ?? process.env });
  if (!top.ok && top.stderr === NO_GIT) return fail(`${NO_GIT}: nothing is committed`);
  if (!top.ok) return fail(repositoryProblem(req.workspace, top));
  const root = top.stdout.trim();
  const opts = (timeoutMs: number, env: Record<string, string> = {}): GitOptions => ({ cwd: root, signal: req.signal, timeoutMs, parentEnv: req.env ?? process.env, env });
  const run = (args: string[], env?: Record<string, string>, timeoutMs = LOCAL_TIMEOUT_MS, encoding: GitOptions['encoding'] = 'utf8') => git(args, { ...opts(timeoutMs, env), encoding });

  const baseline = req.baseline?.tree;
  if (!baseline) return fail('the workspace could not be recorded when the run started, so what the run changed is unknown; nothing is committed');
  const after = await snapshotTree(req.workspace, snapshotExcludes(req.workspace, req.outDir, batchOutputDirs(req.env ?? process.env)), req.env ?? process.env);
  if (!after) return fail('the workspace could not be recorded at the end of the run; nothing is committed');
  // Only inside the workspace: a change elsewhere in the repository is not this run's to commit.
  const scope = path.relative(root, fs.realpathSync(req.workspace)).split(path.sep).join('/');
  const changed = after === baseline ? null : await run(['diff-tree', '-r', '--no-renames', '--name-only', '-z', baseline, after, '--', ...(scope ? [`:(literal)${scope}`] : [])], undefined, LOCAL_TIMEOUT_MS, 'latin1');
  if (changed && !changed.ok) return fail(`cannot list what the run changed: ${gitComplaint(changed)}`);
  const paths = changed ? namesIn(changed.stdout) : [];
  // What the report lists and no tree holds (ignored, in a nested repository): named, never dropped.
  report.left_out.push(...(await leftUnseen((args, input) => git(args, { ...opts(LOCAL_TIMEOUT_MS), encoding: 'latin1', ...(input === undefined ? {} : { input }) }), root, scope, req.reported ?? [], new Set(paths))));
  if (paths.length === 0) return { ...report, skipped: report.left_out.length > 0 ? 'nothing git can commit changed' : 'nothing changed' };
  // A command of the run committed, or checked out another branch: the person's branch is not as
  // the run found it, and a commit on top of it would carry (or miss) work no one reviewed.
  const headThen = req.baseline?.head;
  const headNow = await run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (headThen !== undefined && (headNow.ok ? headNow.stdout.trim() : null) !== headThen) {
    const branch = (await run(['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
    return fail(`HEAD moved during the run (${short(headThen)} → ${headNow.ok ? short(headNow.stdout.trim()) : 'none'}${branch ? ` on ${branch}` : ''}): a command of the run committed or checked out, so nothing is committed; look at ${branch || 'HEAD'} (git log) before you re-run`);
  }

  // A commit reuses HEAD's objects and the snapshot's: one a command rewrote would ride along unseen.
  const since = req.baseline?.since;
  if (since !== undefined) {
    const objects = await run(['rev-parse', '--git-path', 'objects']);
    if (!objects.ok) return fail(`cannot find the repository's objects: ${gitComplaint(objects)}`);
    const dir = path.resolve(root, objects.stdout.trim());
    const rewritten = await rewrittenObjects({ objects: dir, since, verify: async (args) => (await run(args, undefined, PACK_TIMEOUT_MS)).ok });
    if (rewritten.length > 0) return fail(rewrittenObjectsMessage(dir, rewritten));
  }

  const author = config.author ?? DEFAULT_AUTHOR;
  const existing = await run(['rev-parse', '--verify', '--quiet', `refs/heads/${config.branch}`]);
  // With a pull request, a re-run replaces its own earlier branch (and so updates the pull request).
  const replacing = existing.ok && config.pullRequest ? existing.stdout.trim() : null;
  if (existing.ok && !replacing) return fail(`branch '${config.branch}' already exists; the changes are left uncommitted in the workspace`);
  if (replacing) {
    const problem = await localBranchProblem(run, config.branch, replacing, author.email);
    if (problem) return fail(problem);
  }
  const head = await run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const parent = head.ok ? head.stdout.trim() : null;

  const index = path.join(os.tmpdir(), `unattended-handoff-${randomHex(6)}`);
  const withIndex = { GIT_INDEX_FILE: index };
  try {
    const read = await run(['read-tree', parent ?? EMPTY_TREE], withIndex);
    if (!read.ok) return fail(`cannot read HEAD's tree: ${gitComplaint(read)}`);
    const [inHead, inBaseline, inAfter] = await Promise.all([entries(run, parent ?? EMPTY_TREE, paths), entries(run, baseline, paths), entries(run, after, paths)]);
    const clean: string[] = [];
    const dirtyBefore: string[] = [];
    const ignoredBefore = req.baseline?.ignoredBefore ?? [];
    for (const file of paths) {
      // There before the run, hidden by an ignore rule the run changed: the person's, not the run's.
      if (!inBaseline.has(file) && listedIn(file, ignoredBefore)) {
        report.left_out.push({ path: file, reason: 'it was there before the run, ignored by git; the run changed the ignore rules, not the file' });
        continue;
      }
      (sameEntry(inHead.get(file), inBaseline.get(file)) ? clean : dirtyBefore).push(file);
    }

    // Files the run alone touched: their new state, as it is in the after-tree.
    // NUL-ended, the name as its bytes: a name need not be UTF-8, and may hold a line break.
    const lines = clean.map((file) => {
      const entry = inAfter.get(file);
      return Buffer.concat([Buffer.from(entry ? `${entry.mode} ${entry.object}\t` : `0 ${'0'.repeat(40)}\t`), reportedBytes(file), Buffer.from([0])]);
    });
    if (lines.length) {
      const update = await git(['update-index', '-z', '--index-info'], { ...opts(LOCAL_TIMEOUT_MS, withIndex), input: Buffer.concat(lines) });
      if (!update.ok) return fail(`cannot stage the run's changes: ${gitComplaint(update)}`);
    }
    // Files that were already modified before the run: only the run's own change, if it applies.
    for (const file of dirtyBefore) {
      // An argument is UTF-8: a name that is not cannot be asked for by name.
      if (!isUtf8(reportedBytes(file))) {
        report.left_out.push({ path: file, reason: 'it was changed before the run too, and its name is not UTF-8, so the run\'s change cannot be taken apart from yours' });
        continue;
      }
      // As bytes (latin1 both ways): a line that is not UTF-8 (a Latin-1 'café') read as UTF-8
      // became U+FFFD, and the commit held bytes the file never had.
      const patch = await run(['diff', '--binary', '--no-ext-diff', '--no-textconv', '--full-index', baseline, after, '--', `:(literal)${file}`], undefined, LOCAL_TIMEOUT_MS, 'latin1');
      const applied = patch.ok && patch.stdout ? await git(['apply', '--cached', '--whitespace=nowarn', '-'], { ...opts(LOCAL_TIMEOUT_MS, withIndex), input: Buffer.from(`${patch.stdout}\n`, 'latin1') }) : null;
      if (!applied?.ok) report.left_out.push({ path: file, reason: clashReason(inHead.has(file), inBaseline.has(file), inAfter.has(file), patch.stdout.includes('\nGIT binary patch\n')) });
    }

    const tree = await run(['write-tree'], withIndex);
    if (!tree.ok) return fail(`cannot write the commit's tree: ${gitComplaint(tree)}`);
    const headTree = parent ? (await run(['rev-parse', `${parent}^{tree}`])).stdout.trim() : EMPTY_TREE;
    if (tree.stdout.trim() === headTree) return { ...report, skipped: 'nothing the run changed could be committed' };

    const identity = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_COMMITTER_NAME: author.name, GIT_COMMITTER_EMAIL: author.email };
    const commit = await run(['commit-tree', tree.stdout.trim(), ...(parent ? ['-p', parent] : []), '-m', config.commitMessage.trim() || 'unattended run'], identity);
    if (!commit.ok) return fail(`git commit-tree failed: ${gitComplaint(commit)}`);
    const sha = commit.stdout.trim();
    // The old value makes the update fail if the branch appeared or moved meanwhile: never overwritten.
    // Counted as made before it runs: a stop can kill update-ref after it wrote the branch, and
    // settleInterrupted then finds it there (and removes it) rather than taking the kill for a no.
    made.ref = { root, sha, previous: replacing };
    const ref = await run(['update-ref', '-m', 'unattended hand-off', `refs/heads/${config.branch}`, sha, replacing ?? '']);
    if (!ref.ok) {
      if (!req.signal?.aborted) made.ref = null;
      return fail(`cannot create branch '${config.branch}': ${gitComplaint(ref)}`);
    }
    report.commit = sha;
    const files = await run(['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', sha], undefined, LOCAL_TIMEOUT_MS, 'latin1');
    if (!files.ok) return fail(`cannot list the files of commit ${sha}: ${gitComplaint(files)}`);
    report.files = namesIn(files.stdout);
  } finally {
    fs.rmSync(index, { force: true });
  }

  if (config.push) {
    const then = req.baseline?.origin;
    const now = then === undefined ? null : await originUrls(req.workspace, req.env ?? process.env);
    if (then !== undefined && now !== then) {
      return { ...report, push_error: `origin changed during the run (${then ?? 'none'} → ${now ?? 'none'}), so the branch is not pushed: a command of the run may have repointed it` };
    }
    // git's own words for it ("'origin' does not appear to be a git repository") read as a broken remote.
    if (then === null) return { ...report, push_error: `${NO_ORIGIN}, so the branch is not pushed: add one (git remote add origin URL), then push it (git push origin ${config.branch})` };
    const push = await pushBranch(run, config, author.email, req.signal);
    made.pushStarted = push.started;
    if (push.replaced !== undefined) report.replaced = push.replaced;
    report.pushed = push.pushed;
    report.push_error = push.push_error;
  }
  return report;
}

/** Why a file the person had changed before the run, and the run changed too, is not committed. */
function clashReason(inHead: boolean, inBaseline: boolean, inAfter: boolean, binary: boolean): string {
  if (!inHead) return 'it was new and not committed before the run (untracked), so the run\'s change cannot be told from yours';
  if (!inBaseline) return 'it was deleted (not committed) before the run, and the run made it again';
  // "Lines at or near yours" would send the person looking for lines a deletion or a binary file has not.
  if (!inAfter) return 'it had uncommitted changes before the run, and the run deleted it (the file with your changes is gone from the work tree)';
  if (binary) return 'it is binary and had uncommitted changes before the run, so the run\'s change cannot be taken apart from yours';
  return 'it had uncommitted changes before the run, and the run changed lines at or near them (within 3 lines)';
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 12) : 'none';
}

/** The tree entries of `paths` in `tree` (absent paths are missing from the map). */
async function entries(run: (args: string[], env?: Record<string, string>, timeoutMs?: number, encoding?: GitOptions['encoding']) => Promise<GitResult>, tree: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  // ls-tree reads its path arguments as patterns, not names: list the tree and pick the paths here.
  const wanted = new Set(paths);
  const map = new Map<string, TreeEntry>();
  const listed = await run(['ls-tree', '-r', '-z', '--full-tree', tree], undefined, LOCAL_TIMEOUT_MS, 'latin1');
  for (const line of listed.stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const name = reportedName(Buffer.from(line.slice(tab + 1), 'latin1'));
    if (!wanted.has(name)) continue;
    const [mode, , object] = line.slice(0, tab).split(' ');
    map.set(name, { mode: mode!, object: object! });
  }
  return map;
}

/** The names in git's -z output read as latin1 (one character a byte), as the report names files. */
function namesIn(latin1: string): string[] {
  return latin1
    .split('\0')
    .filter(Boolean)
    .map((name) => reportedName(Buffer.from(name, 'latin1')));
}

function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a?.mode === b?.mode && a?.object === b?.object;
}
