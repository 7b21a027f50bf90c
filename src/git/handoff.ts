// The git hand-off: after a successful run, what the run changed goes onto a new branch as one
// commit (and optionally to origin), so a person reviews a branch instead of a dirty checkout.
// Git's own view decides what changed: shell commands change files the report never saw.
import path from 'node:path';
import type { GitHandoff } from '../recipe/types.js';
import type { GitHandoffReport } from '../report/report.js';
import { isStrictlyInside } from '../util/paths.js';
import { git, gitComplaint, type GitOptions } from './git-exec.js';

export const DEFAULT_AUTHOR = Object.freeze({ name: 'unattended', email: 'unattended@localhost' });

const LOCAL_TIMEOUT_MS = 60_000;
const PUSH_TIMEOUT_MS = 5 * 60_000;

export interface HandoffRequest {
  config: GitHandoff;
  /** The run's workspace: only changes inside it are committed. */
  workspace: string;
  /** The run's outputs (transcript, report): never committed, even when inside the workspace. */
  outDir: string;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export async function handOff(req: HandoffRequest): Promise<GitHandoffReport> {
  const { config } = req;
  const report: GitHandoffReport = { branch: config.branch, commit: null, pushed: false, skipped: null, error: null, push_error: null, files: [] };
  const opts = (timeoutMs: number): GitOptions => ({ cwd: req.workspace, signal: req.signal, timeoutMs, parentEnv: req.env ?? process.env });
  const run = (args: string[], timeoutMs = LOCAL_TIMEOUT_MS) => git(args, opts(timeoutMs));
  const fail = (why: string) => ({ ...report, error: why });

  const top = await run(['rev-parse', '--show-toplevel']);
  if (!top.ok) return fail(`the workspace ${req.workspace} is not inside a git repository (${gitComplaint(top, 1)})`);

  const scope = pathspecs(req.workspace, req.outDir);
  const status = await run(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...scope]);
  if (!status.ok) return fail(`git status failed: ${gitComplaint(status)}`);
  if (status.stdout === '') return { ...report, skipped: 'nothing changed' };

  const existing = await run(['rev-parse', '--verify', '--quiet', `refs/heads/${config.branch}`]);
  if (existing.ok) return fail(`branch '${config.branch}' already exists; the changes are left uncommitted in the workspace`);

  const checkout = await run(['checkout', '-q', '-b', config.branch]);
  if (!checkout.ok) return fail(`cannot create branch '${config.branch}': ${gitComplaint(checkout)}`);

  // From here on a failure must not leave the workspace on the new branch: a rerun would then
  // refuse it as "already exists". Back to where we were, and the empty branch goes; without the
  // signal, so that an interrupted hand-off still cleans up (two quick local commands).
  const local = (args: string[]) => git(args, { ...opts(LOCAL_TIMEOUT_MS), signal: undefined });
  const undo = async (why: string) => {
    const back = await local(['checkout', '-q', '-']);
    if (!back.ok) return fail(`${why}; the workspace is left on branch '${config.branch}' (cannot switch back: ${gitComplaint(back)})`);
    const drop = await local(['branch', '-D', config.branch]);
    return fail(drop.ok ? why : `${why}; branch '${config.branch}' is left behind (${gitComplaint(drop)})`);
  };

  const add = await run(['add', '-A', '--', ...scope]);
  if (!add.ok) return undo(`git add failed: ${gitComplaint(add)}`);

  const author = config.author ?? DEFAULT_AUTHOR;
  const identity = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  // --only semantics (paths given): anything staged outside the workspace before the run stays out.
  const commit = await git(['commit', '-q', '--no-verify', '--cleanup=strip', '-m', config.commitMessage, '--', ...scope], {
    ...opts(LOCAL_TIMEOUT_MS),
    env: identity,
  });
  if (!commit.ok) return undo(`git commit failed: ${gitComplaint(commit)}`);

  const head = await run(['rev-parse', 'HEAD']);
  if (!head.ok) return fail(`cannot read the new commit: ${gitComplaint(head)}`);
  report.commit = head.stdout.trim();
  const files = await run(['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', 'HEAD']);
  // The commit stands, but a report that lists no files for it would be wrong: say so instead.
  if (!files.ok) return fail(`cannot list the files of commit ${report.commit}: ${gitComplaint(files)}`);
  report.files = files.stdout.split('\0').filter(Boolean);

  if (config.push) {
    const push = await run(['push', '--no-verify', '--quiet', '-u', 'origin', config.branch], PUSH_TIMEOUT_MS);
    if (push.ok) report.pushed = true;
    else report.push_error = gitComplaint(push);
  }
  return report;
}

/** The workspace, minus the run's own output directory when it lies inside. */
function pathspecs(workspace: string, outDir: string): string[] {
  if (!isStrictlyInside(workspace, outDir)) return ['.'];
  return ['.', `:(exclude,literal)${path.relative(workspace, outDir).split(path.sep).join('/')}`];
}
