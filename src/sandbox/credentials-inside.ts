// The credential paths that lie inside the workspace. The sandbox hides them from commands; the
// file tools (read_file, read_many_files, grep, edit, write_file) run in the runner's own process,
// outside any sandbox, so the workspace keeps them away from those (Workspace.keptAt). It happens:
// google-github-actions/auth writes its gha-creds-*.json into $GITHUB_WORKSPACE and points
// GOOGLE_APPLICATION_CREDENTIALS at it, and a workspace that is a home directory holds .ssh and
// .aws. The same list as the sandbox's (credentials.ts), and the recipe's `sandbox.hide`.
import path from 'node:path';
import { Workspace, type KeptPath } from '../util/workspace.js';
import { realPathOrNull } from '../util/paths.js';
import { credentialsByEnvironment, expandHome, HIDDEN_IN_HOME, homesOf } from './credentials.js';

/** The workspace at `dir` as the tools see it: the credentials inside it kept away from them. */
export function openToolsWorkspace(dir: string, env: NodeJS.ProcessEnv, hide: readonly string[]): Workspace {
  const workspace = Workspace.open(dir);
  return workspace.keepingAway(() => credentialPathsInside(workspace.root, env, hide));
}

export function credentialPathsInside(root: string, env: NodeJS.ProcessEnv, hide: readonly string[]): KeptPath[] {
  const homes = homesOf(env);
  const candidates: Array<[string, string]> = [
    ...credentialsByEnvironment(env).map(([p, variable]): [string, string] => [p, `${variable} names it`]),
    ...homes.flatMap((h) => HIDDEN_IN_HOME.map((rel): [string, string] => [path.join(h, rel), `'~/${rel}' is where credentials are kept`])),
    ...hide.flatMap((p) => expandHome(p, homes)).map((p): [string, string] => [p, "the recipe's sandbox.hide names it"]),
  ];
  const kept = new Map<string, string>();
  for (const [p, why] of candidates) {
    const real = realPathOrNull(p);
    if (real === null) continue;
    const relative = path.relative(root, real);
    // The workspace itself, or a path holding it, is no path inside it (the sandbox leaves those too).
    if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
    const shown = relative.split(path.sep).join('/');
    if (!kept.has(shown)) kept.set(shown, why);
  }
  return [...kept].map(([relative, why]) => ({ relative, why }));
}
