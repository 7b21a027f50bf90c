import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools, CORE_TOOL_NAMES } from '../../src/tools/builtin/index.js';
import { DEFAULT_TOOL_NAMES } from '../../src/tools/names.js';
import { cleanupAll, makeWorkspace } from './helpers.js';

afterAll(cleanupAll);

describe('createBuiltinTools', () => {
  it('creates the eight core tools in the order asked, with their contract names', () => {
    const ws = makeWorkspace();
    const names = ['shell', 'ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files'];
    expect(createBuiltinTools(ws.ctx, names).map((t) => t.name)).toEqual(names);
    expect([...CORE_TOOL_NAMES].sort()).toEqual([...DEFAULT_TOOL_NAMES].sort());
  });

  it.each(['web_crawl', 'nope', 'toString', '__proto__'])('refuses %s, naming the valid tools', (name) => {
    const ws = makeWorkspace();
    expect(() => createBuiltinTools(ws.ctx, [name])).toThrow(/valid: ls, read_file, write_file, edit, grep, glob, read_many_files, shell/);
  });

  it('declares the parameters of the DESIGN.md contract', () => {
    const ws = makeWorkspace();
    const params = Object.fromEntries(
      createBuiltinTools(ws.ctx, DEFAULT_TOOL_NAMES).map((t) => [t.name, Object.keys((t.parameterSchema as { properties: object }).properties)]),
    );
    expect(params).toEqual({
      ls: ['path', 'offset'],
      read_file: ['absolute_path', 'offset', 'limit'],
      write_file: ['file_path', 'content'],
      edit: ['file_path', 'old_string', 'new_string', 'expected_replacements'],
      grep: ['pattern', 'path', 'include'],
      glob: ['pattern', 'path'],
      read_many_files: ['paths', 'exclude'],
      shell: ['command', 'description', 'directory', 'timeout_ms'],
    });
  });

  it('keeps the eight declarations within 4500 bytes (sent with every request)', () => {
    const ws = makeWorkspace();
    const bytes = Buffer.byteLength(JSON.stringify(createBuiltinTools(ws.ctx, DEFAULT_TOOL_NAMES).map((t) => t.schema)));
    console.log(`declarations of the 8 core tools: ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(4500);
  });

  it('declares no additionalProperties (the property list says it), yet refuses an unknown parameter', () => {
    const ws = makeWorkspace();
    for (const tool of createBuiltinTools(ws.ctx, DEFAULT_TOOL_NAMES)) {
      expect(tool.schema.parameters).not.toHaveProperty('additionalProperties');
      expect(tool.schema.parameters.properties).toEqual(tool.parameterSchema.properties);
    }
    expect(ws.tool('read_file').validateToolParams({ absolute_path: `${ws.root}/a.txt`, lines: 3 })).toMatch(/lines/);
  });

  it("refuses another agent's parameter name saying what the tool takes, and what does the same", () => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    const file = `${ws.root}/a.txt`;
    expect(ws.tool('edit').validateToolParams({ file_path: file, old_string: 'a', new_string: 'b', replace_all: true })).toBe(
      "unknown parameter 'replace_all' (edit takes file_path, old_string, new_string, expected_replacements; for 'replace_all' give expected_replacements: N replaces every one of N occurrences)",
    );
    expect(ws.tool('read_file').validateToolParams({ file_path: file })).toMatch(/\(read_file takes absolute_path, offset, limit; for 'file_path' give absolute_path\)$/);
    expect(ws.tool('grep').validateToolParams({ pattern: 'a', glob: '*.ts' })).toMatch(/\(grep takes pattern, path, include; for 'glob' give include\)$/);
    expect(ws.tool('write_file').validateToolParams({ path: file, content: 'x' })).toMatch(/for 'path' give file_path\)$/);
    // A name no peer is known to use: the list alone.
    expect(ws.tool('glob').validateToolParams({ pattern: '*', deep: true })).toBe("unknown parameter 'deep' (glob takes pattern, path)");
  });

  it('asks for confirmation only for tools that can change something', async () => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    const signal = new AbortController().signal;
    const asks = async (name: string, params: object) => ws.tool(name).shouldConfirmExecute(params, signal);
    expect(await asks('ls', {})).toBe(false);
    expect(await asks('read_file', { absolute_path: `${ws.root}/a.txt` })).toBe(false);
    expect(await asks('grep', { pattern: 'a' })).toBe(false);
    expect(await asks('glob', { pattern: '*' })).toBe(false);
    expect(await asks('read_many_files', { paths: ['a.txt'] })).toBe(false);
    expect(await asks('write_file', { file_path: 'new/b.txt', content: '' })).toMatchObject({ kind: 'edit', paths: [`${ws.root}/new/b.txt`] });
    expect(await asks('edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' })).toMatchObject({ kind: 'edit', paths: [`${ws.root}/a.txt`] });
    expect(await asks('shell', { command: 'git status' })).toMatchObject({ kind: 'exec', command: 'git status', directory: ws.root });
  });
});
