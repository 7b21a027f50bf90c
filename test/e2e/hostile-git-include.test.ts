// A repository's .git/config may include a file of its work tree (`include.path = ../shared.gitconfig`,
// as projects share settings). The overrides that keep git from running the repository's programs
// are listed when a shell call starts, so a line that first writes a clean filter into that file and
// then runs an allowed `git add` ran the filter: under allowlist with only `echo *` and `git add *`
// allowed, a program ran that no rule names. With no sandbox to make the file read-only (mode off,
// or none on the machine), the policy must refuse the write, as it refuses one into `.git`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { gitConfigs, makeRepo } from '../git/repos.js';

afterAll(removeTempDirs);

async function run(included: string, line: string): Promise<{ code: number; stderr: string; repo: string; events: Array<Record<string, any>> }> {
  const dir = tempDir();
  const repo = await makeRepo(path.join(dir, 'ws'), { 'a.txt': 'a\n', '.gitattributes': '*.txt filter=shared\n', 'config/README': 'settings\n' });
  await gitConfigs(repo, [['include.path', included]]);
  const turns = [{ calls: [{ name: 'shell', args: { command: line } }] }, { text: 'done' }];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    recipe,
    YAML.stringify({
      version: 1,
      name: 'include',
      prompt: 'stage a.txt',
      provider: 'scripted',
      script: 'turns.yaml',
      workspace: repo,
      tools: ['shell'],
      sandbox: { mode: 'off' },
      confirmation: { mode: 'allowlist', allow: [{ shell: 'echo *' }, { shell: 'git add *' }] },
    }),
  );
  const out = path.join(dir, 'out');
  const r = await cli(['run', recipe, '--out', out]);
  return { code: r.code, stderr: r.stderr, repo, events: readRun(out).events };
}

describe("a file the repository's git config includes is not written by an allowed command", () => {
  it.each([
    ['../shared.gitconfig', 'shared.gitconfig'],
    ['../config/git.cfg', 'config/git.cfg'],
  ])('include.path = %s: the line is refused and the filter never runs', async (included, file) => {
    const line = `echo '[filter "shared"]' > ${file} && echo 'clean = touch PWNED' >> ${file} && echo b >> a.txt && git add a.txt`;
    const { repo, events, stderr } = await run(included, line);
    expect(fs.existsSync(path.join(repo, 'PWNED')), stderr).toBe(false);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'shell');
    expect(result?.llm_content).toMatch(new RegExp(`Denied by policy: .*'${file.replace(/[./]/g, '\\$&')}'.*protected`));
  });
});
