// The programs the runner starts on the host while it judges or contains a call — git listing a
// config file for the sandbox's set-up, git looking up an alias for the deny rules, tar listing an
// archive for an allowlist (and the gzip tar starts) — are never the workspace's own. `npx` puts
// the project's node_modules/.bin first on PATH, and a repository (or an earlier call) can put a
// `git` or `tar` there: run before any sandbox, it ran with the runner's whole environment.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { outsideDir, removeOutsideDirs } from './harness.js';

afterAll(() => {
  removeTempDirs();
  removeOutsideDirs();
});

/** A repository whose node_modules/.bin holds a git, tar and gzip that note where they ran, then do the real one's work. */
async function plantedRepo(): Promise<{ dir: string; ws: string; bin: string; marks: string }> {
  const dir = fs.realpathSync(tempDir('unattended-planted-policy-'));
  // Outside /tmp: in the sandbox it is read-only, so a mark there comes from the host.
  const marks = outsideDir();
  const ws = path.join(dir, 'ws');
  const bin = path.join(ws, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const name of ['git', 'tar', 'gzip']) {
    const real = (await execa('sh', ['-c', `command -v ${name}`])).stdout.trim();
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${marks}/ran-on-host'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  }
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'b.txt'), 'b\n');
  await execa('tar', ['czf', path.join(ws, 'b.tar.gz'), '-C', dir, 'src']);
  return { dir, ws, bin, marks };
}

async function run(dir: string, ws: string, bin: string, commands: string[], confirmation: Record<string, unknown>) {
  const turns = [...commands.map((command) => ({ calls: [{ name: 'shell', args: { command } }] })), { text: 'done' }];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(recipe, YAML.stringify({ version: 1, prompt: 'x', provider: 'scripted', script: 'turns.yaml', workspace: 'ws', tools: ['shell'], confirmation }));
  const out = path.join(dir, 'out');
  fs.rmSync(out, { recursive: true, force: true });
  const r = await cli(['run', recipe, '--out', out], { cwd: ws, env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
  return { r, ...readRun(out) };
}

describe.skipIf(process.platform !== 'linux')('a git or tar the repository planted where npx puts PATH first', () => {
  it('is not what checks a git alias against the deny rules, nor what lists the git config', async () => {
    const { dir, ws, bin, marks } = await plantedRepo();
    await execa('git', ['config', 'alias.st', 'status --short'], { cwd: ws });
    const { r, events } = await run(dir, ws, bin, ['git st'], { mode: 'auto-approve', deny: [{ shell: 'rm -rf *' }] });
    expect(r.code, r.stderr).toBe(0);
    // The alias was looked up (and ran): the call was approved.
    expect(String(events.find((e) => e.type === 'tool_result')!.llm_content)).toContain('a.txt');
    expect(fs.existsSync(path.join(marks, 'ran-on-host')) ? fs.readFileSync(path.join(marks, 'ran-on-host'), 'utf8') : '').toBe('');
  });

  it('is not what lists an archive an allowlist checks before it is extracted', async () => {
    const { dir, ws, bin, marks } = await plantedRepo();
    const { r, events } = await run(dir, ws, bin, ['tar xzf b.tar.gz', 'cat src/b.txt'], { mode: 'allowlist', allow: [{ shell: 'tar *' }, { shell: 'cat *' }] });
    expect(r.code, r.stderr).toBe(0);
    // The archive was listed and found harmless: extracted, its file there.
    const results = events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content));
    expect(results[1]).toMatch(/Exit code: 0[\s\S]*\bb$/);
    expect(fs.existsSync(path.join(marks, 'ran-on-host')) ? fs.readFileSync(path.join(marks, 'ran-on-host'), 'utf8') : '').toBe('');
  });
});
