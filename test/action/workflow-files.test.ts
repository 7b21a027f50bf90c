// action.yml and every workflow (the project's CI, the copyable examples, the snippets in
// docs/github-action.md) against SchemaStore's schemas, plus the safety rules the documentation
// promises: no ${{ }} in scripts, least privilege, no git credentials where the model runs.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/util/json-schema.js';
import { ROOT } from '../helpers/cli.js';

const schemaDir = path.join(ROOT, 'test/fixtures/schemas');
const actionSchema = compileSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, 'github-action.json'), 'utf8')));
const workflowSchema = compileSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, 'github-workflow.json'), 'utf8')));

const docsFile = path.join(ROOT, 'docs/github-action.md');
const docs = fs.readFileSync(docsFile, 'utf8');
const actionYml = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string }>;
  outputs: Record<string, { description: string }>;
  runs: { steps: Step[] };
};

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string> | string;
  steps?: Step[];
}
interface Workflow {
  on: unknown;
  permissions?: unknown;
  jobs: Record<string, Job>;
}

const workflowFiles = [
  ...['.github/workflows', 'examples/workflows'].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => `${dir}/${f}`),
  ),
];
const workflows: Array<[string, Workflow]> = [
  ...workflowFiles.map((f): [string, Workflow] => [f, parse(fs.readFileSync(path.join(ROOT, f), 'utf8')) as Workflow]),
  ...[...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m, i): [string, Workflow] => [`docs/github-action.md yaml block ${i + 1}`, parse(m[1]!) as Workflow]),
];

const usesThisAction = (step: Step) => step.uses === './' || /(^|\/)unattended@/.test(step.uses ?? '');
const isCheckout = (step: Step) => /^actions\/checkout@/.test(step.uses ?? '');

describe('schemas', () => {
  it('action.yml is a valid action', () => {
    expect(actionSchema(actionYml)).toBeNull();
  });

  it('finds the CI workflow, four examples and the documentation snippet', () => {
    expect(workflowFiles).toEqual(
      expect.arrayContaining(['.github/workflows/ci.yml', 'examples/workflows/issue-triage.yml', 'examples/workflows/mention.yml', 'examples/workflows/nightly-refactor.yml', 'examples/workflows/pull-request-review.yml']),
    );
    expect(workflows.length).toBeGreaterThanOrEqual(6);
  });

  it.each(workflows)('%s is a valid workflow', (_, workflow) => {
    expect(workflowSchema(workflow)).toBeNull();
  });

  it.each([
    ['an action without runs', { name: 'x', description: 'y' }, actionSchema],
    ['a composite run step without a shell', { name: 'x', description: 'y', runs: { using: 'composite', steps: [{ run: 'true' }] } }, actionSchema],
    ['a job without runs-on', { on: 'push', jobs: { a: { steps: [{ run: 'true' }] } } }, workflowSchema],
    ['an unknown permission level', { on: 'push', permissions: { contents: 'maybe' }, jobs: { a: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'true' }] } } }, workflowSchema],
    ['an unknown event', { on: 'issue_opened', jobs: { a: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'true' }] } } }, workflowSchema],
  ])('rejects %s (the schemas are not vacuous)', (_, document, validate) => {
    expect(validate(document)).not.toBeNull();
  });
});

