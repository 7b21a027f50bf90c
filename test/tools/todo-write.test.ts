import { describe, expect, it } from 'vitest';
import { TodoWriteTool, renderTodos } from '../../src/tools/builtin/todo-write.js';
import { createRunState } from '../../src/tools/run-state.js';

describe('todo_write', () => {
  it('replaces the list in the run state and answers with a compact rendering', async () => {
    const state = createRunState();
    const tool = new TodoWriteTool({ state });
    const first = {
      todos: [
        { content: 'Read the failing test', status: 'completed' },
        { id: '1', content: 'Fix the\nparser', status: 'in_progress' },
        { content: 'Run the suite', status: 'pending' },
      ],
    };
    expect(tool.validateToolParams(first)).toBeNull();
    const result = await tool.execute(first as never);
    const expected = 'Task list (1 of 3 done):\n[x] Read the failing test\n[>] Fix the parser\n[ ] Run the suite';
    expect(result).toEqual({ llmContent: expected, returnDisplay: expected });
    // Ids the model gave are kept; missing ones are filled in without colliding.
    expect(state.todos.map((t) => t.id)).toEqual(['2', '1', '3']);
    expect(renderTodos(state.todos)).toBe(expected);

    await tool.execute({ todos: [{ content: 'Run the suite', status: 'completed' }] });
    expect(state.todos).toEqual([{ id: '1', content: 'Run the suite', status: 'completed' }]);
    expect(Object.isFrozen(state.todos)).toBe(true);

    expect((await tool.execute({ todos: [] })).llmContent).toBe('Task list cleared.');
    expect(state.todos).toEqual([]);
  });

  const item = (status: string, content = 'step') => ({ content, status });
  it.each([
    [[item('in_progress'), item('in_progress')], '2 todos are in_progress; at most one may be'],
    [[item('pending', '  \n ')], 'todos.0.content must not be empty'],
    [[item('pending', 'x'.repeat(301))], 'todos.0.content is 301 characters; at most 300'],
    [[{ id: 'a', ...item('pending') }, { id: 'a', ...item('pending') }], "todos.1.id 'a' is used twice"],
    [[item('done')], "'todos.0.status' must be one of \"pending\", \"in_progress\", \"completed\""],
    [Array.from({ length: 51 }, () => item('pending')), "'todos' must NOT have more than 50 items"],
  ])('refuses %#', (todos, message) => {
    const state = createRunState();
    expect(new TodoWriteTool({ state }).validateToolParams({ todos })).toBe(message);
  });

  it('never asks for confirmation', async () => {
    const tool = new TodoWriteTool({ state: createRunState() });
    expect(await tool.shouldConfirmExecute()).toBe(false);
    expect(tool.kind).toBe('think');
  });
});
