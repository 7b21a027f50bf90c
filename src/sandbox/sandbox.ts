// The run's sandbox: what every process a tool starts is wrapped in. The policy decides which
// calls run; this contains what an approved call can do (write outside the workspace, read
// credentials, reach the network, signal the runner, leave processes behind).
// `command(argv, opts)` is the one function spawners call: it returns what to spawn instead.
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxSettings } from '../recipe/types.js';
import { ConfigError } from '../types/errors.js';
import { expandHome, HIDDEN_IN_HOME, hiddenByEnvironment, homesOf, systemHidden } from './credentials.js';
import { hostSockets } from './host-sockets.js';
import { credentialLinks } from './credential-links.js';
import { commonDirOf, findGitDir, gitDirConfigFiles, gitDirEntries, submoduleGitDirs } from '../util/git-config-sources.js';
import { distrustConfigUnder } from '../util/git-safe-config.js';
import { Workspace } from '../util/workspace.js';
import { detectSandboxSoon, type Detection, type SandboxKind } from './detect.js';
import { bwrapArgs } from './bwrap.js';
import { anchorsFor } from './anchors.js';
import { FORWARDER_SOURCE } from './forwarder.js';
import { HostRules } from './hosts.js';
import type { AddressCheck, NetworkProxy } from './proxy.js';
import { seatbeltProfile } from './seatbelt.js';
import { makeEmptyFile, type EmptyFile } from './empty-file.js';
import { closingPrefix, inheritedDescriptors } from './inherited-fds.js';
import type { CommandOptions, CommandWrapper, SpawnSpec } from './wrapper.js';
import { PROXY_DIR_INSIDE, PROXY_PORT_INSIDE, proxyEnvironment, type Containment } from './spec.js';
import { isDirectory, realPathOrNull } from '../util/paths.js';

/** What run_start and the report say about the sandbox. */
export interface SandboxStatus {
  mode: SandboxSettings['mode'];
  /** The mechanism that contains tool processes, or null when none does. */
  kind: SandboxKind | null;
  /** Why none does (mode off, bwrap missing or refused); null when one does. */
  reason: string | null;
  network: boolean | string[];
}


export interface SandboxContext {
  /** Canonical workspace root. */
  workspace: string;
  /** The run's output directory: read-only to tools when it lies inside the workspace (with the `.unattended` directory it lies in). */
  outDir: string | null;
  /** More of the run's own files kept read-only when they lie in the workspace (the recipe, the memory file). */
  protectedFiles?: readonly string[];
  /**
   * The runner's own directories (its cache, whose code cache the next start runs as code): kept
   * read-only when they lie in the workspace or a writable directory, created first if need be.
   */
  protectedDirs?: readonly string[];
  /** The runner's environment (HOME decides which credential directories are hidden). */
  env: NodeJS.ProcessEnv;
  /** A warning for the run, once it has started (the other names of a credential file found when the first command runs). */
  onWarning?: (message: string) => void;
  /** A host the proxy refused: an event in the transcript. */
  onNetworkDenied?: (host: string, port: number, reason: string) => void;
  /** The proxy's address check (tools/net-guard.ts in a run). Without one, no host is reachable. */
  checkAddress?: AddressCheck;
  /** Directories tools must be able to read (the recipe's); the runner's working directory always is. */
  readable?: readonly string[];
  /** Found once per process by default; tests pass their own. */
  detect?: () => Detection | Promise<Detection>;
  /** The runner's descriptors a sandboxed program would inherit (inherited-fds.ts); found at open by default. */
  inheritedFds?: readonly number[];
}

export class SandboxUnavailableError extends ConfigError {}

/**
 * Runs the sandboxed argv as the first the kernel's OOM killer takes. The private /tmp and /dev/shm
 * are memory, and a page written there belongs to no process: a command that fills them (or
 * spreads its memory over many small processes) left the runner, the largest process, as the one
 * killed, with no report. Any process may raise its own score (1000: always first), and what it
 * starts inherits it; one `sh` more per call (~1 ms).
 */
const OOM_FIRST: readonly string[] = ['/bin/sh', '-c', '{ echo 1000 > /proc/self/oom_score_adj; } 2>/dev/null; exec "$@"', 'sh'];
let shellFound: boolean | undefined;
/** The prefix, where there is a /bin/sh (a system without one runs argv as it is: it still runs, contained). */
function oomFirst(): readonly string[] {
  shellFound ??= fs.existsSync('/bin/sh');
  return shellFound ? OOM_FIRST : [];
}

