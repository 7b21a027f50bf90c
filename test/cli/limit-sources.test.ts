// A limit's error names the place the user set it: an ad-hoc run's `--max-cost-usd` for a model
// with no known price used to say "limits.max_cost_usd … add pricing … to the recipe", though the
// user passed a flag and had no recipe.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('--max-cost-usd for a model without a price', () => {
  it('an ad-hoc run names the flag and how to give a price, not a recipe it does not have', async () => {
    const r = await cli(['run', '--prompt', 'go', '--model', 'my-custom-model', '--max-cost-usd', '0.001'], { cwd: tempDir(), env: { GEMINI_API_KEY: 'k' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain("--max-cost-usd needs the price of model 'my-custom-model'");
    expect(r.stderr).not.toContain('limits.max_cost_usd needs');
    expect(r.stderr).not.toContain('to the recipe');
    expect(r.stderr).toMatch(/pricing: \{input_per_mtok, output_per_mtok\}/);
  });

  it('the flag with a recipe names the flag and the recipe as where the price goes', async () => {
    const dir = tempDir();
    const recipe = path.join(dir, 'r.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: r\nprompt: go\nmodel: my-custom-model\nconfirmation: {mode: deny}\n');
    const r = await cli(['run', recipe, '--max-cost-usd', '0.001'], { cwd: dir, env: { GEMINI_API_KEY: 'k' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain("--max-cost-usd needs the price of model 'my-custom-model'");
    expect(r.stderr).toContain('add pricing: {input_per_mtok, output_per_mtok} to the recipe');
  });

  it('the recipe\'s own limit still names limits.max_cost_usd', async () => {
    const dir = tempDir();
    const recipe = path.join(dir, 'r.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: r\nprompt: go\nmodel: my-custom-model\nconfirmation: {mode: deny}\nlimits: {max_cost_usd: 0.5}\n');
    const r = await cli(['run', recipe], { cwd: dir, env: { GEMINI_API_KEY: 'k' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain("limits.max_cost_usd needs the price of model 'my-custom-model'");
  });
});

describe('the wall-clock timeout', () => {
  it('says its value in the unit the flag gave, on the console and in the report, as other limits do', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 's.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "sleep 10" }\n  - text: done\n');
    const out = path.join(dir, 'out');
    const r = await cli(['run', '-p', 'go', '--provider', 'scripted', '--script', 's.yaml', '--approval', 'auto-approve', '--sandbox', 'off', '--timeout', '1500ms', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(55);
    expect(r.stderr).toContain('limit reached: timeout (1500ms)');
    expect(r.stderr).not.toMatch(/timeout \(1500\)/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'limit', limit: 'timeout', error: 'limit reached: timeout (1500ms)' });
  });
});
