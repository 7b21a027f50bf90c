// The credential paths that lie inside the workspace. The sandbox hides them from commands; the
// file tools (read_file, read_many_files, grep, edit, write_file) run in the runner's own process,
// outside any sandbox, so the workspace keeps them away from those (Workspace.keptAt). It happens:
// google-github-actions/auth writes its gha-creds-*.json into $GITHUB_WORKSPACE and points
// GOOGLE_APPLICATION_CREDENTIALS at it, and a workspace that is a home directory holds .ssh and
// .aws. The same list as the sandbox's (credentials.ts), and the recipe's `sandbox.hide`.
import fs from 'node:fs';
import path from 'node:path';
import { Workspace, type KeptFile, type KeptFiles, type KeptPath } from '../util/workspace.js';
import { realPathOrNull } from '../util/paths.js';
import { credentialsByEnvironment, expandHome, HIDDEN_IN_HOME, homesOf, systemHidden } from './credentials.js';

/** The workspace at `dir` as the tools see it: the credentials inside it kept away from them. */
export function openToolsWorkspace(dir: string, env: NodeJS.ProcessEnv, hide: readonly string[]): Workspace {
  const workspace = Workspace.open(dir);
  return workspace.keepingAway(
    () => credentialPathsInside(workspace.root, env, hide),
    () => credentialFiles(workspace.root, env, hide),
  );
}

/** The credential paths (files and directories), each with why it is one. */
function candidatesOf(env: NodeJS.ProcessEnv, hide: readonly string[]): Array<[string, string]> {
  const homes = homesOf(env);
  return [
    ...credentialsByEnvironment(env).map(([p, variable]): [string, string] => [p, `${variable} names it`]),
    ...homes.flatMap((h) => HIDDEN_IN_HOME.map((rel): [string, string] => [path.join(h, rel), `'~/${rel}' is where credentials are kept`])),
    ...hide.flatMap((p) => expandHome(p, homes)).map((p): [string, string] => [p, "the recipe's sandbox.hide names it"]),
  ];
}

/** Files looked at in the credential directories at most: a hard link to one deeper in a huge one is not found. */
const MAX_CREDENTIAL_FILES = 5000;

/**
 * Every credential file, inside the workspace or not, by identity (`dev:ino`): a hard link in the
 * workspace is another name of the same file, which a compare of paths does not see (a link to
 * `~/.aws/credentials`, or to a `gha-creds-*.json` beside it). Found only when a tool meets a file
 * with more than one link; the directories are walked without following links, up to a cap.
 * `system`: the other paths the sandbox hides (/run/secrets, /etc/ssl/private, the runtime
 * directory): a file in one of them, linked into the workspace, is as secret under its new name.
 */
export function credentialFiles(root: string, env: NodeJS.ProcessEnv, hide: readonly string[], system: readonly string[] = systemHidden()): KeptFiles {
  const files = new Map<string, KeptFile>();
  let linked = false;
  let budget = MAX_CREDENTIAL_FILES;
  const add = (file: string, stat: fs.BigIntStats, why: string) => {
    const key = `${stat.dev}:${stat.ino}`;
    if (files.has(key)) return;
    const relative = path.relative(root, file);
    const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    files.set(key, { shown: `'${inside ? relative.split(path.sep).join('/') : file}'`, why, links: Number(stat.nlink) });
    linked ||= stat.nlink > 1n;
  };
  const visit = (p: string, why: string, depth: number) => {
    if (--budget < 0) return;
    const stat = fs.lstatSync(p, { bigint: true, throwIfNoEntry: false });
    if (stat?.isFile()) return add(p, stat, why);
    if (!stat?.isDirectory() || depth > 8) return;
    let names: string[];
    try {
      names = fs.readdirSync(p);
    } catch {
      return;
    }
    for (const name of names) visit(path.join(p, name), why, depth + 1);
  };
  const visited = new Set<string>();
  const visitAll = (candidates: ReadonlyArray<readonly [string, string]>) => {
    for (const [p, why] of candidates) {
      const real = realPathOrNull(p);
      // The workspace itself, or a directory holding it, is no credential (the sandbox leaves those too).
      if (real === null || visited.has(real) || !path.relative(real, root).startsWith('..')) continue;
      visited.add(real);
      visit(real, why, 0);
    }
  };
  visitAll(candidatesOf(env, hide));
  // The system's paths with a bound of their own: a big keyring in the home directory does not
  // leave /etc/shadow unlooked at, nor a big runtime directory the home's credentials.
  budget = MAX_CREDENTIAL_FILES;
  visitAll(system.map((p) => [p, 'the sandbox hides it'] as const));
  return { files, linked };
}

export function credentialPathsInside(root: string, env: NodeJS.ProcessEnv, hide: readonly string[]): KeptPath[] {
  const kept = new Map<string, string>();
  for (const [p, why] of candidatesOf(env, hide)) {
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