export class Sandbox implements CommandWrapper {
  private constructor(
    readonly status: SandboxStatus,
    private readonly program: string | null,
    private readonly hardening: readonly string[] | undefined,
    /** Worked out at the first command (see open), then kept. */
    private readonly contain: (() => Containment) | null,
    private readonly proxy: NetworkProxy | null,
    /** What closes the runner's inherited descriptors inside the sandbox before the program runs. */
    private readonly closeInherited: readonly string[],
    /** Notes for the run's warnings (a writable path that does not exist). */
    readonly notes: readonly string[] = [],
  ) {}

  /** No containment: argv runs as it is. */
  static none(reason: string, settings: Pick<SandboxSettings, 'mode' | 'network'> = { mode: 'off', network: true }): Sandbox {
    return new Sandbox({ mode: settings.mode, kind: null, reason, network: settings.network }, null, undefined, null, null, []);
  }

  static async open(settings: SandboxSettings, ctx: SandboxContext): Promise<Sandbox> {
    if (settings.mode === 'off') return Sandbox.none('sandbox.mode is off', settings);
    const found = await (ctx.detect ?? (() => detectSandboxSoon(ctx.workspace)))();
    if (found.kind === null) {
      if (settings.mode === 'required') {
        throw new SandboxUnavailableError(
          `sandbox.mode is required, but no sandbox works on this machine: ${found.reason}`,
          'make one work here (the reason above says what is missing), or set sandbox.mode: auto to run without one',
        );
      }
      return Sandbox.none(found.reason, settings);
    }
    const notes: string[] = [];
    const writable = writableDirs(settings, ctx, notes);
    const network = networkOf(settings);
    let proxy: NetworkProxy | null = null;
    if (network === 'proxy') {
      const { startNetworkProxy } = await import('./proxy.js');
      proxy = await startNetworkProxy({
        rules: new HostRules(settings.network as string[]),
        listen: found.kind === 'bwrap' ? 'unix' : 'tcp',
        onDenied: ctx.onNetworkDenied ?? (() => {}),
        checkAddress: ctx.checkAddress ?? (async () => ({ ok: false, reason: 'no address check is configured' })),
      });
    }
    const status: SandboxStatus = { mode: settings.mode, kind: found.kind, reason: null, network: settings.network };
    const closeInherited = found.kind === 'bwrap' ? closingPrefix(ctx.inheritedFds ?? inheritedDescriptors()) : [];
    // What to hide and hold read-only is worked out when the first command runs (~13 ms of reading
    // the home directory, the repository's git files and the run's own files): not before the
    // first model request, and never in a run that runs no command. Nothing of it can have
    // changed meanwhile that a command could use: no command has run yet.
    const contain = () => containmentFor(settings, ctx, writable, network);
    const sandbox = new Sandbox(status, found.program, found.hardening, contain, proxy, closeInherited, notes);
    // The runner's git (on the host) takes no program-running setting from a file tools can write.
    sandbox.trustConfigAgain = distrustConfigUnder([ctx.workspace, ...writable]);
    return sandbox;
  }

  private trustConfigAgain: () => void = () => {};
  private containment: Containment | null = null;
  /** What hidden files read as under bwrap (null: there are none, or no bwrap). */
  private emptyFile: EmptyFile | null = null;

  /** The containment, worked out on first use; null without a sandbox. */
  private contained(): Containment | null {
    if (this.containment || !this.contain) return this.containment;
    this.containment = this.contain();
    if (this.status.kind === 'bwrap' && this.containment.hiddenFiles.length > 0) this.emptyFile = makeEmptyFile();
    return this.containment;
  }

  get active(): boolean {
    return this.status.kind !== null;
  }

