// task: hand a self-contained piece of work to a sub-agent, a nested loop with its own context and
// turn limit, a subset of this run's tools and the same policy. Its final answer is the result.
// The tool only describes the call; the runner given at construction (loop/sub-agent.ts) runs it,
// so tools still never import the loop.
//
// Confirmation: the call says it may change things (so the loop runs it alone, never beside other
// calls), but the runner's judge lets it through without a rule (deny rules aside): each of the
// sub-agent's own calls is judged by the policy, which is where the decisions are.
import { BaseTool, type ConfirmationDetails, type ToolResult } from '../tools.js';
import { oneLine } from './common.js';

export const MAX_TASK_DESCRIPTION_CHARS = 100;
export const MAX_TASK_PROMPT_CHARS = 20_000;

export interface SubAgentRequest {
  description: string;
  prompt: string;
  /** Tool names for the sub-agent; null: every tool it may have. */
  tools: string[] | null;
}

/** Runs one sub-agent to its end; failures come back as error results, never as exceptions. */
export type SubAgentRunner = (request: SubAgentRequest, signal: AbortSignal) => Promise<ToolResult>;

export interface TaskParams {
  description: string;
  prompt: string;
  tools?: string[];
}

export class TaskTool extends BaseTool<TaskParams> {
  readonly name = 'task';
  readonly displayName = 'Sub-agent task';
  readonly description =
    'Hand a self-contained task to a sub-agent with a fresh context; its final answer is the result. ' +
    'prompt: everything it needs to know. tools: names to give it (default: yours, without task).';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'A few words' },
      prompt: { type: 'string' },
      tools: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    },
    required: ['description', 'prompt'],
    additionalProperties: false,
  };
  readonly kind = 'other' as const;

  constructor(private readonly run: SubAgentRunner) {
    super();
  }

  protected override validateSemantics(params: TaskParams): string | null {
    const description = oneLine(params.description);
    if (description === '') return 'description must not be empty';
    if (description.length > MAX_TASK_DESCRIPTION_CHARS) return `description is ${description.length} characters; at most ${MAX_TASK_DESCRIPTION_CHARS}`;
    const prompt = params.prompt.trim();
    if (prompt === '') return 'prompt must not be empty';
    if (prompt.length > MAX_TASK_PROMPT_CHARS) return `prompt is ${prompt.length} characters; at most ${MAX_TASK_PROMPT_CHARS}`;
    if (params.tools?.includes(this.name)) return 'a sub-agent cannot be given task: sub-agents do not start sub-agents';
    return null;
  }

  getDescription(params: TaskParams): string {
    return `sub-agent: ${oneLine(params.description)}`;
  }

  async shouldConfirmExecute(params: TaskParams): Promise<ConfirmationDetails> {
    return { kind: 'other', title: `Run a sub-agent: ${oneLine(params.description)}` };
  }

  execute(params: TaskParams, signal: AbortSignal): Promise<ToolResult> {
    return this.run({ description: oneLine(params.description), prompt: params.prompt.trim(), tools: params.tools ?? null }, signal);
  }
}

