// What a sandbox promises, independent of the mechanism: bwrap.ts and seatbelt.ts each turn one
// of these into their own terms, and the tests check both against it.

export interface Containment {
  /** Canonical workspace root: readable and writable. */
  workspace: string;
  /** More writable paths (existing, canonical). */
  writable: string[];
  /**
   * Directories that stay writable but cannot be renamed or removed (the repository's `.git`):
   * otherwise `mv .git x && mkdir .git` would leave a fresh, writable config behind.
   */
  pinned: string[];
  /**
   * Directories on the way from a writable root to a guarded path (`.git/modules`, a submodule's
   * work tree, the recipe's directory): pinned as well, but never made read-only (anchors.ts).
   */
  anchors: string[];
  /**
   * Directories tools must read though they lie in the private /tmp: the recipe's directory (its
   * scripts, a discovery command) and the runner's working directory (where MCP servers start).
   * Elsewhere the read-only root shows them already.
   */
  readable: string[];
  /** Paths under a writable one that stay read-only: .git/config, .git/hooks, the run's outputs. */
  readOnly: string[];
  /** Existing paths to hide: directories become empty, files read as empty. */
  hiddenDirs: string[];
  hiddenFiles: string[];
  /** none: no network at all; all: the host's network; proxy: only the filtering proxy. */
  network: 'none' | 'all' | 'proxy';
}

/** Where the proxy's socket directory appears inside a Linux sandbox. */
export const PROXY_DIR_INSIDE = '/tmp/.unattended-proxy';
/** The port the in-sandbox forwarder listens on (the sandbox has its own loopback). */
export const PROXY_PORT_INSIDE = 3128;

/** Variables that send HTTP clients (curl, git, npm, pip, ...) through a proxy at `url`. */
export function proxyEnvironment(url: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = url;
    env[name.toLowerCase()] = url;
  }
  // Clients would otherwise go around the proxy for these, and find nothing there.
  env.NO_PROXY = '';
  env.no_proxy = '';
  return env;
}
