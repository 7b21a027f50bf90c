// The @-mention flow end to end against a fake GitHub API and a fake Gemini endpoint on 127.0.0.1:
// action.yml's gate, run and comment steps, each a real process, with the payload GitHub sends.
// The other cases of the gate and the comment (allow-users, review threads, refused tokens) are
// in github-steps.test.ts, in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { startFakeGitHub } from './fake-github.js';
import { runComposite, TEST_TOKEN } from './composite-run.js';
import { removeScratch } from './harness.js';
import path from 'node:path';

const ANSWER = 'The parser lives in src/app.js:1; nothing else calls it.';
const ARTIFACT_URL = 'https://github.example/acme/widgets/actions/runs/77/artifacts/123';

let repo: string;
beforeAll(async () => {
  repo = await makeRepo(path.join(tempRoot('unattended-mention-'), 'repo'), { 'README.md': '# widgets\n', 'src/app.js': 'export const parse = (s) => s;\n' });
});
afterAll(() => {
  removeScratch();
  cleanupRepos();
});

const issueComment = (login: string) => ({
  action: 'created',
  issue: { number: 12, title: 'Where is the parser?', user: { login: 'someone' } },
  comment: { id: 345, body: '@unattended where is the parser?', user: { login, type: 'User' } },
  repository: { full_name: 'acme/widgets' },
});

const inputs = {
  prompt: 'Answer the question in the comment.',
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  'api-key': 'test-key-123456',
  comment: 'true',
  'upload-artifacts': 'true',
  'max-turns': '5',
};

async function mention(opts: { login: string; permissions: Record<string, 'admin' | 'write' | 'read'>; inputs?: Record<string, string> }) {
  const github = await startFakeGitHub({ permissions: opts.permissions });
  const gemini = await startFakeGemini([{ text: ANSWER, usage: { input: 20_000, output: 500 } }]);
  try {
    const result = await runComposite(
      { ...inputs, ...opts.inputs },
      {
        cwd: repo,
        event: issueComment(opts.login),
        artifactUrl: ARTIFACT_URL,
        env: {
          GITHUB_EVENT_NAME: 'issue_comment',
          GITHUB_REPOSITORY: 'acme/widgets',
          GITHUB_ACTOR: opts.login,
          GITHUB_TRIGGERING_ACTOR: opts.login,
          GITHUB_API_URL: github.url,
          GITHUB_SERVER_URL: 'https://github.example',
          GITHUB_RUN_ID: '77',
          GOOGLE_GEMINI_BASE_URL: gemini.url,
        },
      },
    );
    return { ...result, github, gemini };
  } finally {
    await Promise.all([github.close(), gemini.close()]);
  }
}

describe('an @-mention in an issue comment', () => {
  it('from someone with read access: refused before the model runs, with a message that says who, what and how to widen it', { timeout: 60_000 }, async () => {
    const r = await mention({ login: 'drive-by', permissions: { 'drive-by': 'read' } });
    expect(r.gate.code).not.toBe(0);
    expect(r.gate.stdout).toContain('::error title=unattended%3A run refused::drive-by has read access to acme/widgets; starting this run needs write access');
    expect(r.gate.stdout).toContain('allow-users');
    expect(r.gate.outputs).toMatchObject({ allowed: 'false', status: 'refused', 'exit-code': '1' });
    expect(r.run).toBeNull();
    expect(r.comment).toBeNull();
    expect(r.gemini.requests).toHaveLength(0);
    expect(r.github.comments).toEqual([]);
    expect(r.github.requests.map((q) => `${q.method} ${q.path} ${q.authorization}`)).toEqual([`GET /repos/acme/widgets/collaborators/drive-by/permission Bearer ${TEST_TOKEN}`]);
    expect(r.summary).toContain('unattended: run refused');
  });

  it("with claude-code-action's or run-gemini-cli's inputs (the uses: line swapped, the with: kept): exit 42 naming the input to use, and no model call", { timeout: 60_000 }, async () => {
    for (const peer of [{ anthropic_api_key: 'sk-ant-test-0000', claude_args: '--max-turns 5' }, { gemini_api_key: 'test-key-123456', gemini_model: 'gemini-2.5-pro', max_turns: '5' }] as Record<string, string>[]) {
      const r = await mention({ login: 'maintainer', permissions: { maintainer: 'write' }, inputs: { 'api-key': '', ...peer } });
      expect(r.gate.code, r.gate.stdout).toBe(42);
      for (const name of Object.keys(peer)) expect(r.gate.stdout).toMatch(new RegExp(`::error title=unattended%3A bad action input::${name} is .*'s input, not this action's, and is not used here: use`));
      // Only whether a key was given reaches the gate, never the key.
      expect(JSON.stringify(r.gate.env)).not.toMatch(/sk-ant-test|test-key-123456/);
      expect(r.gate.outputs).toMatchObject({ status: 'error', 'exit-code': '42' });
      expect(r.run).toBeNull();
      expect(r.gemini.requests).toHaveLength(0);
      expect(r.github.comments).toEqual([]);
    }
  });

  describe('from someone with write access', () => {
    let r: Awaited<ReturnType<typeof mention>>;
    beforeAll(async () => {
      r = await mention({ login: 'maintainer', permissions: { maintainer: 'write' } });
    }, 60_000);

    it('runs, and answers on the issue with the summary, the cost and the report link', () => {
      expect(r.gate.code, r.gate.stdout).toBe(0);
      expect(r.gate.stdout).toContain('unattended: may run: maintainer (write)');
      expect(r.run!.code, r.run!.stdout).toBe(0);
      expect(r.run!.outputs.status).toBe('success');
      expect(r.gemini.requests).toHaveLength(1);
      expect(r.comment!.code, r.comment!.stdout).toBe(0);
      expect(r.github.comments).toHaveLength(1);
      const { path: where, body } = r.github.comments[0]!;
      expect(where).toBe('/repos/acme/widgets/issues/12/comments');
      expect(body.startsWith(ANSWER)).toBe(true);
      expect(body).toMatch(/cost \$0\.\d{4}/);
      expect(body).toContain(`[report and transcript](${ARTIFACT_URL})`);
      expect(body).toContain('[workflow run](https://github.example/acme/widgets/actions/runs/77)');
      expect(body).toContain('status `success`');
      expect(r.comment!.stdout).toContain('unattended: answered on issue #12');
    });

    it('uploads and comments when the switches are written "true " or "TRUE" (as the run step reads them)', { timeout: 60_000 }, async () => {
      for (const on of ['true ', ' TRUE']) {
        const t = await mention({ login: 'maintainer', permissions: { maintainer: 'write' }, inputs: { comment: on, 'upload-artifacts': on } });
        expect(t.run!.code, t.run!.stdout).toBe(0);
        expect(t.uploaded).toBe(true);
        expect(t.github.comments).toHaveLength(1);
        expect(t.github.comments[0]!.body).toContain(`[report and transcript](${ARTIFACT_URL})`);
      }
    });

    it('the token reaches the gate and comment steps only, never the step that runs the model', () => {
      expect(r.gate.env.INPUT_GITHUB_TOKEN).toBe(TEST_TOKEN);
      expect(r.comment!.env.INPUT_GITHUB_TOKEN).toBe(TEST_TOKEN);
      expect(JSON.stringify(r.run!.env)).not.toContain(TEST_TOKEN);
      // Masked in the log of the steps that hold it.
      expect(r.gate.stdout).toContain(`::add-mask::${TEST_TOKEN}`);
      expect(r.comment!.stdout).toContain(`::add-mask::${TEST_TOKEN}`);
    });
  });
});
