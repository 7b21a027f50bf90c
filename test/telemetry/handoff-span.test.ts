// The hand-off's span (issue 15: "spans for checks and hand-off") covers the hand-off: the commit,
// the push and the pull request, which take seconds against GitHub. It was started and ended at
// once when the hand-off had finished, so a trace showed a span of no length after a gap of as
// long as the hand-off took. A real repository with a GitHub-shaped origin (git's insteadOf to a
// bare repository), a fake GitHub that answers slowly, and the suite's OTLP collector.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

const TOKEN = 'ghp_handoff_span_token_for_tests_00000';
let github: FakeGitHub;
let collector: OtlpReceiver;
beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }] });
  collector = await startOtlpReceiver();
});
afterAll(async () => {
  await github.close();
  await collector.close();
  cleanupRepos();
});

it('the git_handoff span lasts as long as the hand-off, push and pull request included, under the run span', { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-handoff-span-');
  const remotes = path.join(root, 'remotes');
  const seed = await makeRepo(path.join(root, 'seed'), { 'README.md': 'hello\n' });
  await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', 'widgets.git'));
  const env = { ...fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
  const repo = path.join(root, 'repo');
  await execa('git', ['clone', '-q', 'https://github.example/acme/widgets.git', repo], { cwd: root, env, extendEnv: false });
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "echo hi > README.md" }\n  - text: Said hi.\n');
  fs.writeFileSync(
    path.join(root, 'recipe.yaml'),
    'version: 1\nname: greet\nprompt: Say hi.\nprovider: scripted\nscript: turns.yaml\ntools: [shell]\nsandbox: { mode: off }\nconfirmation: { mode: auto-approve }\ngit: { branch: unattended/greet, commit_message: Say hi, pull_request: { title: Say hi } }\n',
  );
  // Each of the pull request's requests (the repository, open pull requests, the new one) waits this long.
  github.delayMs = 400;
  const r = await cli(['run', path.join(root, 'recipe.yaml'), '--workspace', repo, '--out', path.join(root, 'out')], { env });
  github.delayMs = 0;
  expect(r.code, r.stderr).toBe(0);

  const run = collector.spans.find((s) => s.name === 'invoke_agent greet')!;
  const handoff = collector.spans.find((s) => s.name === 'git_handoff')!;
  expect(handoff).toMatchObject({ traceId: run.traceId, parentSpanId: run.spanId, attributes: { 'unattended.git.branch': 'unattended/greet', 'unattended.git.pushed': true, 'unattended.pull_request.action': 'created' } });
  expect(handoff.endMs - handoff.startMs).toBeGreaterThanOrEqual(3 * 400);
  // It starts after the model's last request and the tool call, and ends within the run.
  const lastChild = Math.max(...collector.spans.filter((s) => s.parentSpanId === run.spanId && s !== handoff).map((s) => s.endMs));
  expect(handoff.startMs).toBeGreaterThanOrEqual(lastChild);
  expect(handoff.endMs).toBeLessThanOrEqual(run.endMs);
});

it('a push that fails (the run ends handoff_failed, exit 58) marks the git_handoff span as an error, as the run span is', { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-handoff-span-push-');
  const repo = await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n' });
  // origin is a repository that is not there: the commit is made, the push fails.
  await gitIn(repo, 'remote', 'add', 'origin', path.join(root, 'gone.git'));
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "echo hi > README.md" }\n  - text: Said hi.\n');
  fs.writeFileSync(
    path.join(root, 'recipe.yaml'),
    'version: 1\nname: pushfail\nprompt: Say hi.\nprovider: scripted\nscript: turns.yaml\ntools: [shell]\nsandbox: { mode: off }\nconfirmation: { mode: auto-approve }\ngit: { branch: unattended/push-fails, commit_message: Say hi, push: true }\n',
  );
  const r = await cli(['run', path.join(root, 'recipe.yaml'), '--workspace', repo, '--out', path.join(root, 'out')], { env: { ...isolatedGitEnv(root), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } });
  expect(r.code, r.stderr).toBe(58);
  const run = collector.spans.find((s) => s.name === 'invoke_agent pushfail')!;
  expect(run.status.code).toBe(2);
  const handoff = collector.spans.find((s) => s.name === 'git_handoff' && s.traceId === run.traceId)!;
  expect(handoff.attributes).toMatchObject({ 'unattended.git.committed': true, 'unattended.git.pushed': false });
  expect(handoff.status).toMatchObject({ code: 2, message: 'push failed' });
});
