// Changes made by tools that do not report them (shell, MCP, discovered tools), found with git:
// a snapshot of the workspace right before the first such call runs, and one at the end. Changes
// file tools made before that first call are theirs to report (their FileDiffs), so nothing is
// missed, and a run that never calls such a tool pays nothing. A file a file tool first changes
// after that snapshot is git's to report where git sees it: the tool's "before" may hold what a
// command did to it first (`sed -i` then an edit that undoes it is no change at all). Only in a
// git work tree that does not ignore the workspace; best effort, never fatal.
import { gitProgram, NO_GIT } from '../git/git-env.js';
import { snapshotsCutShort } from '../git/snapshot-deadline.js';
import { batchOutputDirs, changesBetween, ignoredByItsRepository, ignoredUntracked, inGitWorkTree, listedIn, objectsDirectory, presentIn, snapshotExcludes, snapshotTree } from '../git/snapshot.js';
import { NOTHING_GIT_SAW, type GitSeen } from '../types/changes.js';
import type { RunEvent } from '../types/events.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AnyTool } from '../tools/tools.js';

export class UntrackedChanges {
  private baseline: Promise<string | null> | null = null;
  private failed = false;
  /** The snapshot before the first such call was taken: only the one at the end is missing when the run stops early. */
  private baselineTaken = false;
  /** The repository around the workspace ignores it: no snapshot can say anything (not a failure). */
  private ignored = false;
  /** What git ignored and did not track at the baseline, workspace-relative (git/snapshot.ts). */
  private ignoredBefore: readonly string[] = [];
  /** Index entries marked skip-worktree or assume-unchanged at the baseline, and at the last collect. */
  private readonly markedBefore: string[] = [];
  private markedAfter: string[] = [];
  /** When the baseline was taken: object files changed since are checked at each collect (rewritten-objects.ts). */
  private since = 0;
  private rewritten: string | null = null;
  /** Files file tools changed before the baseline (theirs to report), and first changed after it. */
  private readonly toolChangedBefore = new Set<string>();
  private readonly toolChangedAfter = new Set<string>();

