// Once per `vitest run`, before any worker starts: the runs the tests make keep their caches (the
// price table's answers, providers/price-cache.ts) in a directory of this run's own, not in the
// developer's ~/.cache, and it is removed at the end. Each run of the suite starts cold, as CI does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-test-cache-'));
  process.env.XDG_CACHE_HOME = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