  /** What to spawn for `argv` run in `cwd` with `env`: the sandbox program and its arguments. */
  command(argv: readonly string[], opts: CommandOptions): SpawnSpec {
    const [file, ...args] = argv;
    if (!file) throw new Error('sandbox.command needs a program');
    const containment = this.program ? this.contained() : null;
    if (!containment || !this.program) return { file, args, env: opts.env };
    // The pinned directories are the repository's git directories: read-only as a whole then.
    const c = opts.besideRunnerGit ? { ...containment, readOnly: [...containment.readOnly, ...containment.pinned] } : containment;
    if (this.status.kind === 'seatbelt') {
      const tempDirs = macTempDirs(opts.env.TMPDIR);
      const profile = seatbeltProfile(c, { tempDirs, proxyPort: this.proxy?.port ?? null });
      const env = this.proxy?.port ? { ...opts.env, ...proxyEnvironment(`http://127.0.0.1:${this.proxy.port}`) } : opts.env;
      return { file: this.program, args: ['-p', profile, '--', ...argv], env };
    }
    const proxyDir = this.proxy?.socketDir ?? null;
    // bwrap cannot mount onto a path that is gone (it would create it, on a read-only root): a
    // socket or a credential file removed since the run started (a container's shim socket under
    // /run comes and goes) would otherwise fail every command that follows.
    const present = { hiddenDirs: c.hiddenDirs.filter(exists), hiddenFiles: c.hiddenFiles.filter(exists) };
    const inner = [
      ...oomFirst(),
      ...this.closeInherited,
      ...(proxyDir ? [process.execPath, '-e', FORWARDER_SOURCE, `${PROXY_DIR_INSIDE}/proxy.sock`, String(PROXY_PORT_INSIDE)] : []),
      ...argv,
    ];
    const env: Record<string, string> = { ...opts.env, TMPDIR: '/tmp' };
    if (proxyDir) Object.assign(env, proxyEnvironment(`http://127.0.0.1:${PROXY_PORT_INSIDE}`));
    const outer = bwrapArgs({ ...c, ...present }, { cwd: opts.cwd, proxyDir, emptyFile: this.emptyFile?.path ?? '/dev/null', ...(this.hardening ? { hardening: this.hardening } : {}) });
    return { file: this.program, args: [...outer, '--', ...inner], env, signalsAsExitCodes: true };
  }

  async close(): Promise<void> {
    this.trustConfigAgain();
    this.trustConfigAgain = () => {};
    this.emptyFile?.remove();
    await this.proxy?.close();
  }
}

/** sandbox.writable as real paths; one that does not exist is left out, with a note for the run's warnings. */
function writableDirs(settings: SandboxSettings, ctx: SandboxContext, notes: string[]): string[] {
  const homes = homesOf(ctx.env);
  const writable: string[] = [];
  for (const p of settings.writable.flatMap((w) => expandHome(w, homes))) {
    const real = realPathOrNull(p);
    if (real) writable.push(real);
    else notes.push(`sandbox.writable: '${p}' does not exist; left out`);
  }
  return writable;
}

function networkOf(settings: SandboxSettings): Containment['network'] {
  return settings.network === true ? 'all' : Array.isArray(settings.network) && settings.network.length ? 'proxy' : 'none';
}

function containmentFor(settings: SandboxSettings, ctx: SandboxContext, writable: string[], network: Containment['network']): Containment {
  const homes = homesOf(ctx.env);
  const expand = (p: string) => expandHome(p, homes);
  const hiddenDirs: string[] = [];
  const hiddenFiles: string[] = [];
  const candidates = [...homes.flatMap((h) => HIDDEN_IN_HOME.map((rel) => path.join(h, rel))), ...systemHidden(), ...hiddenByEnvironment(ctx.env), ...settings.hide.flatMap(expand)];
  for (const p of candidates) {
    const real = realPathOrNull(p);
    // Inside the workspace too (a workspace that is the home directory): mounted after it, it wins.
    if (!real || real === '/' || isInside(ctx.workspace, real)) continue;
    const stat = fs.statSync(real);
    (stat.isDirectory() ? hiddenDirs : hiddenFiles).push(real);
  }
  // The host's sockets, but not where the recipe opened a directory for tools (sandbox.writable).
  // Seatbelt's profile denies connecting to them with the rest of the network.
  for (const socket of process.platform === 'linux' ? hostSockets() : []) {
    if (![ctx.workspace, ...writable].some((root) => isInside(socket, root))) hiddenFiles.push(socket);
  }
  // A hidden path hides one name of a file: its other names (hard links) where commands reach them are hidden too.
  const links = credentialLinks({ workspace: ctx.workspace, roots: [ctx.workspace, ...writable], env: ctx.env, hide: settings.hide, hidden: [...hiddenDirs, ...hiddenFiles] });
  hiddenFiles.push(...links.files);
  for (const warning of links.warnings) ctx.onWarning?.(warning);
  // A path inside a hidden directory is hidden already, and bwrap could not mount onto it there.
  const dirs = [...new Set(hiddenDirs)];
  const covered = (p: string) => dirs.some((d) => d !== p && isInside(p, d));
  const readable = [...new Set([process.cwd(), ...(ctx.readable ?? [])].map(realPathOrNull).filter((p): p is string => p !== null))];
  // Wherever tools may write (the workspace, sandbox.writable), the run's own files stay read-only.
  const roots = [ctx.workspace, ...writable];
  const repository = repositoryProtection(ctx.workspace, roots, [outDirGuard(roots, ctx.outDir), ...(ctx.protectedFiles ?? [])]);
  const readOnly = [...new Set([...repository.readOnly, ...runnerDirs(ctx.protectedDirs ?? [], roots)])];
  return {
    workspace: ctx.workspace,
    writable,
    readable,
    pinned: repository.pinned,
    anchors: anchorsFor(roots, [...repository.pinned, ...readOnly], repository.pinned),
    readOnly,
    hiddenDirs: dirs.filter((d) => !covered(d)),
    hiddenFiles: [...new Set(hiddenFiles)].filter((f) => !covered(f)),
    network,
  };
}

