// A workspace inside a repository's git directory (`--workspace repo/.git`, a run started after
// `cd .git`, a recipe's `workspace:`, a bare repository) is no work tree: the sandbox found no
// `.git` there to hold read-only, so a command wrote the repository's config (an fsmonitor or an
// alias there runs the next time anyone uses git), and the run ended a success. Refused before any
// model call, naming the work tree. The built CLI, a real repository, the real sandbox.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { gitIn } from '../git/repos.js';

afterAll(removeTempDirs);

let root: string;
let repo: string;
let configBefore: string;

beforeEach(async () => {
  root = tempDir();
  repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  await gitIn(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'hi\n');
  configBefore = fs.readFileSync(path.join(repo, '.git/config'), 'utf8');
  // The model appends to `config` in the workspace: the repository's own when the workspace is .git.
  fs.writeFileSync(
    path.join(root, 'script.yaml'),
    ['turns:', '  - calls:', '      - name: shell', '        args: {command: "printf \'[core]\\\\n\\\\tfsmonitor = ./x\\\\n\' >> config"}', '  - text: done', ''].join('\n'),
  );
});

const run = (args: string[], cwd = root) =>
  cli(['-p', 'tidy up', '--provider', 'scripted', '--script', path.join(root, 'script.yaml'), '--approval', 'auto-approve', '--out', path.join(root, 'out'), ...args], { cwd });

describe('a workspace inside a git directory', () => {
  it('--workspace repo/.git is refused (exit 42) naming the work tree, and the config is untouched', async () => {
    const r = await run(['--workspace', 'repo/.git']);
    expect(r.stderr).toContain(`--workspace 'repo/.git' lies inside the git directory ${repo}/.git, not in a work tree`);
    expect(r.stderr).toContain(`--workspace ${repo}`);
    expect(r.code).toBe(42);
    expect(fs.readFileSync(path.join(repo, '.git/config'), 'utf8')).toBe(configBefore);
  });

  it('so is a directory below it', async () => {
    const r = await run(['--workspace', path.join(repo, '.git/hooks')]);
    expect(r.stderr).toContain(`lies inside the git directory ${repo}/.git`);
    expect(r.code).toBe(42);
  });

  it('a run started from inside .git without --workspace is told to run from the work tree', async () => {
    const r = await run([], path.join(repo, '.git'));
    expect(r.stderr).toContain(`the current directory (${repo}/.git)`);
    expect(r.stderr).toContain(`cd ${repo}`);
    expect(r.code).toBe(42);
    expect(fs.readFileSync(path.join(repo, '.git/config'), 'utf8')).toBe(configBefore);
  });

  it('started from inside .git without --out, its run directory is not made among git\'s files either', async () => {
    const gitDir = path.join(repo, '.git');
    const r = await cli(['-p', 'tidy up', '--provider', 'scripted', '--script', path.join(root, 'script.yaml'), '--approval', 'auto-approve', '--output-format', 'json'], { cwd: path.join(gitDir, 'hooks') });
    expect(r.code).toBe(42);
    expect(fs.existsSync(path.join(gitDir, 'hooks', '.unattended'))).toBe(false);
    // The refusal is still a report on stdout for a script that parses it, naming the way out.
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 'error', exit_code: 42 });
    expect(report.error).toContain(`lies inside the git directory ${gitDir}`);
    expect(report.error).toContain(`cd ${repo}`);
    // With a directory of its own given, the workspace is still what is refused.
    const out = path.join(root, 'out');
    const given = await cli(['-p', 'tidy up', '--provider', 'scripted', '--script', path.join(root, 'script.yaml'), '--out', out], { cwd: gitDir });
    expect(given.code).toBe(42);
    expect(given.stderr).toContain(`the current directory (${gitDir})`);
  });

  it('a bare repository is refused as a git directory', async () => {
    const bare = path.join(root, 'bare.git');
    await gitIn(root, 'init', '-q', '--bare', bare);
    const before = fs.readFileSync(path.join(bare, 'config'), 'utf8');
    const r = await run(['--workspace', bare]);
    expect(r.stderr).toContain(`is the git directory of a repository (${bare}`);
    expect(r.code).toBe(42);
    expect(fs.readFileSync(path.join(bare, 'config'), 'utf8')).toBe(before);
  });

  it('started in a bare repository without --out, its run directory is not left there; one already there is kept', async () => {
    const bare = path.join(root, 'bare.git');
    await gitIn(root, 'init', '-q', '--bare', bare);
    const before = fs.readdirSync(bare).sort();
    const args = ['-p', 'tidy up', '--provider', 'scripted', '--script', path.join(root, 'script.yaml'), '--approval', 'auto-approve'];
    const r = await cli([...args, '--output-format', 'json'], { cwd: bare });
    expect(r.code).toBe(42);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 'error', exit_code: 42 });
    expect(report.error).toContain(`is the git directory of a repository (${bare}`);
    expect(fs.readdirSync(bare).sort()).toEqual(before);
    // Someone's earlier run there (from an older unattended) stays as it was.
    const earlier = path.join(bare, '.unattended', 'runs', 'earlier');
    fs.mkdirSync(earlier, { recursive: true });
    fs.writeFileSync(path.join(earlier, 'report.json'), '{}');
    const again = await cli(args, { cwd: bare });
    expect(again.code).toBe(42);
    expect(fs.readdirSync(path.join(bare, '.unattended', 'runs'))).toEqual(['earlier']);
  });

  it("a recipe's workspace: inside .git fails validate at its line (exit 52)", async () => {
    const recipe = path.join(root, 'r.yaml');
    fs.writeFileSync(recipe, 'version: 1\nprompt: hi\nconfirmation: {mode: deny}\nworkspace: repo/.git\n');
    const r = await cli(['validate', recipe], { cwd: root });
    expect(r.stdout + r.stderr).toContain(`r.yaml:4:12: workspace 'repo/.git' lies inside the git directory ${repo}/.git`);
    expect(r.code).toBe(52);
  });

  it('the work tree itself runs as before, even one holding HEAD, objects/ and refs/ of its own', async () => {
    fs.writeFileSync(path.join(repo, 'HEAD'), 'a file of the project\n');
    fs.mkdirSync(path.join(repo, 'objects'));
    fs.mkdirSync(path.join(repo, 'refs'));
    const r = await run(['--workspace', 'repo']);
    expect(r.code).toBe(0);
  });
});
