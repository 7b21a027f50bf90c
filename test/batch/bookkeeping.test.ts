// Batch bookkeeping through the built CLI: --resume reruns what an outage cut short (whatever its
// error says) and keeps what is final; --resume refuses another recipe or other parameters;
// `batch merge` of part of a sharded fleet says which shards are missing and fails.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { makeFleet, readBatch, RECIPE } from './fleet.js';

afterAll(cleanupRepos);

const OUTAGE_RECIPE = `version: 1
name: outage
prompt: Say hello.
provider: gemini
model: gemini-test
tools: [read_file]
confirmation: { mode: deny }
limits: { model_retries: 2 }
`;

describe('batch --resume', () => {
  it('runs a target again after an endpoint outage, and keeps the one that finished', { timeout: 60_000 }, async () => {
    const root = tempRoot('unattended-outage-');
    await makeRepo(path.join(root, 'down'), { 'a.txt': 'a\n' });
    fs.writeFileSync(path.join(root, 'recipe.yaml'), OUTAGE_RECIPE);
    fs.writeFileSync(path.join(root, 'targets.txt'), 'down\n');
    const out = path.join(root, 'out');
    const run = (url: string, extra: string[] = []) =>
      cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out, ...extra], {
        env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url },
        timeoutMs: 50_000,
      });

    const down = await startFakeGemini([{ status: 503 }, { status: 503 }]);
    try {
      const first = await run(down.url);
      expect(first.code).toBe(1);
    } finally {
      await down.close();
    }
    const failed = readBatch(out).rows[0];
    expect(failed).toMatchObject({ status: 'failed', category: 'infrastructure', cause: 'endpoint unavailable' });

    const up = await startFakeGemini([{ text: 'hello' }]);
    try {
      const again = await run(up.url, ['--resume']);
      expect(again.code).toBe(0);
      expect(up.requests).toHaveLength(1);
    } finally {
      await up.close();
    }
    const rerun = readBatch(out).rows[0];
    expect(rerun).toMatchObject({ status: 'success', category: 'success' });
    expect(rerun.run_id).not.toBe(failed.run_id);
  });

  it('refuses to resume with other parameters or a changed recipe (exit 42), unless --force', { timeout: 60_000 }, async () => {
    const fleet = await makeFleet();
    fs.writeFileSync(fleet.targetsFile, 'repos/alpha\n');
    const recipe = path.join(fleet.root, 'greet.yaml');
    const greet = fs
      .readFileSync(RECIPE, 'utf8')
      .replace('script: greet-turns.yaml', `script: ${path.join(path.dirname(RECIPE), 'greet-turns.yaml')}`)
      .replace('prompt: Make the greeting in README.md friendlier.', 'parameters:\n  tone: { type: string, required: true }\nprompt: Make the greeting in README.md {{ tone }}.');
    fs.writeFileSync(recipe, greet);
    const out = path.join(fleet.root, 'out');
    const batch = (args: string[]) => cli(['batch', recipe, '--targets', fleet.targetsFile, '--out', out, ...args], { timeoutMs: 50_000 });
    expect((await batch(['--param', 'tone=warmer'])).code).toBe(0);

    const otherParams = await batch(['--resume', '--param', 'tone=colder']);
    expect(otherParams.code).toBe(42);
    expect(otherParams.stderr).toMatch(/cannot resume the batch in .*: the parameters were tone=warmer, now tone=colder.*--force/);

    fs.appendFileSync(recipe, '# edited\n');
    const changed = await batch(['--resume', '--param', 'tone=warmer']);
    expect(changed.code).toBe(42);
    expect(changed.stderr).toMatch(/the recipe .*greet\.yaml changed since/);

    const forced = await batch(['--resume', '--force', '--param', 'tone=warmer']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('resuming: 1 of 1 targets already final');
  });
});

describe('batch merge', () => {
  it('names the missing shards and fails, unless --allow-partial', { timeout: 90_000 }, async () => {
    const fleet = await makeFleet();
    fs.writeFileSync(fleet.targetsFile, 'repos/alpha\nrepos/beta\nrepos/delta\n');
    const dirs = [1, 2, 3].map((i) => path.join(fleet.root, `shard-${i}`));
    for (const [i, dir] of dirs.entries()) {
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', dir, '--shard', `${i + 1}/3`], { timeoutMs: 50_000 });
      expect(r.code).toBe(0);
    }
    const merged = path.join(fleet.root, 'merged');
    const partial = await cli(['batch', 'merge', dirs[0]!, dirs[2]!, '--out', merged]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/partial: shard 2\/3 missing/);
    expect(readBatch(merged)).toMatchObject({ finished: false, missing_shards: ['2/3'] });

    expect((await cli(['batch', 'merge', dirs[0]!, dirs[2]!, '--out', merged, '--allow-partial'])).code).toBe(0);
    const whole = await cli(['batch', 'merge', ...dirs, '--out', merged]);
    expect(whole.code).toBe(0);
    expect(readBatch(merged)).toMatchObject({ finished: true, missing_shards: [] });
  });
});
