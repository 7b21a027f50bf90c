// State one run keeps across tool calls and shows in its report, passed to the tools that need it.

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface Todo {
  id: string;
  content: string;
  status: TodoStatus;
}

export interface RunState {
  /** The model's task list, replaced whole by each todo_write call. */
  todos: readonly Todo[];
}

export function createRunState(): RunState {
  return { todos: [] };
}
