// `handoff:` is the recipe's hand-off section under the name issue 14 and fleet tools use: the same
// keys and checks as `git:` (its problems named `handoff.*`), never both at once, and in either
// spelling the branch may be left out for a default that is the same on every run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem, InputError, loadRecipe, validateRecipeFile } from '../../src/recipe/index.js';
import { checkGitRef, defaultHandoffBranch } from '../../src/recipe/git-ref.js';
import { cli } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'recipe-handoff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A recipe file of these lines, after a head that declares the parameter `pkg`. */
function recipe(file: string, lines: string[], head = ['version: 1', 'parameters:', '  pkg: { type: string, default: lodash }', 'prompt: Bump {{ pkg }}', 'confirmation: { mode: deny }']): string {
  const path = join(dir, file);
  writeFileSync(path, [...head, ...lines, ''].join('\n'));
  return path;
}

const problems = (file: string) => validateRecipeFile(file).map(formatProblem).map((p) => p.slice(file.length + 1));

describe('handoff: in a recipe', () => {
  it('is the git: section: the issue-style pull request without a branch loads like git: with the same keys', () => {
    const pr = ['  pull_request: { title: "Bump {{ pkg }} ({{ run.files_changed }} files)", body: "{{ run.summary }}", draft: true, labels: [deps, deps, bot] }'];
    const viaHandoff = recipe('bump.yaml', ['handoff:', '  branch: deps/{{ pkg }}', ...pr]);
    const viaGit = recipe('bump-git.yaml', ['git:', '  branch: deps/{{ pkg }}', ...pr]);
    expect(problems(viaHandoff)).toEqual([]);
    const handoff = loadRecipe(viaHandoff, { params: { pkg: 'react' } }).git!;
    const git = loadRecipe(viaGit, { params: { pkg: 'react' } }).git!;
    expect(handoff).toEqual({ ...git, section: 'handoff', commitMessage: 'unattended: bump' });
    expect(handoff).toMatchObject({
      branch: 'deps/react',
      push: true, // a pull request implies the push
      author: null,
      pullRequest: { title: 'Bump react ({{ run.files_changed }} files)', body: '{{ run.summary }}', draft: true, labels: ['deps', 'bot'], base: null },
    });
  });

  it('both git: and handoff: are refused at the second one, in either order, naming the first one’s line', () => {
    const gitFirst = recipe('both.yaml', ['git:', '  branch: a', 'handoff:', '  pull_request: { title: T }']);
    expect(problems(gitFirst)).toEqual(["8:1: 'handoff' and 'git' (line 6) are the same hand-off section under two names: keep one of them, with the keys of both"]);
    const handoffFirst = recipe('both-2.yaml', ['handoff: { pull_request: { title: T } }', 'name: x', 'git:', '  branch: a']);
    expect(problems(handoffFirst)).toEqual(["8:1: 'git' and 'handoff' (line 6) are the same hand-off section under two names: keep one of them, with the keys of both"]);
    expect(() => loadRecipe(gitFirst, { params: {} })).toThrow(/both\.yaml:8:1: 'handoff' and 'git'/);
  });

  it('every git.* check applies, named handoff.* and placed where it is written', () => {
    const file = recipe('bad.yaml', [
      'handoff:',
      '  branch: "fix {{ pkg }}"',
      '  commit_message: "Bump {{ pkgs }}"',
      '  push: false',
      '  pull_request:',
      '    title: "{{ run.sumary }}"',
      '    body: "{{ version }} {{ 1 }}"',
      '    draft: maybe',
      '    lables: [x]',
    ]);
    expect(problems(file)).toEqual([
      "7:11: handoff.branch: 'fix {{ pkg }}' is not a valid branch name: it contains \" \"",
      "8:25: handoff.commit_message: placeholder '{{ pkgs }}' names no declared parameter (did you mean 'pkg'?): declare it under parameters",
      '9:9: handoff.push: a pull request needs the branch on the remote: remove `push: false` (pull_request implies push: true)',
      expect.stringMatching(/^11:13: handoff\.pull_request\.title: '\{\{ run\.sumary \}\}' is not a run value: use one of run\.summary, .* \(did you mean 'summary'\?\)$/),
      "12:12: handoff.pull_request.body: placeholder '{{ version }}' names no declared parameter: declare it under parameters",
      "12:26: handoff.pull_request.body: '{{ 1 }}' is not a placeholder: write {{ name }} for a parameter, or \\{{ for a literal {{",
      "13:12: 'handoff.pull_request.draft' must be true or false, not the string \"maybe\"",
      "14:5: unknown key 'lables' in handoff.pull_request (did you mean 'labels'?)",
    ]);
    // {{ run.* }} is a run value only in the pull request's title and body.
    const early = recipe('run-in-branch.yaml', ['handoff: { branch: "x-{{ run.run_id }}" }']);
    expect(problems(early)).toEqual([expect.stringMatching(/^6:\d+: handoff\.branch: '\{\{ run\.run_id \}\}' is not a placeholder/)]);
  });

  it('a branch that a parameter makes invalid is an input error (exit 42) naming handoff.branch', () => {
    const file = recipe('param-branch.yaml', ['handoff: { branch: "deps/{{ pkg }}" }']);
    let thrown: unknown;
    try {
      loadRecipe(file, { params: { pkg: 'a..b' } });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect(thrown).toMatchObject({ exitCode: 42, message: expect.stringContaining("handoff.branch after substituting parameters: 'deps/a..b' is not a valid branch name: it contains ..") });
  });

  it('a section that is not a map is a type error under its own name', () => {
    expect(problems(recipe('scalar.yaml', ['handoff: true']))).toEqual(["6:10: 'handoff' must be a map, not boolean true"]);
  });
});

describe('the default branch', () => {
  it('is unattended/ and a slug of the name, else of the file name, in both spellings, the same on every load', () => {
    const named = recipe('named.yaml', ['name: Bump Lodash ✨ (v4.17)', 'handoff:', '  pull_request: {}']);
    const load = (file: string) => loadRecipe(file, { params: {} }).git!.branch;
    expect(load(named)).toBe('unattended/bump-lodash-v4-17');
    expect(load(named)).toBe(load(named));
    expect(load(recipe('Nightly_Cleanup.yaml', ['git: { push: true }']))).toBe('unattended/nightly_cleanup');
    expect(load(recipe('fallback.yaml', ['name: "✨✨"', 'git: {}']))).toBe('unattended/fallback');
    // Explicit wins; parameters are filled in it as before.
    expect(loadRecipe(recipe('explicit.yaml', ['handoff: { branch: "deps/{{ pkg }}" }']), { params: {} }).git!.branch).toBe('deps/lodash');
  });

  it.each([
    ['Bump Lodash (v4.17)', 'x', 'unattended/bump-lodash-v4-17'], // the README's example
    ['Überprüfung der Links', 'x', 'unattended/uberprufung-der-links'],
    ['fix: the ..lock file/ref', 'x', 'unattended/fix-the-lock-file-ref'],
    ['-leading and trailing-', 'x', 'unattended/leading-and-trailing'],
    ['日本語', 'update.lock', 'unattended/update-lock'],
    [undefined, '...', 'unattended/recipe'],
    ['a'.repeat(59) + ' b c', 'x', `unattended/${'a'.repeat(59)}`],
  ])('%j (file %j) -> %s, a name git itself accepts', (name, stem, expected) => {
    const branch = defaultHandoffBranch(name, stem);
    expect(branch).toBe(expected);
    expect(checkGitRef(branch)).toBeNull();
    expect(execFileSync('git', ['check-ref-format', '--branch', branch], { encoding: 'utf8' }).trim()).toBe(branch);
  });
});

describe('the commands that read a recipe take handoff:', () => {
  const issueStyle = () =>
    recipe('issue-style.yaml', ['name: deps-bump', 'tools: [read_file, edit]', 'handoff:', '  pull_request: { title: "Bump {{ pkg }}", body: "{{ run.summary }}", draft: true, labels: [deps] }']);

  it('validate (the built CLI, with the validator generated at build time): the issue-style section passes; both sections exit 52 at the second', async () => {
    const ok = issueStyle();
    const both = recipe('both-cli.yaml', ['git: { branch: a }', 'handoff: { branch: b }']);
    const r = await cli(['validate', ok, both]);
    expect(r.code).toBe(52);
    expect(r.stdout).toContain(`ok ${ok}`);
    expect(r.stderr).toContain(`${both}:7:1: 'handoff' and 'git' (line 6) are the same hand-off section under two names`);
  });

  it('policy check and batch --dry-run load it; the dry run shows the default branch', async () => {
    const file = issueStyle();
    const policy = await cliInProcess(['policy', 'check', file, '--tool', 'edit', '--args', JSON.stringify({ file_path: join(dir, 'a.txt'), old_string: 'a', new_string: 'b' })]);
    expect(policy.code).toBe(0);
    expect(JSON.parse(policy.stdout)).toMatchObject({ decision: 'deny' });
    const targets = join(dir, 'targets.txt');
    writeFileSync(targets, `${dir}\n`);
    const dry = await cliInProcess(['batch', file, '--targets', targets, '--dry-run', '--out', join(dir, 'never')], { env: { GITHUB_TOKEN: 'x', GEMINI_API_KEY: 'k' } });
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toMatch(/^hand-off +branch unattended\/deps-bump, pushed; pull request "Bump lodash" into the repository's default branch, draft, labels deps; token from GITHUB_TOKEN$/m);
  });
});
