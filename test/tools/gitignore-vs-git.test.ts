// The walk behind ls, glob, grep and read_many_files reads .gitignore files as git does: on
// seeded random trees (test/helpers/random-tree.ts), the files it visits are the files
// `git ls-files --others --exclude-standard` lists, in a repository with no other excludes. And
// the cases that once differed, each cut down to its smallest tree.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walk } from '../../src/tools/walk.js';
import { Workspace } from '../../src/util/workspace.js';
import { random, randomPaths, writeRandomTree } from '../helpers/random-tree.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'unattended-gitignore-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

// No global or system excludes file, no core.excludesFile: the .gitignore files alone.
const gitEnv = { PATH: process.env.PATH, HOME: base, XDG_CONFIG_HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

let made = 0;
async function compare(files: Record<string, string> | ((root: string) => void)): Promise<{ git: string[]; walk: string[] }> {
  const root = path.join(base, String(made++));
  fs.mkdirSync(root);
  if (typeof files === 'function') files(root);
  else for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: root, env: gitEnv });
  const git = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: root, env: gitEnv }).toString('utf8').split('\0').filter(Boolean).sort();
  const visited: string[] = [];
  for await (const entry of walk(Workspace.open(root), root)) visited.push(entry.relative);
  return { git, walk: visited.sort() };
}

describe('the walk reads .gitignore files as git does', () => {
  it.each<{ name: string; files: Record<string, string> }>([
    // git compares bytes: `?` is one byte, `é` two.
    { name: '? and [!a] are one byte, not one character', files: { '.gitignore': '?\n[!a]x\n', 'é': '', 'éx': '', 'b': '' } },
    { name: 'a ! pattern of one byte does not re-include a two-byte name', files: { '.gitignore': '*\n!?\n!.gitignore\n', 'é': '', 'b': '' } },
    { name: 'a byte-order mark before the first line is not part of it', files: { '.gitignore': '\ufeffbuild.log\n', 'build.log': '', 'keep.txt': '' } },
    // git matches a pattern's literal start by itself: a `**` right after it is a globstar.
    { name: 'a ** right after a literal start matches across directories', files: { '.gitignore': '/a**/x\n', 'ax': '', 'ab/x': '', 'a/b/c/x': '', 'b/x': '' } },
    { name: 'a trailing ** after a literal start matches anything below', files: { '.gitignore': 'src/a**\n!src/a*\n', 'src/ab/c/d.txt': '', 'src/ab.txt': '' } },
    { name: 'a CRLF .gitignore with a ** after a literal start', files: { '.gitignore': 'dist\r\n/a**/*\r\n[!]]\r\r\n', 'a ': '', 'A': '', 'b/c': '' } },
    // A deeper .gitignore re-includes a directory a shallower one excludes: its files are the deeper one's to decide.
    { name: 'a directory re-included below is not excluded again by the rule above', files: { '.gitignore': '[a-c]\n', 'x/.gitignore': '!/*\n', 'x/b/f': '', 'x/b/a': '' } },
    // A line longer than any path can match nothing: the library's regular expression for it was too large to compile.
    { name: 'a 300 KB line matches nothing, and the lines around it still count', files: { '.gitignore': `*.log\n${'x'.repeat(300 * 1024)}\n!keep.log\n`, 'a.log': '', 'keep.log': '', 'b.txt': '' } },
    { name: 'a line of 30,000 wildcards and letters', files: { '.gitignore': `${'*a'.repeat(30_000)}\n*.tmp\n`, 'a.tmp': '', 'b.txt': '' } },
  ])('$name', async ({ files }) => {
    const { git, walk: visited } = await compare(files);
    expect(visited).toEqual(git);
  });

  it('on 150 seeded random trees', async () => {
    const differ: string[] = [];
    for (let seed = 1; seed <= 150; seed++) {
      const r = random(seed);
      let gitignores: Record<string, string> = {};
      const { git, walk: visited } = await compare((root) => {
        gitignores = writeRandomTree(r, root, randomPaths(r, 12), () => 'x\n');
      });
      if (JSON.stringify(git) !== JSON.stringify(visited)) differ.push(`seed ${seed}: ${JSON.stringify(gitignores)}\n git ${JSON.stringify(git)}\n walk ${JSON.stringify(visited)}`);
    }
    expect(differ).toEqual([]);
  }, 60_000);
});
