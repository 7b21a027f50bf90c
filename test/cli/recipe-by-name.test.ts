// goose names a recipe without its extension (`goose run --recipe fix-lint` finds fix-lint.yaml),
// and the README says goose's `--recipe` works here. `--recipe fix-lint` was read by the
// positional's rule, no file of that name, so the prompt: a run whose task was the word
// "fix-lint", under the ad-hoc policy, not the recipe's. `unattended fix-lint` beside fix-lint.yaml
// likewise. Now --recipe always names a recipe (found as goose finds it), and the bare word beside a
// recipe of that name is refused with both readings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string) => runInProcess(command, { cwd, replies: [{ text: 'Linted.' }] });
const startOf = (stdoutJson: string) => JSON.parse(stdoutJson);

beforeAll(() => {
  cwd = tempDir('unattended-recipe-by-name-');
  fs.writeFileSync(path.join(cwd, 'fix-lint.yaml'), 'version: 1\nname: fix-lint\nprompt: Fix the lint errors.\ntools: [read_file]\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

describe('goose\'s --recipe NAME', () => {
  it('runs NAME.yaml, as goose finds it, never a run whose prompt is NAME', async () => {
    for (const command of ['unattended run --recipe fix-lint --output-format json', 'unattended --recipe fix-lint --output-format json']) {
      const r = await run(command);
      expect(r.code, r.stderr).toBe(0);
      const report = startOf(r.stdout);
      expect(report.recipe).toEqual({ name: 'fix-lint', file: path.join(cwd, 'fix-lint.yaml') });
      expect(JSON.stringify(r.requests[0]!.body)).toContain('Fix the lint errors.');
      expect(JSON.stringify(r.requests[0]!.body)).not.toContain('"fix-lint"');
    }
  });

  it('a name no recipe answers to is refused (exit 42), saying where it looked, with no model request', async () => {
    const r = await run('unattended run --recipe fix-typos');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain(`--recipe fix-typos: no recipe there (looked for fix-typos, fix-typos.yaml, fix-typos.yml, fix-typos.json in ${cwd})`);
  });
});

describe("a recipe's name without its extension as the first argument", () => {
  it('is refused (exit 42) with the recipe and the prompt it could be, before any model request', async () => {
    const r = await run('unattended fix-lint');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("'fix-lint' names no file, but the recipe fix-lint.yaml is here");
    expect(r.stderr).toContain("unattended run fix-lint.yaml; if 'fix-lint' is the task: unattended -p 'fix-lint'");
  });

  it('a one-word task with no recipe of that name is still the prompt', async () => {
    const r = await run('unattended lint');
    expect([r.code, r.requests.length]).toEqual([0, 1]);
  });
});
