// todo_write: the model's task list, replaced whole on each call and kept in the run state, so the
// report can show where the work stood. No confirmation (kind 'think'): it changes nothing outside
// the run's own memory.
import { BaseTool, type ToolResult } from '../tools.js';
import type { RunState, Todo, TodoStatus } from '../run-state.js';
import { oneLine } from './common.js';

export const MAX_TODOS = 50;
export const MAX_TODO_CHARS = 300;

export interface TodoWriteOptions {
  state: RunState;
}

export interface TodoWriteParams {
  todos: { id?: string; content: string; status: TodoStatus }[];
}

const MARKS: Record<TodoStatus, string> = { completed: '[x]', in_progress: '[>]', pending: '[ ]' };

export class TodoWriteTool extends BaseTool<TodoWriteParams> {
  readonly name = 'todo_write';
  readonly displayName = 'Write todos';
  readonly description = 'Replace your task list (whole list each call). At most one in_progress.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems: MAX_TODOS,
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            content: { type: 'string' },
            status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          },
          required: ['content', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  };
  readonly kind = 'think' as const;

  constructor(private readonly options: TodoWriteOptions) {
    super();
  }

  protected override validateSemantics(params: TodoWriteParams): string | null {
    const ids = new Set<string>();
    for (const [i, todo] of params.todos.entries()) {
      const content = oneLine(todo.content);
      if (content === '') return `todos.${i}.content must not be empty`;
      if (content.length > MAX_TODO_CHARS) return `todos.${i}.content is ${content.length} characters; at most ${MAX_TODO_CHARS}`;
      if (todo.id !== undefined) {
        if (ids.has(todo.id)) return `todos.${i}.id '${todo.id}' is used twice`;
        ids.add(todo.id);
      }
    }
    const active = params.todos.filter((t) => t.status === 'in_progress').length;
    if (active > 1) return `${active} todos are in_progress; at most one may be`;
    return null;
  }

  getDescription(params: TodoWriteParams): string {
    return `update the task list (${summary(params.todos)})`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: TodoWriteParams): Promise<ToolResult> {
    const taken = new Set(params.todos.flatMap((t) => (t.id === undefined ? [] : [t.id])));
    let next = 1;
    const todos = params.todos.map((todo): Todo => {
      let id = todo.id;
      if (id === undefined) {
        while (taken.has(String(next))) next++;
        id = String(next);
        taken.add(id);
      }
      return Object.freeze({ id, content: oneLine(todo.content), status: todo.status });
    });
    this.options.state.todos = Object.freeze(todos);
    const text = renderTodos(todos);
    return { llmContent: text, returnDisplay: text };
  }
}

/** The compact list the model and the report see: `[x] done`, `[>] doing`, `[ ] to do`. */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'Task list cleared.';
  return [`Task list (${summary(todos)}):`, ...todos.map((t) => `${MARKS[t.status]} ${t.content}`)].join('\n');
}

function summary(todos: readonly { status: TodoStatus }[]): string {
  const done = todos.filter((t) => t.status === 'completed').length;
  return `${done} of ${todos.length} done`;
}

