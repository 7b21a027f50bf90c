// Holds the tools offered to the model: register, look up by name, declare to the model.
import type { FunctionDeclaration } from '../types/content.js';
import type { AnyTool } from './tools.js';

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

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
}