  private constructor(
    private readonly root: string,
    private readonly exclude: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Null when not needed: no such tool offered and no check command to run, or not a git work tree. */
  static start(root: string, registry: ToolRegistry, checkCommands: boolean, outDir: string, env: NodeJS.ProcessEnv): UntrackedChanges | null {
    if ((!checkCommands && !registry.all().some(changesUnseen)) || !inGitWorkTree(root)) return null;
    return new UntrackedChanges(root, snapshotExcludes(root, outDir, batchOutputDirs(env)), env);
  }

  /** For the loop, before a call that can change something: the first unseen-change call waits for the baseline. */
  readonly beforeChange = async (tool: AnyTool): Promise<void> => {
    if (!changesUnseen(tool)) return;
    this.baseline ??= this.firstSnapshot();
    await this.baseline;
  };

  /** Before the success checks' commands, which change files unseen like a shell call (a build, a formatter). */
  readonly beforeCommands = async (): Promise<void> => {
    this.baseline ??= this.firstSnapshot();
    await this.baseline;
  };

  private async firstSnapshot(): Promise<string | null> {
    this.since = Date.now();
    if (await ignoredByItsRepository(this.root, this.env)) {
      this.ignored = true;
      return null;
    }
    const [tree, ignoredBefore] = await Promise.all([snapshotTree(this.root, this.exclude, this.env, this.markedBefore), ignoredUntracked(this.root, this.env, { fullName: false })]);
    this.ignoredBefore = ignoredBefore ?? [];
    this.baselineTaken = tree !== null;
    return tree;
  }

  /** Files the runs a continued run goes on from changed: their file-tool view (from the chain's start) is kept, as for a change before the baseline. */
  seed(files: readonly string[]): void {
    for (const file of files) this.toolChangedBefore.add(file);
  }

  /** Sees every event: a file tool's change before or after the baseline (calls that change files run one at a time). */
  readonly observe = (event: RunEvent): void => {
    if (event.type !== 'tool_result' || typeof event.return_display === 'string') return;
    const file = event.return_display.fileName;
    if (!this.baseline) this.toolChangedBefore.add(file);
    else if (!this.toolChangedBefore.has(file)) this.toolChangedAfter.add(file);
  };

  /** What changed since the baseline; nothing when no unseen-change call ran (see `unknown`). */
  async collect(): Promise<GitSeen> {
    if (!this.baseline) return NOTHING_GIT_SAW;
    const before = await this.baseline;
    if (this.ignored) return NOTHING_GIT_SAW;
    const marked: string[] = [];
    const after = before === null ? null : await snapshotTree(this.root, this.exclude, this.env, marked);
    this.markedAfter = marked;
    if (before === null || after === null) {
      this.failed = true;
      return NOTHING_GIT_SAW;
    }
    // A file git ignored at the start that a changed ignore rule now shows was not added by the run.
    const listed = after === before ? [] : await changesBetween(this.root, before, after, this.env);
    if (listed === null) {
      this.failed = true;
      return NOTHING_GIT_SAW;
    }
    const files = listed.filter((c) => c.status !== 'added' || !listedIn(c.path, this.ignoredBefore));
    await this.checkObjects();
    // Git's view replaces a later file tool's where git sees the file: changed since, or in the
    // baseline unchanged. One it cannot see (ignored, in a nested repository) stays the tool's.
    const replaces = new Set<string>();
    const unlisted: string[] = [];
    for (const file of this.toolChangedAfter) (files.some((c) => c.path === file) ? replaces.add(file) : unlisted.push(file));
    for (const file of await presentIn(this.root, before, unlisted, this.env)) replaces.add(file);
    return { files, replaces };
  }

  /**
   * Why what such calls changed is not known, or null: git could not snapshot the workspace (it
   * failed, or took over a minute: a huge file a command made, a repository it broke). Then an
   * empty `collect()` does not mean nothing changed, and must not be reported so.
   */
  /** Whether what shell, MCP and discovered tools changed is in collect()'s answer. */
  seesChanges(): boolean {
    return !this.failed && !this.ignored;
  }

  /**
   * Index entries a tool marked skip-worktree or assume-unchanged: the user's `git status` no
   * longer shows their changes (files_changed does, the snapshot looks anyway). Null when none.
   */
  newlyMarked(): string | null {
    const fresh = this.markedAfter.filter((file) => !this.markedBefore.includes(file));
    if (fresh.length === 0) return null;
    const named = fresh.slice(0, 10).join(', ') + (fresh.length > 10 ? ', …' : '');
    return `a tool marked index entries skip-worktree or assume-unchanged, so git status does not show their changes (files_changed does): ${named}; git update-index --no-skip-worktree PATH (or --no-assume-unchanged) shows them again`;
  }

  /** Objects a command rewrote in the object store, which diffs and checkouts read as other content; null when none. */
  objectsRewritten(): string | null {
    return this.rewritten;
  }

  private async checkObjects(): Promise<void> {
    const objects = await objectsDirectory(this.root, this.env);
    if (objects === null) return;
    // Loaded at the end of a run that ran commands, never at start-up (zlib, crypto).
    const { rewrittenObjects, rewrittenObjectsMessage } = await import('../git/rewritten-objects.js');
    const verify = async (args: string[]) => {
      const { git } = await import('../git/git-exec.js');
      return (await git(args, { cwd: this.root, parentEnv: this.env, timeoutMs: 5 * 60_000 })).ok;
    };
    const found = await rewrittenObjects({ objects, since: this.since, verify });
    this.rewritten = found.length === 0 ? null : rewrittenObjectsMessage(objects, found, "which git reads as content other than their names say: files_changed, git diff and the next checkout may show what no file of the run held");
  }

  /**
   * Why files_changed may miss changes when the run ends before its last collect() finished (a
   * forced exit while git still records a big workspace): shell calls ran, and what they changed
   * was never looked at. Null when no such call ran.
   */
  notCollected(): string | null {
    return this.baseline && !this.ignored ? `the run ended ${this.whichSnapshot()}, so ${UNKNOWN_CHANGES}` : null;
  }

  unknown(): string | null {
    if (!this.failed) return null;
    return snapshotsCutShort()
      ? `the run was stopped ${this.whichSnapshot()}, so ${UNKNOWN_CHANGES}`
      : gitProgram(this.root, this.env) === null
        ? `${NO_GIT}, so what shell, MCP and discovered tools changed is unknown: files_changed may miss files they changed`
        : `git could not snapshot the workspace (it failed or took over a minute), so ${UNKNOWN_CHANGES}`;
  }

  /**
   * Which of git's two looks at the workspace the run ended before: "before git finished recording
   * the workspace" read as if nothing had been recorded when only the look at the end was skipped.
   */
  private whichSnapshot(): string {
    return this.baselineTaken
      ? "before git's look at the workspace at the end of the run (its state before the first shell, MCP or discovered tool call was recorded)"
      : 'while git was still recording the workspace before the first shell, MCP or discovered tool call';
  }
}

const UNKNOWN_CHANGES = "what shell, MCP and discovered tools changed is unknown: files_changed may miss files they changed (git status in the workspace shows what is uncommitted)";

/** Tools that may change files without reporting a FileDiff. */
function changesUnseen(tool: AnyTool): boolean {
  return tool.kind === 'execute' || tool.kind === 'other';
}
