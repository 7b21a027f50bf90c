// `${NAME}` in a recipe's MCP server entry, as --mcp-config files and Claude Code's .mcp.json write
// it: a recipe is never filled from the environment, so the text itself went to the server (a
// `Bearer ${API_KEY}` header, a GITHUB_TOKEN of `${GH_TOKEN}`), which refused it mid-run. validate says so.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('${NAME} in a recipe MCP server', () => {
  it('is a problem at its place, saying what works instead for stdio and for HTTP', async () => {
    const dir = tempDir('unattended-mcp-variables-');
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(
      file,
      [
        'version: 1',
        'prompt: hi',
        'confirmation: { mode: deny }',
        'mcp_servers:',
        '  gh:',
        '    command: npx',
        '    env:',
        '      GITHUB_TOKEN: ${GH_TOKEN}',
        '      PRICE: $5 a month',
        '  api:',
        '    url: https://api.example.com/mcp',
        '    headers:',
        '      Authorization: Bearer ${API_KEY:-none}',
        '',
      ].join('\n'),
    );
    const r = await cli(['validate', file], { cwd: dir });
    expect(r.code).toBe(52);
    expect(r.stderr.trim().split('\n')).toEqual([
      `${file}:8:21: a recipe does not fill \${GH_TOKEN} from the environment (it could send your secrets to any server it names): \`env: {pass: [GH_TOKEN]}\` gives the run's tools and servers GH_TOKEN itself`,
      `${file}:13:29: a recipe does not fill \${API_KEY} from the environment (it could send your secrets to any server it names): give this server with --mcp-config FILE, where \${NAME} is filled from the environment`,
    ]);
  });
});
