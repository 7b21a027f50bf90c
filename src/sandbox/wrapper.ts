// What a spawner needs from the sandbox, and nothing more: tools, discovery, MCP and the runner's
// check commands ask it what to spawn for an argv, and spawn that.

export interface SpawnSpec {
  file: string;
  args: string[];
  /** Spawn with exactly this environment (extendEnv: false). */
  env: Record<string, string>;
  /**
   * The wrapper outlives the command and exits with 128+n when a signal n killed it, as bash
   * does (bwrap's init): a caller that reports signal deaths reads such a code as one.
   */
  signalsAsExitCodes?: true;
}

export interface CommandOptions {
  cwd: string;
  env: Record<string, string>;
  /**
   * The process lives beside the runner's own git (an MCP server runs through the whole run):
   * it may not write the repository's git directory at all, or it could switch what git reads
   * between the runner's check of it and the git that follows.
   */
  besideRunnerGit?: boolean;
}

export interface CommandWrapper {
  command(argv: readonly string[], opts: CommandOptions): SpawnSpec;
}

/** No sandbox: argv runs as it is. */
export const unwrapped: CommandWrapper = {
  command(argv, opts) {
    const [file, ...args] = argv;
    if (!file) throw new Error('a command needs a program');
    return { file, args, env: opts.env };
  },
};
