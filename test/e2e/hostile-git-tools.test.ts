// A hostile repository against the processes tools start besides the shell: a discovered tool
// whose call runs git gets the same neutralised config, sandbox or not. And two ways around a
// config read once: a work-tree file the repository config includes, edited during the run, and
// core.worktree pointing git at another directory. The repository is made once and copied for each
// case (its config names the same sentinel and outside directories); sandbox off runs the built
// CLI, sandbox auto its entry in process (the same code without a process start).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { gitConfigs, makeRepo } from '../git/repos.js';

afterAll(removeTempDirs);

async function hostileRepo(marks: string, elsewhere: string): Promise<string> {
  const repo = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n', '.gitattributes': '*.txt filter=evil diff=evil\n', 'team.gitconfig': '' });
  const touch = (name: string) => `touch "${marks}/${name}"`;
  await gitConfigs(repo, [
    ['core.fsmonitor', touch('fsmonitor')],
    ['filter.evil.clean', `${touch('clean')}; cat`],
    ['diff.evil.textconv', `${touch('textconv')}; cat`],
    ['diff.external', touch('external-diff')],
    ['core.pager', touch('pager')],
    ['interactive.diffFilter', touch('diff-filter')],
    ['include.path', '../team.gitconfig'],
    ['core.worktree', elsewhere],
  ]);
  return repo;
}

const GIT = 'git status --porcelain; git diff; git log -p -1 | cat; git add -A; echo "[filter \\"late\\"]" > /dev/null';

describe('git run by discovered tools and after the run edits an included config', () => {
  let marks: string;
  let elsewhere: string;
  let original: string;
  beforeAll(async () => {
    marks = tempDir();
    elsewhere = tempDir();
    fs.writeFileSync(path.join(elsewhere, 'victim.txt'), 'not part of the repository\n');
    original = await hostileRepo(marks, elsewhere);
  });

  for (const sandbox of ['off', 'auto']) {
    it(`runs none of the repository's programs (sandbox ${sandbox}${sandbox === 'off' ? ', built CLI' : ''})`, async () => {
      expect(fs.readdirSync(marks)).toEqual([]);
      const repo = path.join(tempDir(), 'ws');
      fs.cpSync(original, repo, { recursive: true });
      fs.writeFileSync(path.join(repo, 'discover.sh'), `#!/bin/sh\necho '[{"name":"git_look","description":"d","parameters":{"type":"object","properties":{}}}]'\n`, { mode: 0o755 });
      fs.writeFileSync(path.join(repo, 'call.sh'), `#!/bin/sh\n${GIT}\n`, { mode: 0o755 });
      const dir = tempDir();
      const lateFilter = `[filter "evil"]\n\tclean = touch "${marks}/late-clean"; cat\n[core]\n\tfsmonitor = touch "${marks}/late-fsmonitor"\n`;
      const turns = [
        { calls: [{ name: 'git_look', args: {} }] },
        // The included file is an ordinary work-tree file: a tool may write it.
        { calls: [{ name: 'write_file', args: { file_path: 'team.gitconfig', content: lateFilter } }] },
        { calls: [{ name: 'write_file', args: { file_path: 'a.txt', content: 'changed\n' } }] },
        { calls: [{ name: 'shell', args: { command: GIT } }] },
        { calls: [{ name: 'git_look', args: {} }] },
        { text: 'done' },
      ];
      fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
      fs.writeFileSync(
        path.join(dir, 'recipe.yaml'),
        YAML.stringify({
          version: 1,
          prompt: 'look at git',
          provider: 'scripted',
          script: 'turns.yaml',
          workspace: repo,
          tools: ['write_file', 'shell'],
          tool_discovery: { command: './discover.sh', call_command: './call.sh' },
          confirmation: { mode: 'auto-approve' },
          sandbox: { mode: sandbox },
        }),
      );
      const out = path.join(dir, 'out');
      const r = await (sandbox === 'off' ? cli : cliInProcess)(['run', path.join(dir, 'recipe.yaml'), '--out', out]);
      const { events, report } = readRun(out);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readdirSync(marks)).toEqual([]);
      const outputs = events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content));
      // Git ran (the test is not empty) and saw the repository, never the directory core.worktree names.
      expect(outputs[0]).toContain('?? discover.sh');
      for (const output of outputs) expect(output).not.toContain('victim.txt');
      expect(report.files_changed.map((f: { path: string }) => f.path)).not.toContain('victim.txt');
      expect(fs.readFileSync(path.join(elsewhere, 'victim.txt'), 'utf8')).toBe('not part of the repository\n');
    });
  }
});
