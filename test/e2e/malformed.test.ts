// Malformed recipes through the CLI: `validate` names every problem as file:line:col and exits 52;
// `run` refuses them with the same location, exit 52, and still leaves its report. The built CLI
// validates the fixtures and runs the first; the rest go through its entry in process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { BAD, CASES } from '../fixtures/recipes/bad-cases.js';

afterAll(removeTempDirs);

describe('malformed recipes, end to end', () => {
  it('validate reports every fixture at its line:col and exits 52', async () => {
    const r = await cli(['validate', ...CASES.map(([file]) => `${BAD}/${file}`)]);
    expect(r.code).toBe(52);
    for (const [file, at, fragment] of CASES) {
      const line = r.stderr.split('\n').find((l) => l.startsWith(`${BAD}/${file}:${at}: `));
      expect(line, `${file} at ${at}`).toBeDefined();
      expect(line).toContain(fragment);
    }
    expect(r.stdout).toBe('');
  });

  it('validate exits 0 and says ok for a good recipe', async () => {
    const r = await cliInProcess(['validate', 'recipes/demo.yaml']);
    expect(r).toMatchObject({ code: 0, stdout: 'ok recipes/demo.yaml' });
  });

  // The first case through the built CLI, the rest through the same entry in process.
  it.each(CASES.slice(0, 12).map(([file, at], i) => [file, at, i === 0 ? cli : cliInProcess] as const))('run %s: exit 52 with %s, no stack trace, a report all the same', async (file, at, run) => {
    const out = path.join(tempDir(), 'run');
    const r = await run(['run', `${BAD}/${file}`, '--prompt', 'x', '--out', out]);
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(`${file}:${at}: `);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const { report, events } = readRun(out);
    // The report names the recipe that failed (its file, the name it defaults to), not 'unnamed'.
    const recipeFile = path.resolve(BAD, file);
    expect(report).toMatchObject({ status: 'error', exit_code: 52, recipe: { name: path.basename(file, path.extname(file)), file: recipeFile } });
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(new RegExp(`^# ❌ ${path.basename(file, path.extname(file))}: error \\(exit 52\\)`));
    expect(events[0]).toMatchObject({ type: 'run_start', recipe: recipeFile });
    expect(events.at(-1)!.type).toBe('run_end');
  });
});
