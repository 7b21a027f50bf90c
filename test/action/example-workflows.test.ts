// Every example workflow runs as shipped: for each step that uses the action, a fresh repository
// gets only what the workflow's header says to copy (the workflow and the recipe it names), and
// the action entry runs with the step's own inputs against a fake Gemini endpoint. A recipe that
// needs a file the examples do not ship, an input the action does not know, or an expression the
// test cannot stand in for fails here, not at a user's first run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { removeScratch, runActionEntry } from './harness.js';

afterAll(() => {
  removeScratch();
  cleanupRepos();
});

const EXAMPLES = path.join(ROOT, 'examples/workflows');

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
}

function actionSteps(file: string): Array<{ job: string; step: Step }> {
  const workflow = YAML.parse(fs.readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  return Object.entries(workflow.jobs).flatMap(([job, { steps }]) =>
    steps.filter((s) => typeof s.uses === 'string' && /(^|\/)unattended@/.test(s.uses)).map((step) => ({ job, step })),
  );
}

/** The values an expression stands for on a runner; anything unknown is a test failure to look at. */
function evaluate(value: string, runnerTemp: string): string {
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr.startsWith('secrets.')) return 'test-key-123456';
    if (expr === 'runner.temp') return runnerTemp;
    if (expr.startsWith('github.')) return 'example';
    throw new Error(`the test has no stand-in for \${{ ${expr} }}`);
  });
}

/** A value of the JSON Schema: enough for a final answer that a recipe's output.schema accepts. */
function sampleOf(schema: Record<string, any>): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sampleOf(s as Record<string, any>)]));
    case 'array':
      return schema.items ? Array.from({ length: schema.minItems ?? 1 }, () => sampleOf(schema.items)) : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'example';
  }
}

const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.yml'));

describe('the example workflows run as shipped', () => {
  it('there are examples, each using the action', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) expect(actionSteps(path.join(EXAMPLES, file)).length, file).toBeGreaterThan(0);
  });

  for (const file of files) {
    for (const { job, step } of actionSteps(path.join(EXAMPLES, file))) {
      it(`${file}: job ${job}`, { timeout: 60_000 }, async () => {
        const root = tempRoot('unattended-example-');
        const runnerTemp = path.join(root, 'runner-temp');
        fs.mkdirSync(runnerTemp);
        const inputs: Record<string, string> = {};
        for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = evaluate(String(value), runnerTemp);

        // The user's repository: the recipe the step names, copied alone (no recorded turns).
        const files: Record<string, string> = { 'README.md': '# project\n', 'src/app.js': 'export const x = 1;\n' };
        if (inputs.recipe) files[inputs.recipe] = fs.readFileSync(path.join(ROOT, inputs.recipe), 'utf8');
        const repo = await makeRepo(path.join(root, 'repo'), files);
        if (inputs['stdin-file']) fs.writeFileSync(inputs['stdin-file'], 'Example input: the page crashes when the date is empty.\n');

        const recipe = inputs.recipe ? (YAML.parse(files[inputs.recipe]!) as { output?: { schema?: Record<string, any> } }) : {};
        const answer = recipe.output?.schema ? JSON.stringify(sampleOf(recipe.output.schema)) : 'Nothing needed changing.';
        const fake = await startFakeGemini([{ text: answer }]);
        try {
          const run = await runActionEntry(inputs, { cwd: repo, env: { GOOGLE_GEMINI_BASE_URL: fake.url, RUNNER_TEMP: runnerTemp } });
          expect(run.outputs.status, `${run.stdout}\n${run.stderr}`).toBe('success');
          expect(run.code).toBe(0);
          expect(fake.requests).toHaveLength(1);
        } finally {
          await fake.close();
        }
      });
    }
  }
});
