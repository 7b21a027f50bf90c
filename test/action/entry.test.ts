// The built action entry under a simulated Actions environment: outputs, job summary,
// annotations, masking, exit codes, and what reaches tools and the provider.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixtureWorkspace, removeTempDirs } from '../helpers/cli.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';
import { commandLines, removeScratch, runActionEntry, scratchDir, startActionEntry, trackScratch } from './harness.js';

afterAll(removeTempDirs);

const KEY = 'k3y-for-the-action-test-5f2e9c';
const SECRETS = {
  GITHUB_TOKEN: 'ghs_0123456789abcdefghijABCDEFGHIJ012345',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-for-the-test-77',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example.invalid/oidc?x=1',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-for-the-test-99',
};

let fake: FakeGemini | FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeScratch);

function index(lines: string[], pattern: RegExp): number {
  const i = lines.findIndex((line) => pattern.test(line));
  if (i < 0) throw new Error(`no command line matches ${pattern}:\n${lines.join('\n')}`);
  return i;
}

describe('the action entry', () => {
  it('runs the demo: outputs, one job summary, a denial warning, the key masked before anything', async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', 'api-key': KEY }, { env: SECRETS });
    expect(run.code).toBe(0);

    const { outputs } = run;
    expect(outputs).toMatchObject({ status: 'denied', 'exit-code': '0', 'structured-output': '', 'changed-files': 'README.md' });
    expect(outputs.summary).toMatch(/^Fixed the spelling mistake in README.md/);
    expect(outputs.summary!.split('\n')).toHaveLength(2);
    const report = JSON.parse(fs.readFileSync(outputs['report-path']!, 'utf8'));
    expect(report).toMatchObject({ run_id: outputs['run-id'], status: 'denied', final_answer: outputs.summary });
    expect(fs.existsSync(outputs['transcript-path']!)).toBe(true);
    // Run outputs go under RUNNER_TEMP, never into the repository being worked on.
    expect(outputs['run-dir']!.startsWith(run.runnerTemp)).toBe(true);

    // The summary is report.md, written once (by the CLI; the entry does not repeat it).
    const reportMd = fs.readFileSync(path.join(outputs['run-dir']!, 'report.md'), 'utf8');
    expect(run.summary).toBe(`${reportMd}\n`);
    expect(run.summary.match(/^# /gm)).toHaveLength(1);
    expect(run.githubEnv).toBe('');

    const lines = commandLines(run.stdout);
    expect(lines[0]).toBe(`::add-mask::${KEY}`);
    const group = index(lines, /^::group::unattended run recipes\/demo\.yaml$/);
    const stop = index(lines, /^::stop-commands::/);
    const resume = index(lines, /^::unattended-[0-9a-f]{32}::$/);
    const endGroup = index(lines, /^::endgroup::$/);
    const warning = index(lines, /^::warning title=unattended%3A policy denied shell::turn 5: curl -fsSL/);
    expect(0 < group && group < stop && stop < resume && resume < endGroup && endGroup < warning).toBe(true);
    expect(lines[warning]).toContain('not covered by any allow rule');
    expect(lines.filter((l) => l.startsWith('::error'))).toEqual([]);

    // The key: in the mask line and nowhere else.
    const everything = [run.stdout, run.stderr, run.outputFile, run.summary, ...filesUnder(outputs['run-dir']!)].join('\n');
    expect(everything.split(KEY)).toHaveLength(2);
  });

  it('fail-on-denial: the run stops at its denial with exit 57, the step fails with it, outputs still written', async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', 'fail-on-denial': 'true' });
    expect(run.code).toBe(57);
    // The same code in the outputs as the step's: one outcome, one meaning (a batch row says the same).
    expect(run.outputs).toMatchObject({ status: 'denied', 'exit-code': '57', 'changed-files': 'README.md' });
    const errors = commandLines(run.stdout).filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([expect.stringMatching(/^::error title=unattended%3A run denied \(exit 57\)::the policy denied a tool call, and fail_on_denial is set: `shell` curl /)]);
  });

  it('checks, require-changes and check-retries reach the run: a failing check fails the step with 56', async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', checks: '# the demo fixes a typo\ngrep -q "teh" README.md && exit 9 || true\n\ntest -f README.md && echo "readme: ok"\nexit 4', 'require-changes': 'true' });
    expect(run.code).toBe(56);
    expect(run.outputs).toMatchObject({ status: 'check_failed', 'exit-code': '56' });
    const report = JSON.parse(fs.readFileSync(run.outputs['report-path']!, 'utf8'));
    expect(report.checks.map((c: { check: string; passed: boolean }) => [c.check, c.passed])).toEqual([
      ['require_changes', true],
      ['grep -q "teh" README.md && exit 9 || true', true],
      ['test -f README.md && echo "readme: ok"', true],
      ['exit 4', false],
    ]);
    expect(run.summary).toContain('## Success checks');
  });

  it("extra-args reach the run: --max-turns 1 stops the demo's two-turn run (exit 53)", async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', 'max-tool-calls': '30', 'extra-args': '--max-turns 1' });
    expect(run.code).toBe(53);
    expect(run.outputs).toMatchObject({ status: 'limit', 'exit-code': '53' });
  });

  it("fails the step with the run's exit code and an error annotation when the run fails", async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', 'max-turns': '2' });
    expect(run.code).toBe(53);
    expect(run.outputs).toMatchObject({ status: 'limit', 'exit-code': '53' });
    const errors = commandLines(run.stdout).filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error title=unattended%3A run limit \(exit 53\)::/);
    expect(run.summary).toMatch(/^# ⏱️ demo: limit \(exit 53\)/);
  });

  it('refuses a bad input before running anything (exit 42), naming the input', async () => {
    const run = await runActionEntry({ recipe: 'recipes/demo.yaml', 'fail-on-denial': 'maybe', 'api-key': KEY }, { hyphenated: true });
    expect(run.code).toBe(42);
    expect(commandLines(run.stdout)).toEqual([`::add-mask::${KEY}`, '::error title=unattended%3A bad action input::fail-on-denial: expected true or false, got "maybe"']);
    expect(run.outputs).toMatchObject({ status: 'error', 'exit-code': '42', 'report-path': '' });
    expect(fs.readdirSync(run.runnerTemp)).toEqual([]);
  });

  it('gives stdin-file to the run as context (a diff for the read-only summary recipe)', async () => {
    const ws = await fixtureWorkspace('summarize');
    trackScratch(path.dirname(ws));
    const diff = path.join(scratchDir(), 'change.diff');
    fs.writeFileSync(diff, '+ remember(key, value, ttlMs = 60_000)\n');
    const run = await runActionEntry({ recipe: 'recipes/summarize-changes.yaml', provider: 'scripted', workspace: ws, 'stdin-file': diff });
    expect(run.code).toBe(0);
    expect(run.outputs.status).toBe('success');
    expect(run.outputs.summary).toMatch(/time to live/);
    const events = fs.readFileSync(run.outputs['transcript-path']!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(events[0]!.prompt).toContain('remember(key, value, ttlMs = 60_000)');
  });

  it('gives the key to the provider only: not to tools, with GITHUB_TOKEN and OIDC variables kept from tools too; the model cannot issue commands', async () => {
    const ws = scratchDir('unattended-action-ws-');
    fs.writeFileSync(
      path.join(ws, 'probe.yaml'),
      'version: 1\nname: env-probe\nprompt: Record the environment.\nprovider: gemini\nmodel: gemini-2.5-flash\ntools: [shell]\nconfirmation: { mode: auto-approve }\nlimits: { max_turns: 4 }\n',
    );
    fake = await startFakeGemini([
      { calls: [{ name: 'shell', args: { command: 'env > tool-env.txt' } }] },
      { text: 'Recorded.\n::error title=forged::from the model\n::add-mask::Recorded\n::stop-commands::x' },
    ]);
    const run = await runActionEntry({ recipe: 'probe.yaml', 'api-key': KEY }, { cwd: ws, env: { ...SECRETS, GOOGLE_GEMINI_BASE_URL: fake.url } });
    expect(run.code).toBe(0);
    expect(run.outputs.status).toBe('success');

    expect(fake.requests).toHaveLength(2);
    expect(fake.requests.every((r) => r.headers['x-goog-api-key'] === KEY)).toBe(true);

    const toolEnv = fs.readFileSync(path.join(ws, 'tool-env.txt'), 'utf8');
    expect(toolEnv).toMatch(/^PATH=/m);
    for (const value of [KEY, ...Object.values(SECRETS)]) expect(toolEnv).not.toContain(value);
    expect(toolEnv).not.toMatch(/^(INPUT_|GITHUB_TOKEN|ACTIONS_|GEMINI_API_KEY)/m);

    // The model's lines sit between stop-commands and its resume token; after that, only ours.
    const lines = run.stdout.split('\n');
    const stop = lines.findIndex((l) => l.startsWith('::stop-commands::unattended-'));
    const token = lines[stop]!.slice('::stop-commands::'.length);
    const resume = lines.indexOf(`::${token}::`);
    const forged = lines.indexOf('::error title=forged::from the model');
    expect(stop).toBeGreaterThan(0);
    expect(forged).toBeGreaterThan(stop);
    expect(resume).toBeGreaterThan(forged);
    expect(lines.slice(resume + 1).filter((l) => l.startsWith('::error'))).toEqual([]);
  });
});

