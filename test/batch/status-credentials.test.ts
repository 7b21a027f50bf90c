// `batch status DIR` of a batch over a private repository's clone URL with its token in it
// (`https://x-access-token:…@host/acme/private.git`, as a CI job writes one): the table, its error
// lines and --json are printed to a CI log, and printed the token, which the batch's own progress,
// --dry-run and batch-report.md show [REDACTED]. The built CLI; the clone fails (nothing on port 9).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { makePlainFleet, RECIPE } from './fleet.js';

afterAll(cleanupRepos);

const SECRET = 'CANARY-TOKEN-5e6f7a8b9c0d';

it('batch status does not print a clone URL\'s credentials, in the table or with --json', { timeout: 60_000 }, async () => {
  const fleet = await makePlainFleet(['alpha']);
  fs.writeFileSync(fleet.targetsFile, `${fs.readFileSync(fleet.targetsFile, 'utf8')}https://x-access-token:${SECRET}@127.0.0.1:9/acme/private.git\n`);
  const out = path.join(fleet.root, 'out');
  const batch = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], { timeoutMs: 50_000 });
  expect(batch.code, batch.stderr).toBe(1);
  expect(batch.stderr).not.toContain(SECRET);

  const table = await cli(['batch', 'status', out]);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toMatch(/^https:\/\/.*127\.0\.0\.1:9\/acme\/private\.git +none \(run error\)/m);
  expect(table.stdout + table.stderr).not.toContain(SECRET);
  const json = await cli(['batch', 'status', out, '--json']);
  expect(json.code, json.stderr).toBe(0);
  const statuses = JSON.parse(json.stdout) as Array<{ target: string }>;
  expect(statuses).toHaveLength(2);
  expect(json.stdout).not.toContain(SECRET);
});
