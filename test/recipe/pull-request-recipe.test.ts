// git.pull_request in a recipe: parameters filled at load, `{{ run.* }}` kept for the hand-off and
// checked by name, defaults from the commit message, and `push: false` refused beside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe, validateRecipeFile } from '../../src/recipe/index.js';
import { fillRunPlaceholders } from '../../src/git/pull-request.js';

const dir = mkdtempSync(join(tmpdir(), 'recipe-pr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recipe(name: string, git: string[]): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, ['version: 1', 'parameters:', '  old: { type: string, required: true }', 'prompt: Rename {{ old }}', 'confirmation: { mode: deny }', 'git:', ...git.map((l) => `  ${l}`), ''].join('\n'));
  return file;
}

describe('git.pull_request', () => {
  it('fills parameters now and keeps {{ run.* }} for the end of the run; it implies push', () => {
    const file = recipe('full', [
      'branch: rename-{{ old }}',
      'pull_request:',
      '  title: "Rename {{ old }}: {{ run.files_changed }} files"',
      '  body: "{{ run.summary }} ({{ run.cost_usd }}) \\\\{{ literal }} \\\\{{ run.turns }}"',
      '  labels: [a, b, a]',
      '  base: release-{{ old }}',
    ]);
    expect(validateRecipeFile(file)).toEqual([]);
    const git = loadRecipe(file, { params: { old: 'foo' } }).git!;
    expect(git.push).toBe(true);
    // At the hand-off: run values filled, the escaped one written as it reads.
    const facts = { summary: 'Done.', cost_usd: '$0.01', turns: '2', tool_calls: '1', files_changed: '1', run_id: 'r', recipe: 'full', model: 'm', commit: 'c' };
    expect(fillRunPlaceholders(git.pullRequest!.body, facts)).toBe('Done. ($0.01) {{ literal }} {{ run.turns }}');
    expect(git.pullRequest).toEqual({ title: 'Rename foo: {{ run.files_changed }} files', body: '{{ run.summary }} ({{ run.cost_usd }}) {{ literal }} \\{{ run.turns }}', draft: false, labels: ['a', 'b'], base: 'release-foo' });
  });

  it('defaults: the title is the commit message’s first line, the body the run’s summary', () => {
    const file = recipe('defaults', ['branch: b', 'commit_message: "Rename {{ old }}\\n\\nDetails"', 'pull_request: { draft: true }']);
    expect(loadRecipe(file, { params: { old: 'x' } }).git!.pullRequest).toEqual({ title: 'Rename x', body: '{{ run.summary }}', draft: true, labels: [], base: null });
  });

  it('refuses an unknown run value, an undeclared parameter, and push: false, where they are written', () => {
    const file = recipe('bad', ['branch: b', 'push: false', 'pull_request:', '  title: "{{ run.sumary }}"', '  body: "{{ nope }}"']);
    const problems = validateRecipeFile(file).map(formatProblem);
    expect(problems).toEqual([
      expect.stringMatching(/:8:9: git\.push: a pull request needs the branch on the remote: remove `push: false`/),
      expect.stringMatching(/:10:13: git\.pull_request\.title: '\{\{ run\.sumary \}\}' is not a run value: use one of run\.summary, .*\(did you mean 'summary'\?\)/),
      expect.stringMatching(/:11:12: git\.pull_request\.body: placeholder '\{\{ nope \}\}' names no declared parameter/),
    ]);
  });
});
