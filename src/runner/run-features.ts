// The run features that span tools and loop, put together for one run from its recipe: the run
// state and memory file the tools write, web access rules, sub-agents (task), plan mode and
// structured output. The session passes `toolContext` to the built-ins; the runner shapes the
// loop's options with `forLoop`. What the features produce reaches the report as events.
import path from 'node:path';
import type { Recipe } from '../recipe/types.js';
import { createPlanState, type PlanState } from '../tools/builtin/exit-plan-mode.js';
import { loadMemory, memorySection } from '../tools/builtin/save-memory.js';
import type { SubAgentRunner } from '../tools/builtin/task.js';
import { geminiGroundedSearch } from '../tools/builtin/web-search.js';
import type { ToolContext } from '../tools/context.js';
import { createRunState, type RunState } from '../tools/run-state.js';
import { errorResult } from '../tools/tools.js';
import type { EventSink } from '../types/events.js';
import { fetchPolicy } from '../policy/fetch-rules.js';
import { chainAnswerChecks, newBudget, type LoopHooks } from '../loop/loop-hooks.js';
import { planModeHooks } from '../loop/plan-mode.js';
import type { LoopOptions } from '../loop/run-loop.js';
import { schemaInstruction, StructuredOutput } from '../loop/structured-output.js';
import { SUB_AGENT_MAX_TURNS, subAgentRunner } from '../loop/sub-agent.js';

export type ToolExtras = Required<Pick<ToolContext, 'runState' | 'memoryFile' | 'search' | 'fetch' | 'runSubAgent' | 'plan' | 'redact'>>;

export interface RunFeaturesOptions {
  /** The run's output directory: the default memory file lives there. */
  outDir: string;
  /** Where the search backend finds its key and endpoint. */
  env: NodeJS.ProcessEnv;
  subAgentMaxTurns?: number;
  /** The run's redaction, for the memory file: it outlives the run and reaches later runs' models. Default: none. */
  redact?: (text: string) => string;
}

const PLAN_NOTE =
  '## Plan mode\nThis run starts in plan mode: only read-only tools are offered. Investigate, then call exit_plan_mode with a concrete step-by-step plan.';

export class RunFeatures {
  readonly runState: RunState = createRunState();
  readonly plan: PlanState;
  readonly memoryFile: string;
  readonly toolContext: ToolExtras;
  private readonly structured: StructuredOutput | null;
  private subAgents: SubAgentRunner | null = null;

  constructor(
    private readonly recipe: Recipe,
    private readonly opts: RunFeaturesOptions,
  ) {
    this.plan = createPlanState(recipe.mode === 'plan');
    this.memoryFile = recipe.memory.file ?? path.join(opts.outDir, 'memory.md');
    this.structured = recipe.output.schema ? new StructuredOutput(recipe.output.schema, recipe.output.maxAttempts) : null;
    this.toolContext = {
      runState: this.runState,
      memoryFile: this.memoryFile,
      search: recipe.provider === 'gemini' ? geminiGroundedSearch({ model: recipe.model, env: opts.env, baseUrl: recipe.baseUrl, pricing: recipe.pricing }) : null,
      fetch: fetchPolicy(recipe.confirmation),
      runSubAgent: (request, signal) =>
        this.subAgents ? this.subAgents(request, signal) : Promise.resolve(errorResult('execution_failed', 'sub-agents are not available outside a run')),
      plan: this.plan,
      redact: opts.redact ?? ((text) => text),
    };
  }

  /**
   * `--continue` of a run that handed in its plan: it went on with every tool offered, and so does
   * this run (plan mode again would refuse the work the plan led to). With plan_only every run
   * ends at a plan: a continued one plans again.
   */
  goOnAfterPlan(plan: string | null): void {
    if (plan === null || this.recipe.mode !== 'plan' || this.recipe.planOnly) return;
    this.plan.active = false;
    this.plan.plan = plan;
  }

  /**
   * The base instructions plus what this run adds: plan mode, the answer format, notes from earlier
   * runs (memory.load). Memory is context only: the policy comes from the recipe, never from here.
   */
  instructions(base: string): { main: string; subAgent: string } {
    const loaded = this.recipe.memory.load ? loadMemory(this.memoryFile) : null;
    // A file written before facts were redacted, or by hand, may hold a secret still.
    const memory = loaded === null ? null : this.toolContext.redact(loaded);
    const memoryPart = memory ? [memorySection(memory)] : [];
    const main = [base];
    if (this.recipe.mode === 'plan' && this.plan.active) main.push(this.recipe.planOnly ? `${PLAN_NOTE} The plan is the result of this run.` : `${PLAN_NOTE} Every tool is offered after that: carry the plan out.`);
    if (this.recipe.output.schema) main.push(schemaInstruction(this.recipe.output.schema));
    return { main: [...main, ...memoryPart].join('\n\n'), subAgent: [base, ...memoryPart].join('\n\n') };
  }

  /**
   * The loop's options as this run's features shape them: `base` carries the base instructions
   * (workspace, recipe instructions); the result adds plan mode, the answer format, memory, the
   * run-wide budget, and the sub-agents the task tool starts.
   */
  forLoop(base: LoopOptions): LoopOptions {
    const budget = base.budget ?? newBudget();
    let currentTaskCall: string | null = null;
    // A task call runs alone (it asks for confirmation), right after its tool_call event.
    const emit: EventSink = (event) => {
      if (event.type === 'tool_call' && event.name === 'task' && event.parent_call_id === undefined) currentTaskCall = event.call_id;
      base.emit(event);
      // The list as it stands after each change is an event, so the report shows it however the run ends.
      if (event.type === 'tool_result' && event.name === 'todo_write' && event.parent_call_id === undefined && event.error_type === null) {
        base.emit({ type: 'todos', todos: this.runState.todos.map((t) => ({ id: t.id, content: t.content, status: t.status })) });
      }
    };
    const instructions = this.instructions(base.systemInstruction);
    this.subAgents = subAgentRunner(
      { ...base, systemInstruction: instructions.subAgent, budget },
      { maxTurns: Math.min(this.opts.subAgentMaxTurns ?? SUB_AGENT_MAX_TURNS, base.limits.maxTurns), currentCallId: () => currentTaskCall },
    );
    const hooks: LoopHooks = {};
    const checks = [];
    if (base.registry.has('exit_plan_mode')) {
      const plan = planModeHooks({ registry: base.registry, state: this.plan, planOnly: this.recipe.planOnly, emit });
      Object.assign(hooks, { tools: plan.tools, afterCalls: plan.afterCalls });
      checks.push(plan.checkAnswer);
    }
    if (this.structured) checks.push(this.structured.check);
    if (checks.length) hooks.checkAnswer = chainAnswerChecks(checks);
    // Compaction keeps the todo list as it stands in the shortened history; the window stays the
    // one the sub-agents (given base's options) share, so what a refusal taught one loop holds for all.
    const compaction = base.compaction ? { ...base.compaction, todos: () => this.runState.todos, windowOf: base.compaction.windowOf ?? base.compaction } : undefined;
    return { ...base, emit, systemInstruction: instructions.main, hooks, budget, ...(compaction ? { compaction } : {}) };
  }

  /** The validated final answer (output.schema); null without a schema or a valid answer. */
  /** What the run should say as it starts: the answer schema's formats that nothing checks. */
  startWarnings(): string[] {
    return this.structured?.unchecked ?? [];
  }

  structuredOutput(): unknown {
    return this.structured?.value ?? null;
  }

}