/**
 * What a tool may not change though it lies in the workspace: the repository's config, hooks and
 * info (a planted hook or fsmonitor would run the next time anyone uses git there), a `.git` file
 * (it could be pointed at another git directory), and the run's own files (outputs, the recipe
 * a later run reads, the memory file it loads), wherever in `roots` (the workspace and the writable
 * directories) they lie. `.git` directories
 * are pinned so that they cannot be swapped for a new one. A missing hooks or info directory is
 * created so that it can be held read-only too, but never through a link out of the workspace.
 */
function repositoryProtection(workspace: string, roots: readonly string[], runFiles: ReadonlyArray<string | null>): { pinned: string[]; readOnly: string[] } {
  const pinned: string[] = [];
  const readOnly: string[] = [];
  const dotGit = realInside(workspace, path.join(workspace, '.git'));
  if (dotGit && isFile(dotGit)) readOnly.push(dotGit);
  // The git directory a `.git` file names is guarded as `.git` is where tools may write it: in the
  // workspace (`git init --separate-git-dir=.bare`, a bare repository beside its work trees) or a
  // sandbox.writable directory (a linked work tree's main repository, made writable so that `git
  // commit` works), and so is the common directory a linked work tree's names: git reads config
  // and hooks there.
  const named = dotGit ? findGitDir(workspace) : null;
  const gitDir = named ? realInside(roots, named) : null;
  const common = gitDir ? realInside(roots, commonDirOf(gitDir)) : null;
  // Submodules' git directories, nested and slash-named ones too (modules/libs/core).
  const repoDirs = gitDir ? [...new Set([gitDir, ...(common ? [common] : []), ...submoduleGitDirs(gitDir)])] : [];
  // A submodule's `.git`: a file naming its git directory is held as the workspace's own is (the
  // superproject's git status runs git in it); a directory is guarded as a repository.
  for (const entry of submoduleGitEntries(workspace)) (isFile(entry) ? readOnly : repoDirs).push(entry);
  for (const dir of repoDirs.map((d) => realInside(roots, d))) {
    if (!dir || !isDirectory(dir)) continue;
    pinned.push(dir);
    for (const name of ['hooks', 'info']) {
      const held = path.join(dir, name);
      if (!fs.lstatSync(held, { throwIfNoEntry: false })) fs.mkdirSync(held);
    }
    createWorktreeConfig(dir);
    // info: exclude would hide a new file from the runner's change tracking, attributes would
    // assign filters; commondir (when there is one) moves all of the configuration.
    for (const name of ['config', 'config.worktree', 'hooks', 'info', 'commondir']) {
      const p = realInside(roots, path.join(dir, name));
      if (p) readOnly.push(p);
    }
    // A file the config includes (a project's shared `include.path = ../.gitconfig`), where tools may write.
    for (const file of gitDirConfigFiles(dir)) {
      const real = realPathOrNull(file);
      if (real && roots.some((root) => isInside(real, root))) readOnly.push(real);
    }
    linkedWorkTrees(roots, dir, pinned, readOnly);
  }
  for (const file of runFiles) {
    const real = file ? realPathOrNull(file) : null;
    if (real && roots.some((root) => real !== root && isInside(real, root))) readOnly.push(real);
  }
  return { pinned, readOnly };
}

/** The `.git` of each submodule the workspace's .gitmodules names, where it lies in the workspace. */
function submoduleGitEntries(workspace: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(workspace, '.gitmodules'), 'utf8');
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const match of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    const entry = realInside(workspace, path.join(workspace, match[1]!.replace(/^"(.*)"$/, '$1'), '.git'));
    if (entry && entry !== path.join(workspace, '.git')) entries.push(entry);
  }
  return entries;
}

