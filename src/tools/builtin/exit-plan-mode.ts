// exit_plan_mode: the model hands in its plan and leaves plan mode. The tool only records the plan;
// the loop's plan-mode hook (loop/plan-mode.ts) sees it, puts it in the report, and offers every
// tool from the next turn (or ends the run, with plan_only). No confirmation (kind 'think').
import { BaseTool, errorResult, type ToolResult } from '../tools.js';

export const MAX_PLAN_CHARS = 20_000;

/** Shared by the tool and the plan-mode hook of one run. */
export interface PlanState {
  /** True while only read-only tools are offered. */
  active: boolean;
  /** The plan handed in with exit_plan_mode; null until then. */
  plan: string | null;
}

export function createPlanState(active: boolean): PlanState {
  return { active, plan: null };
}

export interface ExitPlanModeParams {
  plan: string;
}

export class ExitPlanModeTool extends BaseTool<ExitPlanModeParams> {
  readonly name = 'exit_plan_mode';
  readonly displayName = 'Exit plan mode';
  readonly description = 'Hand in your plan (Markdown, concrete steps) and leave plan mode: the other tools are offered from your next turn.';
  readonly parameterSchema = {
    type: 'object',
    properties: { plan: { type: 'string' } },
    required: ['plan'],
    additionalProperties: false,
  };
  readonly kind = 'think' as const;

  constructor(private readonly state: PlanState) {
    super();
  }

  protected override validateSemantics(params: ExitPlanModeParams): string | null {
    const plan = params.plan.trim();
    if (plan === '') return 'plan must not be empty';
    if (plan.length > MAX_PLAN_CHARS) return `plan is ${plan.length} characters; at most ${MAX_PLAN_CHARS}`;
    return null;
  }

  getDescription(params: ExitPlanModeParams): string {
    const first = params.plan.trim().split('\n')[0] ?? '';
    return `hand in the plan (${first.length > 60 ? `${first.slice(0, 60)}…` : first})`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: ExitPlanModeParams): Promise<ToolResult> {
    if (!this.state.active) return errorResult('execution_failed', 'not in plan mode: every tool of this run is already offered; carry on with the task');
    this.state.plan = params.plan.trim();
    this.state.active = false;
    return {
      llmContent: 'Plan recorded. Plan mode is over: from your next turn every tool of this run is offered. Carry out the plan.',
      returnDisplay: 'Plan recorded; plan mode is over',
    };
  }
}
