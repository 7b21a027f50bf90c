// Plan mode (recipe `mode: plan`): until the model calls exit_plan_mode, it is offered only tools
// that cannot change anything (kinds read, search, think) and exit_plan_mode; a call to any other
// tool of the run is answered with an error that says why. Once the plan is in, it is recorded (a
// `plan` event, hence the report), and every tool is offered from the next turn, or, with
// plan_only, the run ends with the plan as its final answer.
import { ToolRegistry } from '../tools/registry.js';
import { BaseTool, errorResult, type AnyTool, type ToolResult } from '../tools/tools.js';
import type { PlanState } from '../tools/builtin/exit-plan-mode.js';
import type { EventSink } from '../types/events.js';
import type { AnswerVerdict, LoopHooks } from './loop-hooks.js';

const PLAN_KINDS = new Set(['read', 'search', 'think']);
const EXIT = 'exit_plan_mode';

export function isPlanModeTool(tool: AnyTool): boolean {
  return tool.name === EXIT || PLAN_KINDS.has(tool.kind);
}

export interface PlanModeOptions {
  /** Every tool of the run (exit_plan_mode among them). */
  registry: ToolRegistry;
  state: PlanState;
  planOnly: boolean;
  emit: EventSink;
}

export function planModeHooks(opts: PlanModeOptions): Required<Pick<LoopHooks, 'tools' | 'afterCalls' | 'checkAnswer'>> {
  let planning = planningRegistry(opts.registry, opts.planOnly);
  let afterwards = withoutTool(opts.registry, EXIT);
  // An MCP server's tools that changed (tools/registry.ts refresh) are sorted again.
  let sorted = opts.registry.version;
  let planned = !opts.state.active;
  let nudged = false;
  return {
    tools: () => {
      if (opts.registry.version !== sorted) [planning, afterwards, sorted] = [planningRegistry(opts.registry, opts.planOnly), withoutTool(opts.registry, EXIT), opts.registry.version];
      return planned ? afterwards : planning;
    },
    afterCalls: (turn) => {
      if (planned || opts.state.active || opts.state.plan === null) return null;
      planned = true;
      opts.emit({ type: 'plan', turn, plan: opts.state.plan });
      return opts.planOnly ? opts.state.plan : null;
    },
    // A model that answers without handing in a plan is told once how plan mode works; a second
    // answer ends the run as any answer does (there may be nothing to do).
    checkAnswer: (): AnswerVerdict => {
      if (planned || nudged) return { verdict: 'accept' };
      nudged = true;
      return {
        verdict: 'retry',
        attempt: 1,
        reason: 'answered in plan mode without calling exit_plan_mode',
        feedback:
          'You are in plan mode. Call exit_plan_mode with your plan to go on' +
          (opts.planOnly ? ' (the plan is the result of this run)' : ' (the other tools are offered after that)') +
          '. If there is nothing to plan, answer again and the run ends.',
      };
    },
  };
}

/** The tools offered while planning; the others are present only to refuse with a clear reason. */
function planningRegistry(full: ToolRegistry, planOnly: boolean): ToolRegistry {
  const offered = full.all().filter(isPlanModeTool);
  const refused = new Map(full.all().filter((t) => !isPlanModeTool(t)).map((t) => [t.name, new RefusedInPlanMode(t, planOnly)]));
  const registry = new (class extends ToolRegistry {
    override get(name: string): AnyTool | undefined {
      return super.get(name) ?? refused.get(name);
    }
  })();
  const names = offered.map((t) => t.name);
  for (const tool of offered) registry.register(tool.forTools(names));
  return registry;
}

function withoutTool(full: ToolRegistry, name: string): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of full.all()) if (tool.name !== name) registry.register(tool);
  return registry;
}

/**
 * Why plan mode refuses a call of this tool, or null when the tool is offered. Such a call never
 * reaches the policy or the tool: it is no attempt at what the tool does (an edit refused here is
 * not an edit that failed; runner/change-ledger.ts).
 */
export function heldBackInPlanMode(tool: AnyTool): string | null {
  return tool instanceof RefusedInPlanMode ? tool.refusal() : null;
}

/** Stands in for a tool that plan mode holds back: the call never reaches the policy or the tool. */
class RefusedInPlanMode extends BaseTool {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly parameterSchema: BaseTool['parameterSchema'];
  readonly kind: BaseTool['kind'];

  constructor(
    tool: AnyTool,
    private readonly planOnly: boolean,
  ) {
    super();
    this.name = tool.name;
    this.displayName = tool.displayName;
    this.description = tool.description;
    this.parameterSchema = tool.parameterSchema;
    this.kind = tool.kind;
  }

  refusal(): string {
    // With plan_only the run ends at the plan: promising the tool afterwards would have the model
    // plan on calling it itself.
    if (this.planOnly) return `${this.name} is not available in plan mode: investigate with the read-only tools, then call exit_plan_mode with your plan, which is the result of this run (it ends there, and no other tool runs)`;
    return `${this.name} is not available in plan mode: investigate with the read-only tools, then call exit_plan_mode with your plan; every tool is offered after that`;
  }

  override validateToolParams(): string {
    return this.refusal();
  }

  getDescription(): string {
    return this.name;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(): Promise<ToolResult> {
    return errorResult('invalid_params', this.refusal());
  }
}
