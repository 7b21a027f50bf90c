// A branch whose commit holds Git LFS files is whole on origin only with their content in origin's
// LFS store, which `git push` leaves to git-lfs's pre-push hook. The hand-off runs no hook, so a
// pushed branch held pointers to objects origin never got: the report said pushed: true, and a
// clone of the branch failed with 'remote missing object'. So before the push, git-lfs itself
// (the user's, found on PATH outside the workspace as the runner's git is) uploads what the
// branch's commits point to and origin's refs here do not, as the hook would have.
import { gitComplaint, type GitResult } from './git-exec.js';

type Git = (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<GitResult>;

const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** Uploads the LFS objects of refs/heads/BRANCH's tip commit to origin; why it could not, or null (done, or none to upload). */
export async function uploadLfsObjects(run: Git, branch: string): Promise<string | null> {
  const ref = `refs/heads/${branch}`;
  if (!(await touchesLfs(run, ref))) return null;
  // `.lfsconfig` in the work tree says where LFS objects go (lfs.url), and the sandbox lets a
  // command write it: objects go only where the committed one sends them.
  if (!(await lfsConfigAsInHead(run))) {
    return "the work tree's .lfsconfig is not as HEAD has it, and it says where LFS objects go, so the branch's LFS files are not uploaded and the branch is not pushed (its LFS files would have no content on origin); look at .lfsconfig, then push the branch yourself";
  }
  const pushed = await run(['lfs', 'push', 'origin', ref], {}, UPLOAD_TIMEOUT_MS);
  if (pushed.ok) return null;
  // No git-lfs here: no clean filter ran either, so the commit holds the files themselves, not pointers.
  if (/'lfs' is not a git command/.test(pushed.stderr)) return null;
  return `git lfs push of the branch's LFS files failed, so the branch is not pushed: ${gitComplaint(pushed)}`;
}

/** Whether the tip commit changes a file .gitattributes sends to LFS (true when git cannot tell: uploading what is there is harmless). */
async function touchesLfs(run: Git, ref: string): Promise<boolean> {
  const files = await run(['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', ref]);
  if (!files.ok) return true;
  const names = files.stdout.split('\0').filter(Boolean);
  if (names.length === 0) return false;
  // Names are paths here, not pathspecs; `check-attr -z` answers path, attribute, value, each NUL-ended.
  const attrs = await run(['check-attr', '-z', 'filter', '--', ...names]);
  if (!attrs.ok) return true;
  const fields = attrs.stdout.split('\0');
  for (let i = 2; i < fields.length; i += 3) if (fields[i] === 'lfs') return true;
  return false;
}

/** True when `.lfsconfig` at the top of the work tree is what HEAD holds (or neither has one), as git sees it. */
async function lfsConfigAsInHead(run: Git): Promise<boolean> {
  // Untracked, ignored, modified or staged: any line means it differs from HEAD's. No optional locks:
  // status must not refresh the person's index.
  const status = await run(['--no-optional-locks', 'status', '--porcelain', '-z', '--ignored=matching', '--untracked-files=all', '--', ':(top,literal).lfsconfig']);
  return status.ok && status.stdout === '';
}