describe('safety rules', () => {
  it('splices no ${{ }} expression into any script (inputs and event text go through env)', () => {
    const scripts = [...actionYml.runs.steps, ...workflows.flatMap(([, w]) => Object.values(w.jobs).flatMap((j) => j.steps ?? []))]
      .map((s) => s.run)
      .filter((run): run is string => run !== undefined);
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((run) => run.includes('${{'))).toEqual([]);
  });

  it.each(workflows)('%s: top-level permissions, no pull_request_target', (_, workflow) => {
    expect(workflow.permissions).toBeDefined();
    expect(JSON.stringify(workflow.on)).not.toContain('pull_request_target');
  });

  it.each(workflows)('%s: jobs that run the model hold no write permission and no git credentials', (_, workflow) => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const steps = job.steps ?? [];
      const checkouts = steps.filter(isCheckout);
      if (steps.some(usesThisAction)) {
        // The writes such a job may hold: issues/pull-requests for the action's own comment step
        // (which holds the token; the model's step never does), and id-token to sign in to a
        // cloud (Vertex AI), which writes nothing to the repository.
        const comments = steps.some((s) => usesThisAction(s) && String(s.with?.comment) === 'true');
        const granted = typeof job.permissions === 'object' ? Object.entries(job.permissions).filter(([, level]) => level === 'write').map(([scope]) => scope) : [];
        const allowed = ['id-token', ...(comments ? ['issues', 'pull-requests'] : [])];
        expect(granted.filter((scope) => !allowed.includes(scope)), `job ${name}`).toEqual([]);
        expect(checkouts.every((s) => s.with?.['persist-credentials'] === false), `job ${name}`).toBe(true);
      } else if (checkouts.some((s) => s.with?.['persist-credentials'] !== false)) {
        // Only a job that pushes may keep the checkout's credentials.
        expect(typeof job.permissions === 'object' && job.permissions.contents, `job ${name}`).toBe('write');
      }
    }
  });
});

describe('pinning', () => {
  // A tag can be moved to other code after review; a full commit SHA cannot. The comment says which
  // release it is, so an update is a reviewable change of both.
  const texts: Array<[string, string]> = [
    ['action.yml', fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')],
    ...workflowFiles.map((f): [string, string] => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]),
    ['docs/github-action.md', docs],
    ['README.md', fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')],
  ];

  it.each(texts)('%s: every third-party action is pinned by full commit SHA, with its release in a comment', (_, text) => {
    const uses = [...text.matchAll(/^\s*(?:- )?uses:\s*(\S+)(.*)$/gm)].map((m) => ({ ref: m[1]!, rest: m[2]! }));
    const external = uses.filter((u) => u.ref !== './' && !u.ref.startsWith('OWNER/unattended@'));
    for (const u of external) expect(`${u.ref}${u.rest}`).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it('action.yml pins the actions it nests', () => {
    const nested = actionYml.runs.steps.map((s) => s.uses).filter((u): u is string => u !== undefined);
    expect(nested.length).toBeGreaterThanOrEqual(4);
    for (const u of nested) expect(u).toMatch(/@[0-9a-f]{40}$/);
  });
});

describe('documentation', () => {
  it.each([
    ...Object.keys(actionYml.inputs).map((name) => ['input', name] as const),
    ...Object.keys(actionYml.outputs).map((name) => ['output', name] as const),
  ])('documents the %s `%s` in a table row', (_, name) => {
    expect(docs).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(actionYml[`${_}s` as 'inputs' | 'outputs'][name]!.description.length).toBeGreaterThan(10);
  });

  it('links every example workflow', () => {
    for (const file of workflowFiles.filter((f) => f.startsWith('examples/'))) expect(docs).toContain(`(../${file})`);
  });
});

describe('README "In GitHub Actions"', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## In GitHub Actions'), readme.indexOf('\n## ', readme.indexOf('## In GitHub Actions') + 5));
  const table = section.slice(section.indexOf('| for | inputs |'), section.indexOf('\n\n', section.indexOf('| for | inputs |')));

  it("its inputs table names every input of action.yml, once, and nothing else", () => {
    const named = [...table.matchAll(/`([a-z][a-z_-]*)`/g)].map((m) => m[1]!).filter((name) => !['unattended'].includes(name));
    // `--allow`/`--deny` and other flag spellings start with dashes, so they are not matched.
    expect([...named].sort()).toEqual(Object.keys(actionYml.inputs).sort());
  });

  it('links the @-mention example and names the permission endpoint and the Vertex AI variables', () => {
    expect(section).toContain('(examples/workflows/mention.yml)');
    expect(section).toContain('GET /repos/{owner}/{repo}/collaborators/{username}/permission');
    for (const name of ['GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION']) expect(section).toContain(name);
  });
});
