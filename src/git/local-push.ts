// A push to a repository on this machine (a path or file:// URL) starts that repository's
// receive-pack here, on the host, under the target's own config and hooks: pre-receive, update,
// post-receive, a checkout for receive.denyCurrentBranch=updateInstead, core.alternateRefsCommand.
// The `-c` settings of the runner's git never reach it (git starts it with no config of ours), and
// the repository's config names the target: a bare repository a command made in the workspace will
// do. So for such a target the hand-off starts receive-pack itself, with those turned off.
import { ALWAYS_SAFE } from '../util/git-safe-config.js';
import type { GitResult } from './git-exec.js';

type Git = (args: string[]) => Promise<GitResult>;

/** Settings for the receive-pack of a local target; each is shell-safe (git runs the command through sh). */
const RECEIVE_PACK_SAFE: ReadonlyArray<readonly [string, string]> = [
  ...ALWAYS_SAFE,
  ['receive.denyCurrentBranch', 'refuse'],
  ['receive.autoGc', 'false'],
  // true: no alternate's refs are advertised, and nothing is printed (an empty command made git say
  // 'cannot run : No such file or directory' on every push, the first line of a failed push's error).
  ['core.alternateRefsCommand', 'true'],
];

/** `--receive-pack` for a push to `remote` when a URL it pushes to is local; none otherwise. */
export async function localPushOptions(run: Git, remote: string): Promise<string[]> {
  const urls = await run(['remote', 'get-url', '--push', '--all', remote]);
  if (!urls.ok || !urls.stdout.split('\n').some((url) => isLocalUrl(url.trim()))) return [];
  return [`--receive-pack=git ${RECEIVE_PACK_SAFE.map(([key, value]) => `-c ${key}=${value}`).join(' ')} receive-pack`];
}

/** Whether git reaches `url` through the local transport (as its transport.c decides). */
export function isLocalUrl(url: string): boolean {
  if (url === '') return false;
  // `helper::address` runs git-remote-<helper>; `scheme://` is a URL (file:// the only local one).
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url)) return false;
  if (url.startsWith('file://')) return true;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) return false;
  // scp-like `host:path` is ssh; a colon after the first slash is part of a path.
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  return colon < 0 || (slash >= 0 && slash < colon);
}
