// Changes made by tools that do not report them (shell, MCP, discovered tools), found with git:
// a snapshot of the workspace before the first call that can change anything, and one at the end.
// Only when such a tool is offered and the workspace is a git work tree; best effort, never fatal.
import path from 'node:path';
import { changesBetween, inGitWorkTree, snapshotTree } from '../git/snapshot.js';
import type { ChangedFile } from '../report/report.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AnyTool } from '../tools/tools.js';

export class UntrackedChanges {
  private constructor(
    private readonly root: string,
    private readonly exclude: string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly baseline: Promise<string | null>,
  ) {}

  /** Starts the baseline snapshot at once (it runs while the model thinks); null when not needed. */
  static start(root: string, registry: ToolRegistry, outDir: string, env: NodeJS.ProcessEnv): UntrackedChanges | null {
    if (!registry.all().some(changesUnseen) || !inGitWorkTree(root)) return null;
    const rel = path.relative(root, outDir);
    const exclude = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? [rel.split(path.sep).join('/')] : [];
    return new UntrackedChanges(root, exclude, env, snapshotTree(root, exclude, env));
  }

  /** For the loop: nothing may change the workspace before the baseline exists. */
  readonly ready = async (): Promise<void> => {
    await this.baseline;
  };

  /** What changed since the baseline, when one of the unseen-change tools actually ran. */
  async collect(toolsThatRan: string[], registry: ToolRegistry): Promise<ChangedFile[]> {
    const ranUnseen = toolsThatRan.map((name) => registry.get(name)).some((tool) => tool !== undefined && changesUnseen(tool));
    if (!ranUnseen) return [];
    const before = await this.baseline;
    if (!before) return [];
    const after = await snapshotTree(this.root, this.exclude, this.env);
    return after && after !== before ? changesBetween(this.root, before, after, this.env) : [];
  }
}

/** Tools that may change files without reporting a FileDiff. */
function changesUnseen(tool: AnyTool): boolean {
  return tool.kind === 'execute' || tool.kind === 'other';
}
