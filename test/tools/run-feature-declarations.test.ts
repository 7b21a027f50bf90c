import { describe, expect, it } from 'vitest';
import { SaveMemoryTool } from '../../src/tools/builtin/save-memory.js';
import { TodoWriteTool } from '../../src/tools/builtin/todo-write.js';
import { WebFetchTool } from '../../src/tools/builtin/web-fetch.js';
import { WebSearchTool } from '../../src/tools/builtin/web-search.js';
import { createRunState } from '../../src/tools/run-state.js';

describe('declarations of web_fetch, web_search, save_memory, todo_write', () => {
  const tools = [
    new WebFetchTool(),
    new WebSearchTool({ search: null }),
    new SaveMemoryTool({ memoryFile: '/tmp/unused/memory.md' }),
    new TodoWriteTool({ state: createRunState() }),
  ];

  it('use the contract names and parameters', () => {
    expect(Object.fromEntries(tools.map((t) => [t.name, Object.keys((t.parameterSchema as { properties: object }).properties)]))).toEqual({
      web_fetch: ['url', 'prompt'],
      web_search: ['query'],
      save_memory: ['fact'],
      todo_write: ['todos'],
    });
  });

  it('stay within 1300 bytes together (sent with every request)', () => {
    const bytes = Buffer.byteLength(JSON.stringify(tools.map((t) => t.schema)));
    console.log(`declarations of the 4 tools: ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(1300);
  });
});
