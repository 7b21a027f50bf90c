// A run without --out writes to .unattended/runs/<run-id> under the current directory, which is
// usually a repository's work tree. A repository can ship `.unattended` (or `.unattended/runs`) as
// a link: the runner, on the host, then created its run directory wherever the link led (another
// repository's work tree, a served or synced directory) and wrote the transcript, with every file
// and output the run read, there. Such a link is refused before anything is written.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function scriptedRecipe(dir: string): string {
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ text: 'done' }] }));
  const recipe = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(recipe, YAML.stringify({ version: 1, prompt: 'p', provider: 'scripted', script: 'turns.yaml', tools: [], confirmation: { mode: 'auto-approve' } }));
  return recipe;
}

describe('the default runs directory', () => {
  it.each([['.unattended'], ['.unattended/runs']])('is not written through a link at %s that the work tree holds', async (link) => {
    const dir = tempDir('unattended-linked-runs-');
    const recipe = scriptedRecipe(dir);
    const ws = path.join(dir, 'ws');
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(path.join(ws, path.dirname(link)), { recursive: true });
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, path.join(ws, link));
    const result = await cli(['run', recipe], { cwd: ws });
    expect(result.code).toBe(42);
    expect(result.stderr).toContain(`${link} is a link`);
    expect(result.stderr).toContain('--out');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it("is not written through a link by batch either (.unattended/batches)", async () => {
    const dir = tempDir('unattended-linked-runs-');
    const recipe = scriptedRecipe(dir);
    const ws = path.join(dir, 'ws');
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(path.join(dir, 'target'));
    fs.writeFileSync(path.join(dir, 'targets.txt'), `${path.join(dir, 'target')}\n`);
    fs.mkdirSync(ws);
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, path.join(ws, '.unattended'));
    const result = await cli(['batch', recipe, '--targets', path.join(dir, 'targets.txt')], { cwd: ws });
    expect(result.code).toBe(42);
    expect(result.stderr).toContain('.unattended is a link');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('is still made where there is no link', async () => {
    const dir = tempDir('unattended-linked-runs-');
    const recipe = scriptedRecipe(dir);
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const result = await cli(['run', recipe], { cwd: ws });
    expect(result.code).toBe(0);
    expect(fs.readdirSync(path.join(ws, '.unattended', 'runs'))).toHaveLength(1);
  });
});
