// The tool contract of the seed (Qwen Code core Tools API): BaseTool, ToolResult, FileDiff.
// Tools never import the loop or the policy: they describe what a call would do
// (shouldConfirmExecute) and the loop asks the policy.
import type { FunctionDeclaration, JsonSchema, Part, TokenUsage } from '../types/content.js';
import { compileSchema, schemaValidator, type SchemaValidator } from '../util/json-schema.js';
import { precompiledValidator } from './param-validators.js';

export type { FileDiff, ToolError, ToolErrorType, ToolResultDisplay } from '../types/tool-result.js';
export type { ConfirmationDetails } from '../types/policy.js';
import type { ConfirmationDetails } from '../types/policy.js';
import type { ToolError, ToolErrorType, ToolResultDisplay } from '../types/tool-result.js';
import { withParameterNames } from './unknown-parameter.js';

/**
 * A result with more text than this reaches the model as head and tail, its middle saved aside
 * (loop/output-cap.ts); tools that page their output stay below it.
 */
export const DEFAULT_OUTPUT_THRESHOLD = 40_000;

export interface ToolResult {
  /** Sent back to the model as the FunctionResponse. */
  llmContent: string | Part[];
  /** For people: Markdown text or a FileDiff. */
  returnDisplay: ToolResultDisplay;
  error?: ToolError;
  /**
   * Set when llmContent is the content of this workspace file (relative path): the loop may drop
   * it from the history once the file has changed (loop/stale-reads.ts).
   */
  contentOf?: string;
  /**
   * Set when llmContent's first lines are lines of workspace files (a search's matches): the file
   * (relative path) of each, in order. The loop may leave out the lines of files changed since
   * (loop/stale-matches.ts).
   */
  linesOf?: string[];
  /** Workspace files (relative paths) the call changed besides its FileDiff's: a sub-agent's edits. */
  changedFiles?: string[];
  /** The tool kept only part of what it produced (a command's megabytes): the text says what it dropped. */
  cutAtSource?: true;
  /**
   * The tool stopped at one of its caps (matches, paths, entries, files, a page, characters, time)
   * and its text says what was left out: the call is counted as truncated in the report.
   */
  truncated?: true;
  /**
   * Model tokens the call spent on the run's account (web_search's grounded request): the loop
   * records them as a side_request event and counts them in the run's usage and budgets.
   */
  usage?: TokenUsage;
  /**
   * What the tool produced, when llmContent describes part of it instead (a command's binary
   * output): saved under tool-outputs/ for people, as a result over the cap is.
   */
  fullOutput?: string;
}

export type ToolKind = 'read' | 'search' | 'edit' | 'execute' | 'fetch' | 'think' | 'other';

export abstract class BaseTool<P = Record<string, unknown>> {
  abstract readonly name: string;
  abstract readonly displayName: string;
  abstract readonly description: string;
  abstract readonly parameterSchema: JsonSchema;
  abstract readonly kind: ToolKind;
  /** Paths in these parameters are workspace paths (used by the policy's path rules). */
  readonly pathParams: readonly string[] = [];
  /**
   * Other names the recipe's rules may use for this tool (an MCP tool's `alias__tool` before it
   * was made provider-safe): a rule naming any of them is about this tool.
   */
  readonly ruleNames: readonly string[] = [];
  /** The MCP server this tool is offered from (its alias): rules `alias__*` name only its tools. */
  readonly mcpServer: string | null = null;
  /**
   * The tool holds its calls to limits.tool_timeout itself (it is given it as its longest timeout)
   * and says so in its own words, with what it got so far: the loop's bound on every call is then
   * a backstop a little later, not a race with the tool's own (loop/calls.ts).
   */
  readonly timesItself: boolean = false;

  private validator: SchemaValidator | undefined;

  /** Schema check (compiled once per tool), then the tool's own semantic checks. */
  validateToolParams(params: unknown): string | null {
    if (!this.validator) {
      const built = precompiledValidator(JSON.stringify(this.parameterSchema));
      this.validator = built ? schemaValidator(built) : compileSchema(this.parameterSchema);
    }
    const schemaError = this.validator(params);
    if (schemaError) return withParameterNames(schemaError, this.name, this.parameterSchema as { properties?: Record<string, unknown> });
    return this.validateSemantics(params as P);
  }

  /** Checks JSON Schema cannot express (absolute paths, confinement, ranges). */
  protected validateSemantics(_params: P): string | null {
    return null;
  }

  /** One line for people: what this call will do. */
  abstract getDescription(params: P): string;

  /** `false` when the call cannot change anything; otherwise what a human would be asked. */
  abstract shouldConfirmExecute(params: P, signal: AbortSignal): Promise<ConfirmationDetails | false>;

  abstract execute(params: P, signal: AbortSignal): Promise<ToolResult>;

  /**
   * This tool for an agent offered only `names` (a sub-agent's list, plan mode before the plan): a
   * tool whose notes name other tools answers with one that names only those the agent has.
   */
  forTools(_names: readonly string[]): AnyTool {
    return this;
  }

  /** The declaration sent to the model with every request (see `declaredParameters`). */
  get schema(): FunctionDeclaration {
    return { name: this.name, description: this.description, parameters: declaredParameters(this.parameterSchema) };
  }
}

const declared = new WeakMap<JsonSchema, JsonSchema>();

/**
 * The parameter schema as the model sees it: without a top-level `additionalProperties: false`.
 * The property list already says what the tool takes, the runner still validates every call
 * against the full schema (an unknown parameter is refused with its name), and the keyword costs
 * 28 bytes per tool on every request (8% of the built-in declarations). MCP schemas lose it too
 * (mcp/schema-clean.ts: Gemini's schema subset rejects it).
 */
function declaredParameters(schema: JsonSchema): JsonSchema {
  if (schema.additionalProperties !== false) return schema;
  let out = declared.get(schema);
  if (!out) {
    const { additionalProperties: _closed, ...rest } = schema;
    declared.set(schema, (out = rest));
  }
  return out;
}

export type AnyTool = BaseTool<any>;

/**
 * Kinds that change nothing in the workspace (think: the run's own notes, todos, plan). A call of
 * any other kind may change files, even when it needs no confirmation (a trusted MCP server's
 * tool): it gets the baseline snapshot and runs alone. An MCP server's `readOnlyHint` is not
 * taken: the server is untrusted input, and a wrong hint would hide its changes.
 */
const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'think']);

export function isReadOnly(tool: AnyTool): boolean {
  return READ_ONLY_KINDS.has(tool.kind);
}

export function errorResult(type: ToolErrorType, message: string): ToolResult {
  return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, error: { type, message } };
}
