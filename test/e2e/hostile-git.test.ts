// A repository is untrusted input: its .git/config names programs that git runs on ordinary
// commands. With every such setting pointing at a sentinel, a run that edits files and lets the
// model run git (status, diff, add, log -p, an alias, fetch, commit) in each confirmation mode,
// with change tracking and the hand-off on, must leave no sentinel behind. The repository is made
// once and copied for each mode (its config names the same sentinel directory); auto-approve runs
// the built CLI, the other modes its entry in process (the same code without a process start).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { gitConfigs, makeBareOrigin, makeRepo } from '../git/repos.js';

afterAll(removeTempDirs);

const GIT_COMMANDS = ['git status', 'git diff', 'git add -A', 'git diff --cached', 'git log -p -1', 'git st', 'git fetch origin', 'git commit -qm change'];

async function hostileRepo(marks: string): Promise<string> {
  const root = tempDir();
  const repo = await makeRepo(path.join(root, 'ws'), { 'a.txt': 'a\n', 'b.txt': 'b\n', '.gitattributes': '*.txt filter=evil diff=evil merge=evil\n' });
  await makeBareOrigin(repo, path.join(root, 'origin.git'));
  const touch = (name: string) => `touch "${marks}/${name}"`;
  fs.mkdirSync(path.join(repo, '.githooks'));
  for (const hook of ['pre-commit', 'post-commit', 'commit-msg', 'post-checkout', 'post-index-change', 'reference-transaction', 'pre-push']) {
    fs.writeFileSync(path.join(repo, '.githooks', hook), `#!/bin/sh\n${touch(`hook-${hook}`)}\n`, { mode: 0o755 });
  }
  const settings: Array<[string, string]> = [
    ['core.hooksPath', '.githooks'],
    ['core.fsmonitor', touch('fsmonitor')],
    ['filter.evil.clean', `${touch('clean')}; cat`],
    ['filter.evil.smudge', `${touch('smudge')}; cat`],
    ['filter.evil.process', touch('process')],
    ['filter.evil.required', 'true'],
    ['diff.evil.textconv', `${touch('textconv')}; cat`],
    ['diff.evil.command', touch('diff-command')],
    ['diff.external', touch('external-diff')],
    ['merge.evil.driver', touch('merge-driver')],
    ['alias.st', `!${touch('alias')}`],
    ['core.pager', touch('pager')],
    ['pager.log', touch('pager-log')],
    ['core.sshCommand', touch('ssh')],
    ['remote.origin.uploadpack', `${touch('uploadpack')}; git-upload-pack`],
    ['credential.helper', `!${touch('credential')}`],
    ['core.editor', touch('editor')],
  ];
  await gitConfigs(repo, settings);
  return repo;
}

function recipe(dir: string, repo: string, mode: string): string {
  const turns = [
    { calls: [{ name: 'write_file', args: { file_path: path.join(repo, 'a.txt'), content: 'changed\n' } }] },
    ...GIT_COMMANDS.map((command) => ({ calls: [{ name: 'shell', args: { command } }] })),
    { text: 'done' },
  ];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    YAML.stringify({
      version: 1,
      name: `hostile-git-${mode}`,
      prompt: 'change a.txt and look at git',
      provider: 'scripted',
      script: 'turns.yaml',
      workspace: repo,
      tools: ['write_file', 'shell'],
      confirmation: mode === 'allowlist' ? { mode, allow: [{ write_file: '*.txt' }, ...GIT_COMMANDS.map((c) => ({ shell: c }))] } : { mode },
      git: { branch: `unattended/${mode}`, commit_message: 'run' },
    }),
  );
  return file;
}

describe('a hostile repository runs nothing through git', () => {
  let marks: string;
  let original: string;
  beforeAll(async () => {
    marks = tempDir();
    original = await hostileRepo(marks);
  });

  for (const mode of ['auto-approve', 'allowlist', 'deny']) {
    it(`in ${mode} mode${mode === 'auto-approve' ? ' (built CLI)' : ''}`, async () => {
      expect(fs.readdirSync(marks)).toEqual([]);
      const dir = tempDir();
      const repo = path.join(dir, 'ws');
      fs.cpSync(original, repo, { recursive: true });
      const out = path.join(dir, 'out');
      const r = await (mode === 'auto-approve' ? cli : cliInProcess)(['run', recipe(dir, repo, mode), '--out', out]);
      const { report, events } = readRun(out);
      expect(fs.readdirSync(marks), `${mode}: exit ${r.code}\n${r.stderr}`).toEqual([]);
      // The calls really ran where the mode allows them, so the test is not empty.
      const shellOk = events.filter((e) => e.type === 'tool_result' && e.name === 'shell' && e.error_type === null).length;
      if (mode === 'deny') expect(shellOk).toBe(0);
      else expect(shellOk).toBeGreaterThanOrEqual(3);
      expect(report.tool_calls.total).toBe(GIT_COMMANDS.length + 1);
    });
  }
});