/**
 * A linked work tree (`git worktree add`, often outside the workspace) reads its repository's
 * config, hooks and refs through worktrees/<name>/commondir: repointed at a config a command wrote,
 * the next git run there would follow it. Its commondir and config.worktree stay read-only, and
 * its directory and worktrees/ are pinned so that neither can be swapped for a new one.
 */
function linkedWorkTrees(roots: readonly string[], gitDir: string, pinned: string[], readOnly: string[]): void {
  const worktrees = realInside(roots, path.join(gitDir, 'worktrees'));
  if (!worktrees || !isDirectory(worktrees)) return;
  pinned.push(worktrees);
  for (const linked of listDirs(worktrees).map((d) => realInside(roots, d))) {
    if (!linked || !isDirectory(linked)) continue;
    pinned.push(linked);
    createWorktreeConfig(linked);
    for (const name of ['commondir', 'config.worktree']) {
      const p = realInside(roots, path.join(linked, name));
      if (p) readOnly.push(p);
    }
  }
}

/**
 * A repository whose config turns on extensions.worktreeConfig reads config.worktree beside it;
 * where there is none yet, a command could write one (with an fsmonitor) for the next person's
 * git. It is created empty, so that it can be held read-only as the config is.
 */
function createWorktreeConfig(gitDir: string): void {
  const file = path.join(gitDir, 'config.worktree');
  if (fs.lstatSync(file, { throwIfNoEntry: false })) return;
  const on = gitDirEntries(gitDir).some((e) => e.key.toLowerCase() === 'extensions.worktreeconfig' && /^(true|yes|on|1|)$/i.test(e.value.trim()));
  if (!on) return;
  try {
    fs.writeFileSync(file, '', { flag: 'wx' });
  } catch {
    // Not creatable (a read-only git directory): nothing can be written there by a command either.
  }
}

/**
 * What keeps the run's output directory from tools: the whole `.unattended` directory it lies in
 * (the default `.unattended/runs/<id>`) below the root that holds it, bound read-only onto itself,
 * so that it cannot be renamed away either (a mount point cannot be: EBUSY) and no other run's
 * directory in it can be written or made up; otherwise the directory itself.
 */
function outDirGuard(roots: readonly string[], outDir: string | null): string | null {
  const real = outDir ? realPathOrNull(outDir) : null;
  if (!real) return null;
  for (const root of roots.filter((r) => isInside(real, r))) {
    for (let dir = real; dir !== root && isInside(dir, root); dir = path.dirname(dir)) {
      if (path.basename(dir) === '.unattended') return dir;
    }
  }
  return real;
}

/**
 * Those of `dirs` that lie under one of `roots` (where tools may write: the confinement check of
 * the tools, links followed, a missing tail allowed), created if missing so that they can be
 * mounted read-only.
 */
function runnerDirs(dirs: readonly string[], roots: readonly string[]): string[] {
  const guarded: string[] = [];
  for (const dir of dirs) {
    if (!roots.some((root) => confines(root, dir))) continue;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // Not creatable (a file in the way): nothing of ours can be there to protect.
      continue;
    }
    const real = realPathOrNull(dir);
    if (real) guarded.push(real);
  }
  return guarded;
}

/** True when `p` lies in the directory `root` (false when `root` is no directory, a writable file say). */
function confines(root: string, p: string): boolean {
  try {
    return Workspace.open(root).resolve(p).ok;
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}

function isFile(p: string): boolean {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** TMPDIR (per-user on macOS, under /var/folders, which is /private/var/folders) and /private/tmp. */
function macTempDirs(tmpdir: string | undefined): string[] {
  const dirs = new Set(['/private/tmp', '/tmp']);
  if (tmpdir) {
    dirs.add(tmpdir.replace(/\/$/, ''));
    const real = realPathOrNull(tmpdir);
    if (real) dirs.add(real);
  }
  return [...dirs];
}

function listDirs(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}


/**
 * `p` as a mount may name it: its real path, when it exists and lies in the workspace (or one of
 * `roots`: the workspace and the writable directories); else null.
 * A mount follows links, and bwrap cannot mount onto a link that leads out of its view (every
 * command would fail); and a `.git`, or a part of one, that links out of the workspace leads to
 * what is not the run's to create or guard (outside, it is read-only unless the recipe made it
 * writable).
 */
function realInside(roots: string | readonly string[], p: string): string | null {
  const real = realPathOrNull(p);
  return real && (typeof roots === 'string' ? [roots] : roots).some((root) => isInside(real, root)) ? real : null;
}


function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
