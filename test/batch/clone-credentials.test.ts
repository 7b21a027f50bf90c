// A private repository's clone URL carries its token (`https://x-access-token:TOKEN@host/o/r.git`).
// The batch cloned it as given, and git kept the URL in the clone's .git/config, where the run's
// model read it (read_file, `git remote -v`) and could send it on. The clone's origin is now the
// URL without the token, and the run's git gets it back through its environment: the hand-off's
// push still authenticates. A real git server over HTTP that wants basic auth (git http-backend).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';

const RECIPE = `version: 1
name: greet
prompt: Make the greeting friendlier.
provider: scripted
script: turns.yaml
tools: [read_file, edit, shell]
sandbox: { mode: off }
confirmation: { mode: auto-approve }
git: { branch: unattended/greet, commit_message: friendlier, push: true }
`;

const TURNS = `turns:
  - calls:
      - name: read_file
        args: { absolute_path: "{{workspace}}/.git/config" }
      - name: shell
        args: { command: "git remote -v > /tmp/unattended-remote-$$.txt; git remote -v" }
  - calls:
      - name: edit
        args: { file_path: "{{workspace}}/README.md", old_string: "hello", new_string: "hello, friend" }
  - text: Made the greeting friendlier.
`;

it("keeps a clone URL's token out of the clone the model works in, and still pushes with it", { timeout: 90_000 }, async () => {
  const root = tempRoot('unattended-clone-credentials-');
  const source = await makeRepo(path.join(root, 'source'), { 'README.md': 'hello\n' });
  const served = path.join(root, 'served');
  fs.mkdirSync(path.join(served, 'acme'), { recursive: true });
  await execa('git', ['clone', '-q', '--bare', source, path.join(served, 'acme', 'private.git')], { env: isolatedGitEnv(root), extendEnv: false });
  const server = await startGitHttpServer(served, 'x-access-token', TOKEN);
  try {
    const url = `${server.url.replace('http://', `http://x-access-token:${TOKEN}@`)}/acme/private.git`;
    fs.writeFileSync(path.join(root, 'recipe.yaml'), RECIPE);
    fs.writeFileSync(path.join(root, 'turns.yaml'), TURNS);
    fs.writeFileSync(path.join(root, 'targets.txt'), `${url}\n`);
    const r = await cli(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out'], { cwd: root, env: isolatedGitEnv(root) });
    expect(r.code, r.stderr).toBe(0);
    const [row] = readBatch(path.join(root, 'out')).rows;
    expect(row).toMatchObject({ status: 'success', git: { branch: 'unattended/greet', pushed: true } });

    // What the model could read: the clone's configuration and what `git remote -v` printed.
    const checkouts = path.join(root, 'out', 'checkouts');
    const [slug] = fs.readdirSync(checkouts);
    const config = fs.readFileSync(path.join(checkouts, slug!, '.git', 'config'), 'utf8');
    expect(config).toContain(`${server.url}/acme/private.git`);
    expect(config).not.toContain(TOKEN);
    const transcript = fs.readFileSync(path.join(root, 'out', row.report.replace(/report\.json$/, 'transcript.jsonl')), 'utf8');
    const results = transcript.split('\n').filter(Boolean).map((line) => JSON.parse(line)).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.name)).toEqual(['read_file', 'shell', 'edit']);
    for (const e of results.slice(0, 2)) {
      expect(String(e.llm_content)).toContain('127.0.0.1');
      expect(String(e.llm_content)).not.toMatch(/REDACTED|x-access-token/);
    }

    // The push reached the server with the token, and the branch holds the run's commit.
    expect(server.requests.some((q) => q.path.endsWith('git-receive-pack') && q.authorized)).toBe(true);
    expect(await gitIn(path.join(served, 'acme', 'private.git'), 'show', 'unattended/greet:README.md')).toBe('hello, friend');
  } finally {
    await server.close();
  }
});
