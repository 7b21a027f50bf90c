// Holds the tools offered to the model: register, look up by name, declare to the model. An MCP
// server may change its tools during a run (notifications/tools/list_changed): such a source is
// followed, and refresh() applies what it says before each model request of the main loop.
import type { FunctionDeclaration } from '../types/content.js';
import type { AnyTool } from './tools.js';

/** What one source's new list did to the tools offered: names as the model sees them. */
export interface ToolsChange {
  /** The MCP server whose list changed. */
  server: string;
  added: string[];
  removed: string[];
  /** Offered before and after under the same name, with a new description or schema. */
  changed: string[];
}

/** A source's new list: the names it no longer offers, and its tools as they are now. */
export interface ToolsUpdate {
  change: ToolsChange;
  removed: string[];
  tools: AnyTool[];
}

export type ToolSource = (signal: AbortSignal) => Promise<ToolsUpdate[]>;

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly sources: ToolSource[] = [];
  /** Changes a follower's refresh applied, not yet returned by this registry's own (refresh). */
  private readonly unreported: ToolsChange[] = [];
  /** One more each time the tools change after registration: the loop declares them anew. */
  version = 0;

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) throw new Error(`a tool named '${tool.name}' is already registered`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Names in registration order: stable, so requests are byte-identical run to run. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  all(): AnyTool[] {
    return [...this.tools.values()];
  }

  declarations(): FunctionDeclaration[] {
    return this.all().map((t) => t.schema);
  }

  /** Tools that can change during the run (an MCP server's). */
  follow(source: ToolSource): void {
    this.sources.push(source);
  }

  /**
   * What the sources changed since the last call, applied: a tool that stays keeps its place (the
   * request's prefix stays cacheable), a new one goes last.
   */
  async refresh(signal: AbortSignal, forFollower = false): Promise<ToolsChange[]> {
    if (this.sources.length === 0) return [];
    const changes: ToolsChange[] = [];
    for (const source of this.sources) {
      for (const update of await source(signal)) {
        for (const name of update.removed) this.tools.delete(name);
        for (const tool of update.tools) this.tools.set(tool.name, tool);
        changes.push(update.change);
      }
    }
    if (changes.length > 0) this.version++;
    // Applied at a sub-agent's asking (`forFollower`, sub-agent.ts), which tells its own view of
    // them: this registry's own next refresh tells them too, or the main loop would be offered
    // tools no event ever named (a sub-agent kept to a list of tools tells none of them).
    if (forFollower) {
      this.unreported.push(...changes);
      return changes;
    }
    return [...this.unreported.splice(0), ...changes];
  }
}
