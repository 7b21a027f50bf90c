// The gate and comment steps in-process, against the fake GitHub API on 127.0.0.1: who may start a
// run, where the answer goes, and what the step says when GitHub refuses. (mention.test.ts runs the
// whole flow as the runner does.)
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { micromark } from 'micromark';
import { commentBody, commentTarget, formatUsd } from '../../src/action/comment.js';
import { commentStep, gateStep } from '../../src/action/github-steps.js';
import type { Report } from '../../src/report/report.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { parseOutputFile, removeScratch, scratchDir } from './harness.js';

afterAll(removeScratch);
let github: FakeGitHub | null = null;
afterEach(async () => {
  await github?.close();
  github = null;
});

function stepEnv(event: Record<string, unknown>, env: Record<string, string>): NodeJS.ProcessEnv {
  const dir = scratchDir();
  fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(event));
  fs.writeFileSync(path.join(dir, 'output'), '');
  fs.writeFileSync(path.join(dir, 'summary.md'), '');
  return {
    GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
    GITHUB_OUTPUT: path.join(dir, 'output'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'),
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_API_URL: github!.url,
    INPUT_GITHUB_TOKEN: 'ghs_test',
    ...env,
  };
}

async function gate(event: Record<string, unknown>, env: Record<string, string>) {
  const full = stepEnv(event, env);
  let log = '';
  const code = await gateStep({ env: full, log: (t) => (log += t) });
  return { code, log, outputs: parseOutputFile(fs.readFileSync(full.GITHUB_OUTPUT!, 'utf8')) };
}

const comment = (login: string) => ({ comment: { id: 7, body: '@unattended hi', user: { login } }, issue: { number: 3 } });

