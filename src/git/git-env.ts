// How the runner runs git on a user's repository: settings that outrank the repository's own
// config (util/git-safe-config.ts: no hooks, fsmonitor, filters, textconv, external diff, signing,
// pager) and an environment that cannot point git at another repository or program. Kept apart
// from git-exec.ts so that code needing only these does not load execa.
import { hostPathVariable, hostProgram } from '../util/host-program.js';

export { safeGitArgs } from '../util/git-safe-config.js';

/** git as the runner runs it on the repository at `cwd`: never one from inside it (util/host-program.ts); null when none is installed. */
/** What a run says when gitProgram() finds none. */
export const NO_GIT = 'git is not installed (none on PATH outside the repository)';

export function gitProgram(cwd: string, parent: NodeJS.ProcessEnv = process.env): string | null {
  return hostProgram('git', parent.PATH, cwd);
}

/** Variables that would point git at another repository or another program than the one asked. */
const REDIRECTING_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_EXTERNAL_DIFF'];

/** `cwd`: the repository; the programs git itself starts are not looked up inside it either. */
export function gitEnvironment(parent: NodeJS.ProcessEnv, extra: Record<string, string> = {}, cwd?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !REDIRECTING_VARIABLES.includes(name)) env[name] = value;
  }
  if (cwd !== undefined) env.PATH = hostPathVariable(parent.PATH, cwd);
  // GIT_NO_REPLACE_OBJECTS: a replace ref (`git replace HEAD <commit>`, which any command with a
  // writable .git can make) would have the runner read another tree as HEAD's, and the hand-off
  // commit carry files no snapshot saw (a workflow) on top of the real HEAD.
  // The system config (/etc/gitconfig) is read, as the person's own git reads it: it is the
  // machine's, as trusted as their global config (its programs are not the repository's to set),
  // and without it the runner's git was another git: a container image's `safe.directory = *` let
  // theirs into a mounted checkout and not ours (no change tracking, exit 58), and a system-wide
  // `git lfs install` left the hand-off committing an LFS file's whole content, not its pointer.
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EDITOR: 'true', GIT_NO_REPLACE_OBJECTS: '1', ...extra };
}