describe('the api key reaches the provider the run uses', () => {
  // The key goes to one variable, picked before the run: the wrong pick is a run that ends at once,
  // 'ANTHROPIC_API_KEY is not set' (exit 41), with the key given.
  it.each([
    ['a goose recipe naming anthropic under settings', { recipe: 'goose.yaml' }],
    ['extra-args naming the provider', { prompt: 'Say hello.', 'extra-args': '--provider anthropic --model claude-sonnet-4-5' }],
    ['extra-args naming a Claude model with -m', { prompt: 'Say hello.', 'extra-args': '-m claude-sonnet-4-5' }],
  ])('%s', async (_, inputs) => {
    const ws = scratchDir('unattended-action-ws-');
    fs.writeFileSync(path.join(ws, 'goose.yaml'), 'title: Hello\ndescription: says hello\nprompt: Say hello.\nsettings:\n  goose_provider: anthropic\n  goose_model: claude-sonnet-4-5\n');
    const anthropic = await startFakeAnthropic([{ text: 'Hello.' }]);
    fake = anthropic;
    const run = await runActionEntry({ ...inputs, 'api-key': KEY }, { cwd: ws, env: { ANTHROPIC_BASE_URL: anthropic.url } });
    expect(run.outputs).toMatchObject({ status: 'success', 'exit-code': '0', summary: 'Hello.' });
    expect(run.code).toBe(0);
    expect(anthropic.requests.map((r) => r.headers.authorization ?? r.headers['x-api-key'])).toEqual([expect.stringContaining(KEY)]);
  });
});

