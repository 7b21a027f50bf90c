// Where the hand-off's push goes: origin's push and fetch URLs as git resolves them. Recorded when a
// run starts (handoff-step.ts) and compared before the push (handoff.ts), so a command cannot send
// the push elsewhere (a planted commondir or worktree config can repoint origin without touching
// .git/config).
import { git } from './git-exec.js';

/** origin's URLs, one string; null without an origin. */
export async function originUrls(workspace: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const [push, fetch] = await Promise.all([
    git(['remote', 'get-url', '--push', '--all', 'origin'], { cwd: workspace, parentEnv: env }),
    git(['config', '--get', 'remote.origin.url'], { cwd: workspace, parentEnv: env }),
  ]);
  return push.ok ? `${push.stdout.trim()} (fetch: ${fetch.stdout.trim()})` : null;
}
