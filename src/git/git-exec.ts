// Running git for the runner itself (hand-off, clones): argument arrays only, never a shell;
// nothing waits for a human (no credential prompt, no editor, no pager), and no repository can
// make us run its code (hooks, fsmonitor) while we commit on its behalf.
import { execa } from 'execa';
import { gitEnvironment, gitProgram, NO_GIT, safeGitArgs } from './git-env.js';
import { killProcessGroup, track, untrack } from '../tools/process-groups.js';
import { keepPinnedLayout } from './pinned-layout.js';
import { releaseFifoWaits } from './fifo-waits.js';

export interface GitResult {
  ok: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Added to the environment (author and committer identity). */
  env?: Record<string, string>;
  parentEnv?: NodeJS.ProcessEnv;
  /** Written to git's stdin (update-index --index-info, apply); stdin is closed otherwise. */
  input?: string | Uint8Array;
  /**
   * 'latin1': stdout as one character a byte, for output that holds file names, which need not be
   * UTF-8 (read as UTF-8, such a byte became U+FFFD, a name no file has).
   */
  encoding?: 'utf8' | 'latin1';
}

/** Runs `git <safe config> ...args`; failures are data (ok: false), never exceptions. */
export async function git(args: readonly string[], opts: GitOptions): Promise<GitResult> {
  const program = gitProgram(opts.cwd, opts.parentEnv ?? process.env);
  if (program === null) return { ok: false, exitCode: null, stdout: '', stderr: NO_GIT };
  keepPinnedLayout(opts.cwd);
  const env = gitEnvironment(opts.parentEnv ?? process.env, opts.env, opts.cwd);
  // git in a process group of its own: a push starts ssh, a remote helper or a local receive-pack
  // with its hooks, which a signal to git alone leaves running, holding git's output open (the
  // run then waited out its grace, and the branch landed after the report said cancelled). A stop
  // or a time-out ends the whole group; the runner's last-resort exit does too (process-groups.ts).
  let pid: number | undefined;
  let unwatch = () => {};
  const stopGroup = () => {
    if (pid === undefined) return;
    killProcessGroup(pid, 'SIGTERM');
    const group = pid;
    setTimeout(() => killProcessGroup(group, 'SIGKILL'), 2_000).unref();
  };
  opts.signal?.addEventListener('abort', stopGroup, { once: true });
  const timer = opts.timeoutMs ? setTimeout(stopGroup, opts.timeoutMs) : null;
  try {
    const child = execa(program, [...safeGitArgs(opts.cwd, env), ...args], {
      cwd: opts.cwd,
      env,
      extendEnv: false,
      detached: true,
      ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
      reject: false,
      stripFinalNewline: true,
      encoding: opts.encoding ?? 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      ...(opts.signal ? { cancelSignal: opts.signal } : {}),
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      forceKillAfterDelay: 2_000,
    });
    pid = child.pid;
    if (pid !== undefined) track(pid);
    // A FIFO named .gitignore or .gitattributes would hold git (the hand-off's add) until its time-out.
    if (pid !== undefined) unwatch = releaseFifoWaits(pid);
    if (opts.signal?.aborted) stopGroup();
    const result = await child;
    const why = result.failed ? whyGitFailed(args[0] ?? '', result, opts.signal?.aborted ?? false) : '';
    return {
      ok: !result.failed,
      exitCode: result.exitCode ?? null,
      stdout: String(result.stdout ?? ''),
      // Without an exit code git never ran (not installed, timed out, cancelled): say why.
      stderr: result.exitCode === undefined ? why : String(result.stderr ?? '') || why,
    };
  } catch (error) {
    return { ok: false, exitCode: null, stdout: '', stderr: (error as Error).message };
  } finally {
    opts.signal?.removeEventListener('abort', stopGroup);
    if (timer) clearTimeout(timer);
    unwatch();
    if (pid !== undefined) {
      // Whatever git left in its group (a hook's background job) ends with it.
      killProcessGroup(pid, 'SIGKILL');
      untrack(pid);
    }
  }
}

/**
 * Why git failed, without the command line: execa's own message quotes every `-c` setting the
 * runner adds (a few hundred characters), which would bury git's reason in a report field.
 */
function whyGitFailed(command: string, result: { exitCode?: number; signal?: string; timedOut?: boolean; isCanceled?: boolean; originalMessage?: string }, aborted: boolean): string {
  const what = `git ${command}`.trim();
  if (result.isCanceled || (aborted && result.exitCode === undefined)) return `${what} was stopped: the run is stopping`;
  if (result.timedOut) return `${what} took too long and was stopped`;
  if (result.signal) return `${what} was killed (${result.signal})`;
  if (result.exitCode !== undefined) return `${what} exited with code ${result.exitCode}`;
  return `${what} could not run: ${result.originalMessage || 'unknown error'}`;
}

/** Git's complaint on one line for a report field: its first lines say what went wrong. */
export function gitComplaint(result: GitResult, maxLines = 4): string {
  const text = (result.stderr || result.stdout).trim();
  const line = text.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, maxLines).join(' / ');
  return (line.length > 600 ? `${line.slice(0, 600)}…` : line) || `git exited with ${result.exitCode}`;
}
