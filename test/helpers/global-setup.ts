// Once per `vitest run`, before any worker starts:
// - The tests' temporary files go to a directory of this run's own, in memory where the system has
//   a tmpfs (/dev/shm): the suite makes tens of thousands of files (workspaces, git repositories,
//   run outputs), and on the 2-core machine's disk each costs a few hundred microseconds of kernel
//   time to create and remove. Workers and the processes they start find it through TMPDIR.
// - The runs the tests make keep their caches (the price table's answers, providers/price-cache.ts)
//   and state (the runs `--continue` knows) there too, not in the developer's ~/.cache and
//   ~/.local/state. Each run of the suite starts cold, as CI does.
// Both are removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(inMemory() ?? os.tmpdir(), 'unattended-suite-'));
  const tmp = path.join(root, 'tmp');
  const cache = path.join(root, 'cache');
  const state = path.join(root, 'state');
  // Private whatever the umask (002 on many desktops): the code cache trusts no directory others may write.
  fs.mkdirSync(tmp, { mode: 0o700 });
  fs.mkdirSync(cache, { mode: 0o700 });
  fs.mkdirSync(state, { mode: 0o700 });
  process.env.TMPDIR = tmp;
  process.env.XDG_CACHE_HOME = cache;
  // Which run a bare `--continue` goes on from (runner/run-register.ts).
  process.env.XDG_STATE_HOME = state;
  return () => fs.rmSync(root, { recursive: true, force: true });
}

function inMemory(): string | null {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return fs.statSync('/dev/shm').isDirectory() ? '/dev/shm' : null;
  } catch {
    return null;
  }
}
