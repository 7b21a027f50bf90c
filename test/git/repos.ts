// Real temporary git repositories for the hand-off and batch tests, isolated from the developer's
// git configuration (HOME points into the temp dir, no system config).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const made: string[] = [];

export function tempRoot(prefix = 'unattended-git-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function cleanupRepos(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** An environment in which git sees no user or system configuration. */
export function isolatedGitEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
}

export async function gitIn(dir: string, ...args: string[]): Promise<string> {
  const r = await execa('git', args, { cwd: dir, env: isolatedGitEnv(dir), extendEnv: false });
  return String(r.stdout).trim();
}

/** A repository on branch main with one commit holding `files`. */
export async function makeRepo(dir: string, files: Record<string, string>): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  await execa('sh', ['-c', INIT_AND_COMMIT], { cwd: dir, env: isolatedGitEnv(dir), extendEnv: false });
  return dir;
}

/**
 * `git init`, `git add -A` and the first commit, chained by one shell: one spawn from the test
 * worker instead of three. A spawn from a worker of a few hundred MB costs 5-10 ms of a core (the
 * fork copies its page tables); one from a small shell costs a fraction of that.
 */
export const INIT_AND_COMMIT = 'git init -q -b main && git add -A && git -c user.email=t@example.com -c user.name=test commit -qm init';

/** `git config KEY VALUE` for each pair, in order, by one shell: one spawn from the test worker. */
export async function gitConfigs(dir: string, pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
  const script = 'while [ $# -gt 0 ]; do git config "$1" "$2" || exit 1; shift 2; done';
  await execa('sh', ['-c', script, 'sh', ...pairs.flat()], { cwd: dir, env: isolatedGitEnv(dir), extendEnv: false });
}

export async function makeBareOrigin(repo: string, bare: string): Promise<string> {
  await execa('git', ['init', '-q', '--bare', bare], { env: isolatedGitEnv(bare), extendEnv: false });
  await gitIn(repo, 'remote', 'add', 'origin', bare);
  return bare;
}
