// A path rule that ends in '/' names the directory and everything under it, and validate, the
// --deny flag, policy check and the run agree on it (it used to pass validate and match nothing).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe("path rules ending in '/'", () => {
  const root = tempDir('directory-rules-');
  const ws = path.join(root, 'ws');
  const key = path.join(ws, 'secret/key.txt');

  it('refuse what is under the directory in validate, policy check and a run', async () => {
    fs.mkdirSync(path.dirname(key), { recursive: true });
    fs.writeFileSync(key, 'hunter2\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), 'x\n');
    const recipe = path.join(root, 'recipe.yaml');
    fs.writeFileSync(recipe, [
      'version: 1',
      'prompt: Read the notes.',
      `workspace: ${JSON.stringify(ws)}`,
      'tools: [read_file, edit]',
      'confirmation:',
      '  mode: auto-approve',
      '  deny: [read_file: "secret/", edit: "secret/"]',
      '',
    ].join('\n'));
    expect((await cli(['validate', recipe])).code).toBe(0);

    const check = async (tool: string, args: object) => JSON.parse((await cli(['policy', 'check', recipe, '--tool', tool, '--args', JSON.stringify(args)])).stdout);
    expect(await check('read_file', { absolute_path: key })).toMatchObject({ decision: 'deny', rule: 'read_file: secret/' });
    expect(await check('edit', { file_path: key, old_string: 'hunter2', new_string: 'x' })).toMatchObject({ decision: 'deny', rule: 'edit: secret/' });
    expect(await check('read_file', { absolute_path: path.join(ws, 'notes.md') })).toMatchObject({ decision: 'allow' });

    const script = path.join(root, 'turns.json');
    const calls = [
      { name: 'read_file', args: { absolute_path: key } },
      { name: 'edit', args: { file_path: key, old_string: 'hunter2', new_string: 'x' } },
    ];
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    await cli([
      'run', '--prompt', 'Read the key.', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out,
      '--approval', 'auto-approve', '--deny', 'read_file:secret/', '--deny', 'edit:secret/', '--tools', 'read_file,edit',
    ]);
    const { report } = readRun(out);
    expect(report.denials.map((d: { tool: string }) => d.tool).sort()).toEqual(['edit', 'read_file']);
    expect(fs.readFileSync(key, 'utf8')).toBe('hunter2\n');
  }, 120_000);
});
