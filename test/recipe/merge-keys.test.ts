// YAML merge keys (`<<: *anchor`) in a recipe: the way YAML users share settings between two MCP
// servers or rules. They were read as a key named '<<' ("unknown tool '<<'", "unknown key '<<'").
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { FIXTURES } from '../helpers/child-processes.js';
import { cleanupTempDirs, tempDir, writeRecipe } from '../e2e/temp-recipe.js';

afterAll(cleanupTempDirs);

const UNRULY = path.join(FIXTURES, 'mcp/unruly-server.mjs');

describe('YAML merge keys in a recipe', () => {
  it('merge into an MCP server and a rule: the run uses the merged settings', async () => {
    const { file, out, dir } = writeRecipe({}, [{ calls: [{ name: 'b__echo', args: { text: 'merged' } }] }, { text: 'done' }]);
    fs.writeFileSync(
      file,
      [
        'version: 1',
        'provider: scripted',
        'script: turns.yaml',
        'prompt: probe',
        'workspace: .',
        'tools: [read_file, write_file]',
        'confirmation:',
        '  mode: allowlist',
        '  allow:',
        '    - b__echo',
        '    - <<: { write_file: "notes.txt" }',
        'mcp_servers:',
        '  a: &server',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(UNRULY)}]`,
        '    timeout: 30s',
        '  b:',
        '    <<: *server',
        '',
      ].join('\n'),
    );
    const r = await cli(['run', file, '--out', out], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining("'<<'")]);
    const results = readRun(out).events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => [e.error_type, String(e.llm_content)])).toEqual([[null, 'echo {"text":"merged"}']]);
  });

  it('a bad value merged in is reported where it is written and where it is merged', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(file, ['version: 1', 'prompt: hi', 'confirmation: { mode: deny }', 'mcp_servers:', '  a: &server', '    command: node', '    timeout: 3 parsecs', '  b:', '    <<: *server', ''].join('\n'));
    const r = await cliInProcess(['validate', file], { cwd: dir });
    expect(r.code).toBe(52);
    expect(r.stderr.trim().split('\n')).toEqual([
      `${file}:7:14: 'mcp_servers.a.timeout': '3 parsecs' is not a duration: use e.g. 30s, 10m, 1h, or a number of seconds`,
      // b's own timeout is the merged one: the problem is told at the merge.
      `${file}:9:5: 'mcp_servers.b.timeout': '3 parsecs' is not a duration: use e.g. 30s, 10m, 1h, or a number of seconds`,
    ]);
  });
});
