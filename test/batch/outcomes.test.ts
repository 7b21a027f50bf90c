// A batch row means what its run's exit code means (issue 10 §1): failed success checks (56) and a
// denial under fail_on_denial (57) are failed rows, classified by the run's typed status, and the
// batch exits 1. Real git repositories with the scripted provider; the denial case runs the built
// CLI (a real child run exiting 57), the checks case the CLI's entry and its runs in this process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

/** greet.yaml with `extra` merged in, next to a copy of its recorded turns. */
function greetRecipe(root: string, extra: Record<string, unknown>): string {
  const base = YAML.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/batch/greet.yaml'), 'utf8')) as Record<string, unknown>;
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/batch/greet-turns.yaml'), path.join(root, 'greet-turns.yaml'));
  const file = path.join(root, 'recipe.yaml');
  fs.writeFileSync(file, YAML.stringify({ ...base, ...extra }));
  return file;
}

describe('batch rows and the run outcomes of issue 10', () => {
  it('a target whose checks fail is a failed row (check_failed, 56); one whose checks pass succeeds', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-batch-outcomes-');
    await makeRepo(path.join(root, 'repos', 'ok'), { 'README.md': 'hello from ok\n', 'ready': '' });
    await makeRepo(path.join(root, 'repos', 'broken'), { 'README.md': 'hello from broken\n' });
    fs.writeFileSync(path.join(root, 'targets.txt'), 'repos/ok\nrepos/broken\n');
    const recipe = greetRecipe(root, { checks: { commands: ['test -f ready'] } });
    const out = path.join(root, 'out');
    const r = await cliInProcess(['batch', recipe, '--targets', path.join(root, 'targets.txt'), '--out', out], { launchRun: inProcessLauncher });
    expect(r.code).toBe(1);
    const rows = readBatch(out).rows.map((row: any) => [row.target, row.status, row.exit_code, row.category, row.cause]);
    expect(rows).toEqual([
      ['repos/ok', 'success', 0, 'success', null],
      ['repos/broken', 'check_failed', 56, 'agent', 'checks failed'],
    ]);
  });

  it('fail_on_denial: a denied target is a failed row (denied, 57)', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-batch-outcomes-');
    const hostile = await makeRepo(path.join(root, 'repos', 'hostile'), { 'notes.txt': 'no readme\n' });
    // README.md leads into .git: the policy denies the recorded edit.
    fs.symlinkSync('.git/description', path.join(hostile, 'README.md'));
    fs.writeFileSync(path.join(root, 'targets.txt'), 'repos/hostile\n');
    const recipe = greetRecipe(root, { fail_on_denial: true });
    const out = path.join(root, 'out');
    const r = await cli(['batch', recipe, '--targets', path.join(root, 'targets.txt'), '--out', out]);
    expect(r.code).toBe(1);
    expect(readBatch(out).rows[0]).toMatchObject({ status: 'denied', exit_code: 57, category: 'agent', cause: 'policy denied' });
  });
});

describe('a batch deadline at the longest a duration may be', () => {
  it("runs its targets (the child's kill timer stays within what a timer can count)", { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-batch-ceiling-');
    await makeRepo(path.join(root, 'repos', 'ok'), { 'README.md': 'hello from ok\n' });
    fs.writeFileSync(path.join(root, 'targets.txt'), 'repos/ok\n');
    const recipe = greetRecipe(root, {});
    const out = path.join(root, 'out');
    const r = await cli(['batch', recipe, '--targets', path.join(root, 'targets.txt'), '--out', out, '--timeout', '2147483s']);
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
    expect(r.code).toBe(0);
    expect(readBatch(out).rows.map((row: any) => [row.target, row.status])).toEqual([['repos/ok', 'success']]);
  });

});

describe('a batch row of an endpoint that cuts answers off', () => {
  it('a target whose endpoint cut every answer off is an outage row, and --resume runs it again', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-batch-outcomes-');
    await makeRepo(path.join(root, 'repos', 'cut'), { 'README.md': 'hello\n' });
    fs.writeFileSync(path.join(root, 'targets.txt'), 'repos/cut\n');
    const recipe = path.join(root, 'recipe.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: hi\nprompt: Say hi.\nprovider: openai\nmodel: gpt-4o\ntools: []\nconfirmation: {mode: deny}\n');
    // The answer and its one retry end mid-stream (a proxy's timeout); the resumed run gets an answer.
    const fake = await startFakeOpenAI([{ cut: { text: 'Hi there, ' }, keep: 2 }, { cut: { text: 'Hi there, ' }, keep: 2 }, { text: 'Hi.' }]);
    try {
      const out = path.join(root, 'out');
      const env = { OPENAI_API_KEY: 'sk-fake-cut-off-test', OPENAI_BASE_URL: fake.url, HOME: root };
      const first = await cli(['batch', recipe, '--targets', path.join(root, 'targets.txt'), '--out', out], { env, cwd: root });
      expect(first.code, first.stderr).toBe(1);
      expect(readBatch(out).rows.map((row: any) => [row.status, row.category, row.cause])).toEqual([['failed', 'infrastructure', 'endpoint unavailable']]);
      const again = await cli(['batch', recipe, '--targets', path.join(root, 'targets.txt'), '--out', out, '--resume'], { env, cwd: root });
      expect(again.code, again.stderr).toBe(0);
      expect(readBatch(out).rows.map((row: any) => [row.status, row.category])).toEqual([['success', 'success']]);
      expect(fake.requests).toHaveLength(3);
    } finally {
      await fake.close();
    }
  });
});