describe('the gate', () => {
  it('refuses someone who is no collaborator (GitHub answers 404), and says so', async () => {
    github = await startFakeGitHub({ permissions: {} });
    const r = await gate(comment('stranger'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'stranger' });
    expect(r.code).not.toBe(0);
    expect(r.log).toContain('stranger has none access to acme/widgets; starting this run needs write access');
    expect(r.outputs).toMatchObject({ allowed: 'false', status: 'refused' });
  });

  it("refuses a peer's input (claude-code-action's anthropic_api_key, run-gemini-cli's gemini_model) with exit 42, naming what to use, before asking GitHub", async () => {
    github = await startFakeGitHub({ permissions: { maintainer: 'maintain' } });
    const r = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer', UNATTENDED_PEER_ANTHROPIC_API_KEY: 'true', UNATTENDED_PEER_GEMINI_MODEL: 'true', UNATTENDED_PEER_MAX_TURNS: 'false' });
    expect(r.code).toBe(42);
    expect(r.log).toContain("anthropic_api_key is claude-code-action's input, not this action's, and is not used here: use `api-key: ${{ secrets.ANTHROPIC_API_KEY }}` with `provider: anthropic`");
    expect(r.log).toContain("gemini_model is run-gemini-cli's input, not this action's, and is not used here: use `model`");
    expect(r.log).not.toContain('max_turns');
    expect(r.outputs).toMatchObject({ allowed: 'false', status: 'error', 'exit-code': '42' });
    expect(github.requests).toEqual([]);
  });

  it.each([
    ['off ', 'true'],
    ['off', 'true'],
    ['auto', 'false'],
    ['', 'false'],
  ])('tells the sandbox set-up step whether sandbox %j is off, as the run step reads it (trimmed)', async (sandbox, off) => {
    github = await startFakeGitHub({ permissions: { maintainer: 'maintain' } });
    const r = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer', INPUT_SANDBOX: sandbox });
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ allowed: 'true', 'sandbox-off': off });
  });

  it('asks again when GitHub answers the permission check with a 502: a bad minute at GitHub refuses no one', async () => {
    github = await startFakeGitHub({ permissions: { maintainer: 'maintain' }, failFirst: { status: 502, count: 1 } });
    const r = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer' });
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ allowed: 'true' });
    expect(github.requests).toHaveLength(2);
  });

  it('waits out a spent rate limit that resets within a minute (x-ratelimit-reset), and refuses at once one that resets later', async () => {
    const spent = (inS: number) => ({ status: 403, count: 1, message: 'API rate limit exceeded for installation ID 1.', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + inS) } });
    github = await startFakeGitHub({ permissions: { maintainer: 'maintain' }, failFirst: spent(1) });
    const soon = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer' });
    expect(soon.code).toBe(0);
    expect(soon.outputs).toMatchObject({ allowed: 'true' });
    expect(github.requests).toHaveLength(2);
    await github.close();

    github = await startFakeGitHub({ permissions: { maintainer: 'maintain' }, failFirst: spent(3600) });
    const started = Date.now();
    const late = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(late.code).not.toBe(0);
    expect(late.log).toContain('HTTP 403: API rate limit exceeded for installation ID 1.');
    expect(github.requests).toHaveLength(1);
  });

  it('checks the commenter and the actor: a re-run by a maintainer does not let a triager through', async () => {
    github = await startFakeGitHub({ permissions: { maintainer: 'maintain', triager: 'triage' } });
    const r = await gate(comment('triager'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'triager', GITHUB_TRIGGERING_ACTOR: 'maintainer' });
    expect(r.code).not.toBe(0);
    expect(r.log).toContain('triager has triage access');
    const review = { review: { user: { login: 'maintainer' } }, pull_request: { number: 4 } };
    const ok = await gate(review, { GITHUB_EVENT_NAME: 'pull_request_review', GITHUB_ACTOR: 'maintainer' });
    expect(ok.code, ok.log).toBe(0);
    expect(ok.log).toContain('may run: maintainer (maintain)');
  });

  it('allow-users widens it: listed logins (any case, @ optional) pass without asking GitHub, and * lets anyone', async () => {
    github = await startFakeGitHub({ permissions: { owner: 'admin' } });
    const listed = await gate(comment('Guest'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'Guest', INPUT_ALLOW_USERS: 'someone\n@guest' });
    expect(listed.code, listed.log).toBe(0);
    expect(listed.log).toContain('Guest (listed in allow-users)');
    const anyone = await gate(comment('stranger'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'stranger', INPUT_ALLOW_USERS: '*' });
    expect(anyone.code).toBe(0);
    expect(github.requests).toEqual([]);
    // A listed commenter does not vouch for an unlisted actor.
    const mixed = await gate(comment('guest'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'stranger', INPUT_ALLOW_USERS: 'guest' });
    expect(mixed.code).not.toBe(0);
  });

  it('does not ask about events only writers can cause (push, schedule, workflow_dispatch)', async () => {
    github = await startFakeGitHub({ permissions: {} });
    for (const name of ['push', 'schedule', 'workflow_dispatch']) {
      const r = await gate({}, { GITHUB_EVENT_NAME: name, GITHUB_ACTOR: 'whoever' });
      expect(r.code, name).toBe(0);
    }
    expect(github.requests).toEqual([]);
  });

  it('fails closed: no token, or an API that cannot be reached, refuses the run', async () => {
    github = await startFakeGitHub({ permissions: { maintainer: 'write' } });
    const noToken = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer', INPUT_GITHUB_TOKEN: '' });
    expect(noToken.code).not.toBe(0);
    expect(noToken.log).toContain('the github-token input is empty');
    const down = await gate(comment('maintainer'), { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_ACTOR: 'maintainer', GITHUB_API_URL: 'http://127.0.0.1:9' });
    expect(down.code).not.toBe(0);
    expect(down.log).toContain("could not check maintainer's permission on acme/widgets");
  });
});

const report = (over: Partial<Report> = {}): Report =>
  ({
    run_id: 'r1',
    status: 'success',
    exit_code: 0,
    model: 'gemini-2.5-flash',
    final_answer: 'Done: see src/app.js.',
    error: null,
    turns: 2,
    tool_calls: { total: 3, by_tool: {}, errors_by_type: {} },
    denials: [],
    usage: { input: 1000, output: 100, total: 1100, cost_usd: 0.00123 },
    ...over,
  }) as Report;

