// NO_CONFIRMATION_TOOLS is what validate and --allow go by to refuse an allow rule that reads as a
// limit but limits nothing (`read_file: docs/**`). It must say what the tools do: a tool in it
// that started asking would make such rules meaningful (and refused), one missing from it would
// let them through again.
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, NO_CONFIRMATION_TOOLS } from '../../src/tools/names.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { cleanupAll, makeWorkspace } from './helpers.js';

afterAll(cleanupAll);

describe('the tools that never ask for confirmation', () => {
  const ws = makeWorkspace({ 'a.txt': 'a\n' });
  const file = `${ws.root}/a.txt`;
  const params: Record<string, object> = {
    ls: {},
    read_file: { absolute_path: file },
    write_file: { file_path: 'a.txt', content: 'b\n' },
    edit: { file_path: 'a.txt', old_string: 'a', new_string: 'b' },
    grep: { pattern: 'a' },
    glob: { pattern: '*.txt' },
    read_many_files: { paths: ['a.txt'] },
    shell: { command: 'true' },
    web_fetch: { prompt: 'Summarise https://example.com/' },
    web_search: { query: 'x' },
    save_memory: { fact: 'x' },
    todo_write: { todos: [] },
    task: { description: 'look', prompt: 'look around' },
    exit_plan_mode: { plan: 'p' },
  };
  const ctx = {
    ...ws.ctx,
    search: async () => ({ text: '', sources: [] }),
    memoryFile: `${ws.root}/../memory.md`,
    runSubAgent: async () => ({ text: '' }),
    plan: { active: true },
  } as never;

  it.each(BUILTIN_TOOL_NAMES.map((name) => [name]))('%s asks exactly when it is not in the set', async (name) => {
    expect(params[name], `params for ${name}`).toBeDefined();
    const tool = createBuiltinTools(ctx, [name])[0]!;
    const asks = await tool.shouldConfirmExecute(params[name] as never, new AbortController().signal);
    expect(asks === false, `${name} asks: ${JSON.stringify(asks)}`).toBe(NO_CONFIRMATION_TOOLS.has(name));
  });
});
