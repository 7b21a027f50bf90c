// The action on a self-hosted runner that reaches GitHub only through an HTTP proxy: its gate
// (the actor's permission) and its comment called the GitHub API with the global fetch, which reads
// no proxy variable, so both failed where only the proxy gets out. The fake GitHub is named
// github.proxied.test, which only the test proxy resolves: the calls go through it or not at all.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startHttpProxy } from '../helpers/http-proxy.js';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { startFakeGitHub } from './fake-github.js';
import { runComposite } from './composite-run.js';
import { removeScratch } from './harness.js';

afterAll(() => {
  removeScratch();
  cleanupRepos();
});

describe('the action behind an HTTP proxy', () => {
  it('asks the permission and answers on the issue through the proxy HTTP_PROXY names', { timeout: 60_000 }, async () => {
    const repo = await makeRepo(path.join(tempRoot('unattended-action-proxy-'), 'repo'), { 'README.md': '# widgets\n' });
    const github = await startFakeGitHub({ permissions: { maintainer: 'write' } });
    const gemini = await startFakeGemini([{ text: 'Answered.', usage: { input: 100, output: 10 } }]);
    const proxy = await startHttpProxy();
    const api = github.url.replace('127.0.0.1', 'github.proxied.test');
    try {
      const r = await runComposite(
        { prompt: 'Answer the comment.', provider: 'gemini', model: 'gemini-2.5-flash', 'api-key': 'test-key-123456', comment: 'true', 'max-turns': '3' },
        {
          cwd: repo,
          event: {
            action: 'created',
            issue: { number: 12, title: 'A question', user: { login: 'someone' } },
            comment: { id: 345, body: '@unattended a question', user: { login: 'maintainer', type: 'User' } },
            repository: { full_name: 'acme/widgets' },
          },
          env: {
            GITHUB_EVENT_NAME: 'issue_comment',
            GITHUB_REPOSITORY: 'acme/widgets',
            GITHUB_ACTOR: 'maintainer',
            GITHUB_TRIGGERING_ACTOR: 'maintainer',
            GITHUB_API_URL: api,
            GITHUB_SERVER_URL: 'https://github.example',
            GITHUB_RUN_ID: '77',
            GOOGLE_GEMINI_BASE_URL: gemini.url,
            HTTP_PROXY: proxy.url,
          },
        },
      );
      expect(r.gate.code, r.gate.stdout).toBe(0);
      expect(r.comment!.code, r.comment!.stdout).toBe(0);
      expect(github.comments).toHaveLength(1);
      const seen = proxy.seen.map((s) => `${s.method} ${s.target}`);
      expect(seen).toContain(`GET ${api}/repos/acme/widgets/collaborators/maintainer/permission`);
      expect(seen).toContain(`POST ${api}/repos/acme/widgets/issues/12/comments`);
    } finally {
      await Promise.all([github.close(), gemini.close(), proxy.close()]);
    }
  });

  it('refuses the run at once, naming the proxy, when the proxy wants credentials (407)', { timeout: 60_000 }, async () => {
    const repo = await makeRepo(path.join(tempRoot('unattended-action-proxy-'), 'repo'), { 'README.md': '# widgets\n' });
    const github = await startFakeGitHub({ permissions: { maintainer: 'write' } });
    const proxy = await startHttpProxy({ credentials: 'user:secret' });
    const api = github.url.replace('127.0.0.1', 'github.proxied.test');
    try {
      const r = await runComposite(
        { prompt: 'Answer the comment.', provider: 'gemini', model: 'gemini-2.5-flash', 'api-key': 'test-key-123456', 'max-turns': '3' },
        {
          cwd: repo,
          event: {
            action: 'created',
            issue: { number: 12, title: 'A question', user: { login: 'someone' } },
            comment: { id: 345, body: '@unattended a question', user: { login: 'maintainer', type: 'User' } },
            repository: { full_name: 'acme/widgets' },
          },
          env: {
            GITHUB_EVENT_NAME: 'issue_comment',
            GITHUB_REPOSITORY: 'acme/widgets',
            GITHUB_ACTOR: 'maintainer',
            GITHUB_TRIGGERING_ACTOR: 'maintainer',
            GITHUB_API_URL: api,
            HTTP_PROXY: proxy.url,
          },
        },
      );
      expect(r.gate.code).not.toBe(0);
      expect(r.run).toBeNull();
      expect(r.gate.stdout).toContain(`the proxy ${proxy.url} (HTTP_PROXY) asks for credentials`);
      // A proxy's refusal is no GitHub outage: asking twice more (1 s, then 4 s later) gets the same 407.
      expect(proxy.seen, JSON.stringify(proxy.seen)).toHaveLength(1);
    } finally {
      await Promise.all([github.close(), proxy.close()]);
    }
  });
});
