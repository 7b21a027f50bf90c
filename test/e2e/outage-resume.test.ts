// A provider outage mid-run, then `run --continue`: the built CLI against a fake OpenAI endpoint
// that answers 503 after the model did its edits. The run that continues changes nothing new; the
// chain's work is still the work: counted by require_changes, listed in files_changed and handed
// off, and only as far as the files are as the earlier run left them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../helpers/fake-openai.js';
import { cleanupRepos, gitIn, makeRepo } from '../git/repos.js';

afterAll(() => {
  removeTempDirs();
  cleanupRepos();
});

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The workspace (a repository with a.txt and d.txt), the recipe, and the first run stopped by a 503 after its edits. */
async function outageAfterEdits(recipeExtra: string) {
  const root = tempDir('unattended-outage-');
  const ws = await makeRepo(path.join(root, 'ws'), { 'a.txt': 'alpha\n', 'd.txt': 'one\ntwo\n' });
  const steps: FakeStep[] = [
    { toolCalls: [{ name: 'write_file', arguments: { file_path: `${ws}/b.txt`, content: 'new\n' } }] },
    { toolCalls: [{ name: 'shell', arguments: { command: 'sed -i s/alpha/ALPHA/ a.txt && rm d.txt', description: 'edit' } }] },
    { status: 503, message: 'the service is down' },
    { text: 'Everything asked for is done.' },
  ];
  fake = await startFakeOpenAI(steps);
  const recipe = path.join(root, 'r.yaml');
  fs.writeFileSync(
    recipe,
    `version: 1\nname: outage\nprompt: do it\nprovider: openai\nmodel: gpt-4o\ntools: [write_file, shell]\nconfirmation: { mode: auto-approve }\nsandbox: { mode: off }\n${recipeExtra}`,
  );
  const env = { OPENAI_API_KEY: 'sk-fake-outage-test', OPENAI_BASE_URL: fake.url, HOME: root, GIT_CONFIG_NOSYSTEM: '1' };
  const first = await cli(['run', recipe, '--workspace', ws, '--out', path.join(root, 'run-1'), '--model-retries', '1'], { env, cwd: root });
  expect(first.code, first.stderr).toBe(1);
  expect(readRun(path.join(root, 'run-1')).report).toMatchObject({ status: 'failed', error_kind: 'server' });
  const resume = () => cli(['run', '--continue', path.join(root, 'run-1'), '-p', 'go on', '--out', path.join(root, 'run-2')], { env, cwd: root });
  return { root, ws, resume };
}

describe('run --continue after a provider outage', () => {
  it("counts the earlier run's changes: require_changes passes, files_changed lists them from the start, the hand-off commits them", async () => {
    const { root, ws, resume } = await outageAfterEdits('checks: { require_changes: true }\ngit: { branch: unattended/outage, commit_message: outage }\n');
    const second = await resume();
    expect(second.code, second.stderr).toBe(0);
    const { report } = readRun(path.join(root, 'run-2'));
    expect(report.status).toBe('success');
    expect(report.checks).toMatchObject([{ kind: 'require_changes', passed: true, output_tail: '3 files changed: a.txt, b.txt, d.txt' }]);
    expect(report.files_changed.map((f: { path: string; status: string }) => `${f.path} ${f.status}`)).toEqual(['a.txt modified', 'b.txt added', 'd.txt deleted']);
    expect(report.files_changed[0].diff).toContain('-alpha\n+ALPHA\n');
    expect(report.git).toMatchObject({ files: ['a.txt', 'b.txt', 'd.txt'], left_out: [] });
    expect(await gitIn(ws, 'show', '--name-status', '--format=', 'unattended/outage')).toBe('M\ta.txt\nA\tb.txt\nD\td.txt');
    expect(await gitIn(ws, 'show', 'unattended/outage:a.txt')).toBe('ALPHA');
  });

  it('leaves out, with a warning, a file changed since the earlier run: its change cannot be told from the person\u2019s', async () => {
    const { root, ws, resume } = await outageAfterEdits('git: { branch: unattended/outage, commit_message: outage }\n');
    fs.appendFileSync(path.join(ws, 'a.txt'), 'added by hand\n');
    const second = await resume();
    expect(second.code, second.stderr).toBe(0);
    const { report } = readRun(path.join(root, 'run-2'));
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['b.txt', 'd.txt']);
    expect(report.warnings).toContainEqual(expect.stringMatching(/this run does not count as changed .*: a\.txt \(changed since the earlier run\)/));
    expect(await gitIn(ws, 'show', '--name-status', '--format=', 'unattended/outage')).toBe('A\tb.txt\nD\td.txt');
  });

  it('commits nothing when the person committed the earlier work in between: nothing of it is left to hand off', async () => {
    const { root, ws, resume } = await outageAfterEdits('git: { branch: unattended/outage, commit_message: outage }\n');
    await gitIn(ws, 'add', '-A');
    await gitIn(ws, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'by hand');
    const second = await resume();
    expect(second.code, second.stderr).toBe(0);
    const { report } = readRun(path.join(root, 'run-2'));
    expect(report.git).toMatchObject({ commit: null, skipped: 'nothing changed', left_out: [] });
    expect(report.warnings).toContainEqual(expect.stringMatching(/the git hand-off does not commit what the earlier run changed in a\.txt, b\.txt, d\.txt/));
  });
});
