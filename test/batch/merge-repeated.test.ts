// `batch merge` of a shard named twice (`shard-1 shard-*`, a path with and without its slash, or
// relative and absolute): one report, not two.
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';
import { shards } from './shards.js';

afterAll(cleanupRepos);

it('a shard directory named twice is merged once, and said (the built CLI)', { timeout: 90_000 }, async () => {
  const { fleet, dirs } = await shards(['alpha', 'beta', 'delta'], 2);
  const merged = path.join(fleet.root, 'merged');
  const r = await cli(['batch', 'merge', dirs[0]!, dirs[1]!, `${dirs[0]!}/`, path.relative(fleet.root, dirs[1]!), '--out', merged], { cwd: fleet.root });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`unattended batch merge: ${dirs[0]!}/, shard-2 named more than once; each report is merged once`);
  expect(r.stderr).toMatch(/unattended batch merge: 2 reports, 3\/3 succeeded/);
  expect(readBatch(merged).merged_from).toEqual(dirs);
});
