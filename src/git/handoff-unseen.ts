// Files the report lists as changed that the hand-off's trees cannot hold: git ignores them, or
// they lie in a repository nested in the workspace (its gitlink records only a commit). They are
// not committed; left out silently, a run whose only work is there would end a success with
// nothing on its branch. Each is named in `left_out`, with why.
import fs from 'node:fs';
import type { GitResult } from './git-exec.js';
import { reportedBytes, reportedName } from '../tools/path-bytes.js';

/** `run` reads git's output as latin1 (one character a byte): names need not be UTF-8. */
type Run = (args: string[], input?: Uint8Array) => Promise<GitResult>;

/**
 * `reported`: the paths files_changed lists (workspace-relative); `seen`: the repository-relative
 * paths the hand-off's trees differ in; `scope`: the workspace, repository-relative ('' at the top).
 */
export async function leftUnseen(run: Run, root: string, scope: string, reported: readonly string[], seen: ReadonlySet<string>): Promise<Array<{ path: string; reason: string }>> {
  const unseen = reported.map((file) => (scope ? `${scope}/${file}` : file)).filter((file) => !seen.has(file));
  if (unseen.length === 0) return [];
  // Exit 1 when none is ignored: the answer is the list, whatever the status.
  const asked = Buffer.concat(unseen.flatMap((file) => [reportedBytes(file), Buffer.from([0])]));
  const answer = (await run(['check-ignore', '-z', '--stdin'], asked)).stdout.split('\0').filter(Boolean);
  const ignored = new Set(answer.map((name) => reportedName(Buffer.from(name, 'latin1'))));
  return unseen.map((file) => {
    if (ignored.has(file)) return { path: file, reason: 'git ignores it (.gitignore or .git/info/exclude), so no commit holds it' };
    const nested = nestedRepository(root, file);
    if (nested) return { path: file, reason: `it lies in ${nested}/, a git repository of its own, whose changes this repository's commit cannot hold` };
    return { path: file, reason: 'git does not see its change' };
  });
}

/** The directory below `root` holding `file` that is a repository of its own (has a .git), or null. */
function nestedRepository(root: string, file: string): string | null {
  const parts = file.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if (fs.existsSync(Buffer.concat([Buffer.from(`${root}/`), reportedBytes(`${dir}/.git`)]))) return dir;
  }
  return null;
}