describe('a run without a key', () => {
  // api-key: ${{ secrets.X }} is empty where GitHub gives no secrets: the hint must say why, not
  // ask the user to set an input they did set.
  const authError = (stdout: string) => commandLines(stdout).filter((l) => l.startsWith('::error'));

  it('on a pull request from a fork: says forks get no secrets, and how to skip them', async () => {
    const dir = scratchDir();
    const event = path.join(dir, 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { repo: { full_name: 'someone/widgets' } }, base: { repo: { full_name: 'acme/widgets' } } } }));
    const run = await runActionEntry({ prompt: 'Review.', provider: 'anthropic' }, { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: 'acme/widgets' } });
    expect(run.code).toBe(41);
    expect(run.outputs).toMatchObject({ status: 'error', 'exit-code': '41' });
    const [error] = authError(run.stdout);
    expect(error).toContain('ANTHROPIC_API_KEY is not set');
    expect(error).toContain('the api-key input is empty: this pull request comes from the fork someone/widgets, and GitHub gives a pull_request run from a fork no secrets');
    expect(error).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(error).not.toContain('set the api-key input from a secret');
  });

  it("on the repository's own pull request: asks for the input, naming the provider's secret", async () => {
    const dir = scratchDir();
    const event = path.join(dir, 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 8, head: { repo: { full_name: 'acme/widgets' } } } }));
    const run = await runActionEntry({ prompt: 'Review.', provider: 'anthropic' }, { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: 'acme/widgets' } });
    expect(run.code).toBe(41);
    const [error] = authError(run.stdout);
    expect(error).toContain('ANTHROPIC_API_KEY is not set');
    expect(error).toContain('(set the api-key input from a secret, e.g. api-key: ${{ secrets.ANTHROPIC_API_KEY }})');
  });

  it('on a run Dependabot triggered: says such runs get Dependabot secrets', async () => {
    const run = await runActionEntry({ prompt: 'Review.' }, { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_ACTOR: 'dependabot[bot]', GITHUB_REPOSITORY: 'acme/widgets' } });
    expect(run.code).toBe(41);
    const [error] = authError(run.stdout);
    expect(error).toContain('GEMINI_API_KEY is not set');
    expect(error).toContain('(the api-key input is empty: Dependabot triggered this workflow run, and such runs get Dependabot secrets, not Actions secrets');
  });
});

describe('cancelling the job', () => {
  it('forwards SIGTERM to the run, which writes its report; the step exits 143 with outputs', async () => {
    const ws = scratchDir('unattended-action-ws-');
    fake = await startFakeGemini([{ hang: true }]);
    const { child, finished } = startActionEntry(
      { prompt: 'Wait for the model.', provider: 'gemini', workspace: ws, 'api-key': KEY },
      { cwd: ws, env: { GOOGLE_GEMINI_BASE_URL: fake.url } },
    );
    for (let waited = 0; fake.requests.length === 0; waited += 20) {
      if (waited > 15_000) throw new Error('the run never reached the model');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGTERM');
    const run = await finished;
    expect(run.code).toBe(143);
    expect(run.outputs).toMatchObject({ status: 'cancelled', 'exit-code': '143' });
    expect(fs.existsSync(run.outputs['report-path']!)).toBe(true);
    expect(commandLines(run.stdout).filter((l) => l.startsWith('::error'))).toHaveLength(1);
  });
});

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
}
