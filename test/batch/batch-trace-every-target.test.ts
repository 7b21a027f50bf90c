// A batch's trace has a `target <spec>` span for every target it dealt with, not only those whose
// run it started: a target it never started (its budget spent, its deadline passed) and a hand-off a
// --resume tried again had none, so the trace showed fewer targets than the report, and a failing
// push retried by --resume nowhere. An in-process OTLP/HTTP collector decoding protobuf.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { childProcessLauncher } from '../../src/batch/launch-run.js';
import type { BatchProgress } from '../../src/batch/progress.js';
import { runBatch } from '../../src/batch/run-batch.js';
import { parseTargets } from '../../src/batch/targets.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli, ROOT } from '../helpers/cli.js';
import { fakeGitHubEnv, startFakeGitHub } from '../helpers/fake-github.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

const silent: BatchProgress = { start() {}, event() {}, finish() {}, note() {}, close() {}, clear() {} };

it('a target the batch never started (its token budget spent) has its span, saying why', { timeout: 60_000 }, async () => {
  const receiver = await startOtlpReceiver();
  try {
    const root = tempRoot('unattended-batch-trace-');
    for (const name of ['t0', 't1', 't2']) {
      fs.mkdirSync(path.join(root, name));
      fs.writeFileSync(path.join(root, name, 'behaviour.json'), JSON.stringify({ tokens: 600 }));
    }
    const { targets } = parseTargets('t0\nt1\nt2\n', root);
    const report = await runBatch({
      recipe: path.join(root, 'recipe.yaml'),
      recipeName: 'fake',
      inputs: { recipe_file: path.join(root, 'recipe.yaml'), recipe_sha256: 'test', params: [] },
      targetsFile: path.join(root, 'targets.txt'),
      targets,
      shard: null,
      concurrency: 1,
      outDir: path.join(root, 'out'),
      params: [],
      resume: false,
      timeoutMs: null,
      maxTokens: 1000,
      recipeLimits: { timeoutMs: null, maxTokens: null },
      launch: childProcessLauncher(path.join(ROOT, 'test/fixtures/batch/fake-run.mjs')),
      env: { PATH: process.env.PATH, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      signal: new AbortController().signal,
      progress: () => silent,
    });
    expect(report.rows.map((r) => r.category)).toEqual(['success', 'success', 'not_run']);
    const batch = receiver.spans.find((s) => s.name === 'batch fake')!;
    const spans = receiver.spans.filter((s) => s.name.startsWith('target '));
    expect(spans.map((s) => [s.attributes['unattended.target'], s.attributes['unattended.category'], s.parentSpanId === batch.spanId])).toEqual([
      ['t0', 'success', true],
      ['t1', 'success', true],
      ['t2', 'not_run', true],
    ]);
    expect(spans[2]!.attributes['unattended.cause']).toBe('batch token budget spent');
    expect(batch.attributes['unattended.targets']).toBe(3);
  } finally {
    await receiver.close();
  }
});

it.each([
  ['fails the batch: the batch span is an error, as a run span is for an exit code not 0', false, 2, '1 of 2 targets did not succeed'],
  ['with --allow-failures does not: the batch span is OK', true, 0, undefined],
])('a target that failed %s', { timeout: 60_000 }, async (_case, allowFailures, code, message) => {
  const receiver = await startOtlpReceiver();
  try {
    const root = tempRoot('unattended-batch-trace-status-');
    const behaviours = [{}, { status: 'failed', exit_code: 1, error: 'the model gave up' }];
    behaviours.forEach((b, i) => {
      fs.mkdirSync(path.join(root, `t${i}`));
      fs.writeFileSync(path.join(root, `t${i}`, 'behaviour.json'), JSON.stringify(b));
    });
    const { targets } = parseTargets('t0\nt1\n', root);
    const report = await runBatch({
      recipe: path.join(root, 'recipe.yaml'),
      recipeName: 'fake',
      inputs: { recipe_file: path.join(root, 'recipe.yaml'), recipe_sha256: 'test', params: [] },
      targetsFile: path.join(root, 'targets.txt'),
      targets,
      shard: null,
      concurrency: 1,
      outDir: path.join(root, 'out'),
      params: [],
      resume: false,
      allowFailures,
      timeoutMs: null,
      maxTokens: null,
      recipeLimits: { timeoutMs: null, maxTokens: null },
      launch: childProcessLauncher(path.join(ROOT, 'test/fixtures/batch/fake-run.mjs')),
      env: { PATH: process.env.PATH, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      signal: new AbortController().signal,
      progress: () => silent,
    });
    expect(report.rows.map((r) => r.category)).toEqual(['success', 'agent']);
    const batch = receiver.spans.find((s) => s.name === 'batch fake')!;
    expect([batch.status.code, batch.status.message || undefined]).toEqual([code, message]);
  } finally {
    await receiver.close();
  }
});

it('a hand-off a --resume tries again has its span, its status the retry\'s outcome', { timeout: 120_000 }, async () => {
  const TOKEN = 'ghp_trace_retry_token_00000000000000';
  const BRANCH = 'unattended/friendlier';
  const github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }] });
  const receiver = await startOtlpReceiver();
  try {
    const root = tempRoot('unattended-batch-trace-retry-');
    const remotes = path.join(root, 'remotes');
    const seed = await makeRepo(path.join(root, 'seeds', 'widgets'), { 'README.md': 'hello from widgets\n' });
    await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', 'widgets.git'));
    const env = fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN);
    const edit = { name: 'edit', args: { file_path: '{{workspace}}/README.md', old_string: 'hello', new_string: 'hello, friend' } };
    fs.writeFileSync(path.join(root, 'turns.json'), JSON.stringify({ turns: [{ calls: [edit] }, { text: 'Made it friendlier.' }] }));
    fs.writeFileSync(
      path.join(root, 'recipe.yaml'),
      [
        'version: 1',
        'name: friendlier',
        'prompt: Make the greeting friendlier.',
        'provider: scripted',
        'script: turns.json',
        'tools: [read_file, edit]',
        'confirmation: { mode: allowlist, allow: [{ edit: README.md }] }',
        `git: { branch: ${BRANCH}, commit_message: Friendlier, pull_request: { title: Friendlier, body: "{{ run.summary }}" } }`,
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(root, 'targets.txt'), 'https://github.example/acme/widgets.git\n');
    github.failures.set('POST /repos/acme/widgets/pulls', { status: 403, message: 'Resource not accessible by integration' });
    const batch = (...flags: string[]) => cli(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out', ...flags], { cwd: root, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, timeoutMs: 90_000 });
    const first = await batch();
    expect(first.code, first.stderr).toBe(1);
    expect(readBatch(path.join(root, 'out')).rows[0].category).toBe('handoff');

    // Still refused: the retry fails, and its span says so.
    receiver.spans.length = 0;
    const refused = await batch('--resume');
    expect(refused.code, refused.stderr).toBe(1);
    let targets = receiver.spans.filter((s) => s.name.startsWith('target '));
    expect(targets).toHaveLength(1);
    expect(targets[0]!.attributes['unattended.handoff_retried']).toBe(true);
    expect(targets[0]!.status.code).toBe(2);
    expect(targets[0]!.status.message).toBe('git hand-off failed');

    github.failures.clear();
    receiver.spans.length = 0;
    const resumed = await batch('--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    const row = readBatch(path.join(root, 'out')).rows[0];
    expect([row.category, row.handoff_retried]).toEqual(['success', true]);
    const batchSpan = receiver.spans.find((s) => s.name === 'batch friendlier')!;
    targets = receiver.spans.filter((s) => s.name.startsWith('target '));
    expect(targets.map((t) => [t.name, t.parentSpanId === batchSpan.spanId, t.attributes['unattended.category'], t.attributes['unattended.handoff_retried'], t.status.code])).toEqual([
      ['target https://github.example/acme/widgets.git', true, 'success', true, 0],
    ]);
    // No run: the model is not asked again.
    expect(receiver.spans.filter((s) => s.name.startsWith('invoke_agent'))).toEqual([]);
  } finally {
    await receiver.close();
    await github.close();
  }
});