describe('the comment', () => {
  async function post(event: Record<string, unknown>, r: Report | null, env: Record<string, string> = {}) {
    const runDir = scratchDir();
    if (r) fs.writeFileSync(path.join(runDir, 'report.json'), JSON.stringify(r));
    let log = '';
    const code = await commentStep({ env: stepEnv(event, { INPUT_COMMENT: 'true', UNATTENDED_RUN_DIR: runDir, ...env }), log: (t) => (log += t) });
    return { code, log };
  }

  it('goes to the issue, the pull request, or the thread of a review comment', async () => {
    github = await startFakeGitHub();
    await post(comment('a'), report());
    await post({ comment: { id: 9, user: { login: 'a' } }, issue: { number: 5, pull_request: {} } }, report());
    await post({ comment: { id: 11, pull_request_review_id: 2, user: { login: 'a' } }, pull_request: { number: 6 } }, report());
    await post({ review: { id: 3 }, pull_request: { number: 6 } }, report());
    // A mention written as a reply in a review thread: GitHub answers replies to the thread's first comment only.
    await post({ comment: { id: 12, in_reply_to_id: 11, pull_request_review_id: 2, user: { login: 'a' } }, pull_request: { number: 6 } }, report());
    expect(github.comments.map((c) => c.path)).toEqual([
      '/repos/acme/widgets/issues/3/comments',
      '/repos/acme/widgets/issues/5/comments',
      '/repos/acme/widgets/pulls/6/comments/11/replies',
      '/repos/acme/widgets/issues/6/comments',
      '/repos/acme/widgets/pulls/6/comments/11/replies',
    ]);
  });

  it('a token that may not comment: the step fails and names the permission the job needs', async () => {
    github = await startFakeGitHub({ commentStatus: 403 });
    const r = await post(comment('a'), report());
    expect(r.code).not.toBe(0);
    expect(r.log).toContain('HTTP 403: Resource not accessible by integration');
    expect(r.log).toContain('`issues: write`');
  });

  it('an event without an issue or pull request (schedule): a warning, no request, the step passes', async () => {
    github = await startFakeGitHub();
    const r = await post({}, report(), { GITHUB_EVENT_NAME: 'schedule' });
    expect(r.code).toBe(0);
    expect(r.log).toContain('::warning title=unattended%3A no comment posted::a schedule has no issue or pull request');
    expect(github.requests).toEqual([]);
  });

  it('says how a failed run ended, and when the cost is unknown', () => {
    const failed = commentBody(report({ status: 'limit', exit_code: 53, final_answer: null, error: 'max_turns (5) reached', usage: { input: 1, output: 1, total: 2 } }), { artifactUrl: null, runUrl: 'https://x/run' });
    expect(failed).toContain('the run ended with status `limit` (exit 53): max_turns (5) reached');
    expect(failed).toContain('cost unknown for gemini-2.5-flash');
    expect(failed).toContain('[workflow run](https://x/run)');
    expect(failed).not.toContain('report and transcript');
    expect(commentBody(null, { artifactUrl: null, runUrl: null })).toContain('without a report');
    const long = commentBody(report({ final_answer: 'x'.repeat(70_000) }), { artifactUrl: null, runUrl: null });
    expect(long.length).toBeLessThan(65_536);
  });

  it('cuts a long answer between characters, never inside an emoji (a surrogate pair at the cut)', () => {
    // 59,999 ASCII characters, then emoji: character 60,000 is the high half of the first one.
    const body = commentBody(report({ final_answer: `${'x'.repeat(59_999)}${'🎉'.repeat(10)}` }), { artifactUrl: null, runUrl: null });
    expect(body).toContain('… (cut; the whole answer is in the report)');
    expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(body.startsWith(`${'x'.repeat(59_999)}\n`)).toBe(true);
  });

  it("keeps the status line visible whatever the answer opens (a comment, a fence, a details block), cut or whole", () => {
    for (const final_answer of ['Done.\n<!-- hidden', 'Done.\n```\ncode', `<details><summary>x</summary>\n${'y'.repeat(70_000)}`, `\`\`\`\n${'y\n'.repeat(40_000)}`]) {
      const html = micromark(commentBody(report({ final_answer, status: 'denied', denials: [{ turn: 1, tool: 'shell', args: {}, reason: 'r', rule: null }] }), { artifactUrl: null, runUrl: null }), { allowDangerousHtml: true });
      expect(html).not.toMatch(/<!--|<details>/);
      expect(html).toMatch(/<p><sub>unattended · status <code>denied<\/code> · .* · 1 denied/);
    }
  });

  it('formats dollars the way a reader expects', () => {
    expect([formatUsd(2.5), formatUsd(0.01234), formatUsd(0.00001), formatUsd(0)]).toEqual(['$2.50', '$0.0123', '< $0.0001', '$0']);
    expect(commentTarget('acme/widgets', { schedule: '* * * * *' })).toBeNull();
  });
});
