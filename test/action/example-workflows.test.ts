// Every example workflow runs as shipped: for each step that uses the action, a fresh repository
// gets only what the workflow's header says to copy (the workflow and the recipe it names), and
// action.yml's gate, run and comment steps run with the step's own inputs and the workflow's own
// event against a fake Gemini endpoint and a fake GitHub API (the actor has write access). A recipe that
// needs a file the examples do not ship, an input the action does not know, or an expression the
// test cannot stand in for fails here, not at a user's first run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { runComposite } from './composite-run.js';
import { startFakeGitHub } from './fake-github.js';
import { removeScratch } from './harness.js';

afterAll(() => {
  removeScratch();
  cleanupRepos();
});

const EXAMPLES = path.join(ROOT, 'examples/workflows');

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
}

function eventOf(file: string): string {
  const on = (YAML.parse(fs.readFileSync(file, 'utf8')) as { on: string | Record<string, unknown> }).on;
  return typeof on === 'string' ? on : Object.keys(on)[0]!;
}

/** A payload of the event as GitHub sends it, reduced to what the action reads. */
function payloadOf(event: string): Record<string, unknown> {
  const user = { login: 'maintainer', type: 'User' };
  switch (event) {
    case 'issue_comment':
      return { action: 'created', issue: { number: 4, title: 'Where is x?', user }, comment: { id: 40, body: '@unattended where is x defined?', user } };
    case 'pull_request_review_comment':
      return { action: 'created', pull_request: { number: 5 }, comment: { id: 50, pull_request_review_id: 1, body: '@unattended why?', user } };
    case 'issues':
      return { action: 'opened', issue: { number: 6, title: 'Crash', body: 'It crashes.', user } };
    case 'pull_request':
      return { action: 'opened', pull_request: { number: 7, head: { repo: { full_name: 'acme/widgets' } } } };
    default:
      return {};
  }
}

function actionSteps(file: string): Array<{ job: string; step: Step }> {
  const workflow = YAML.parse(fs.readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  return Object.entries(workflow.jobs).flatMap(([job, { steps }]) =>
    steps.filter((s) => typeof s.uses === 'string' && /(^|\/)unattended@/.test(s.uses)).map((step) => ({ job, step })),
  );
}

/** Where each actions/checkout step of a job puts its checkout (`path:`); '' for the workspace itself. */
function checkoutPaths(file: string, job: string): string[] {
  const workflow = YAML.parse(fs.readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  return workflow.jobs[job]!.steps.filter((s) => s.uses?.startsWith('actions/checkout@')).map((s) => String(s.with?.path ?? ''));
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
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) expect(actionSteps(path.join(EXAMPLES, file)).length, file).toBeGreaterThan(0);
  });

  it("never runs a recipe from a pull request's files where the event carries the repository's secrets", () => {
    // issue_comment and the like run with this repository's secrets for a fork's pull request too,
    // and a recipe decides what runs: it must come from a checkout of the default branch.
    for (const file of files) {
      const event = eventOf(path.join(EXAMPLES, file));
      if (!['issue_comment', 'pull_request_review_comment', 'pull_request_target'].includes(event)) continue;
      const workflow = YAML.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
      for (const { job, step } of actionSteps(path.join(EXAMPLES, file))) {
        const recipe = String(step.with?.recipe ?? '');
        const checkouts = workflow.jobs[job]!.steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
        const holder = checkouts.find((s) => s.with?.path && recipe.startsWith(`${String(s.with.path)}/`)) ?? checkouts.find((s) => !s.with?.path);
        expect(holder, `${file}: the checkout holding ${recipe}`).toBeDefined();
        expect(String(holder!.with?.ref ?? ''), `${file}: ${recipe} is checked out from`).not.toMatch(/pull/);
      }
    }
  });

  for (const file of files) {
    for (const { job, step } of actionSteps(path.join(EXAMPLES, file))) {
      it(`${file}: job ${job}`, { timeout: 60_000 }, async () => {
        const root = tempRoot('unattended-example-');
        const runnerTemp = path.join(root, 'runner-temp');
        fs.mkdirSync(runnerTemp);
        const inputs: Record<string, string> = {};
        for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = evaluate(String(value), runnerTemp);

        // The user's repository: the recipe the step names, copied alone (no recorded turns). A job
        // that checks out twice (the recipe from one checkout, the files the model reads from
        // another) gets both, each where its `path:` puts it.
        const code = inputs.workspace ? `${inputs.workspace}/` : '';
        const files: Record<string, string> = { [`${code}README.md`]: '# project\n', [`${code}src/app.js`]: 'export const x = 1;\n' };
        const from = checkoutPaths(path.join(EXAMPLES, file), job).find((p) => p !== '' && inputs.recipe?.startsWith(`${p}/`));
        if (inputs.recipe) files[inputs.recipe] = fs.readFileSync(path.join(ROOT, from ? inputs.recipe.slice(from.length + 1) : inputs.recipe), 'utf8');
        const repo = await makeRepo(path.join(root, 'repo'), files);
        if (inputs['stdin-file']) fs.writeFileSync(inputs['stdin-file'], 'Example input: the page crashes when the date is empty.\n');

        const recipe = inputs.recipe ? (YAML.parse(files[inputs.recipe]!) as { output?: { schema?: Record<string, any> } }) : {};
        const answer = recipe.output?.schema ? JSON.stringify(sampleOf(recipe.output.schema)) : 'Nothing needed changing.';
        const fake = await startFakeGemini([{ text: answer }]);
        const github = await startFakeGitHub({ permissions: { maintainer: 'write' } });
        const event = eventOf(path.join(EXAMPLES, file));
        try {
          const run = await runComposite(inputs, {
            cwd: repo,
            event: payloadOf(event),
            artifactUrl: 'https://github.example/acme/widgets/actions/runs/1/artifacts/2',
            env: {
              GITHUB_EVENT_NAME: event,
              GITHUB_REPOSITORY: 'acme/widgets',
              GITHUB_ACTOR: 'maintainer',
              GITHUB_API_URL: github.url,
              GOOGLE_GEMINI_BASE_URL: fake.url,
              RUNNER_TEMP: runnerTemp,
            },
          });
          expect(run.gate.code, run.gate.stdout).toBe(0);
          expect(run.run!.outputs.status, run.run!.stdout).toBe('success');
          expect(run.run!.code).toBe(0);
          expect(fake.requests).toHaveLength(1);
          if (inputs.comment === 'true') {
            expect(run.comment!.code, run.comment!.stdout).toBe(0);
            expect(github.comments).toHaveLength(1);
            expect(github.comments[0]!.body).toContain(answer);
          } else {
            expect(github.comments).toEqual([]);
          }
        } finally {
          await Promise.all([fake.close(), github.close()]);
        }
      });
    }
  }
});
