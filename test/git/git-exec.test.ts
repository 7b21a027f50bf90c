// The runner's git is stopped whole: a push starts a remote helper (here git-remote-http, talking to
// a server that never answers) which a signal to git alone would leave running, holding git's
// output open. Cancelling ends the whole process group at once.
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { git } from '../../src/git/git-exec.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

function helpersOf(url: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(url);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(process.platform !== 'linux')("the runner's git", () => {
  it('a failure that git gives no reason for is said without the command line', async () => {
    const repo = tempDir('unattended-quiet-');
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    const result = await git(['rev-parse', '--verify', '--quiet', 'refs/heads/none'], { cwd: repo });
    expect(result).toMatchObject({ ok: false, exitCode: 1, stderr: 'git rev-parse exited with code 1' });
  });

  it('a push to a server that never answers is stopped whole when the run is cancelled', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const server: Server = createServer(() => {
      // never answers
    });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/never.git`;
    try {
      const repo = tempDir('unattended-push-');
      await execa('git', ['init', '-q', '-b', 'main'], { cwd: repo });
      fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
      await execa('git', ['add', '-A'], { cwd: repo });
      await execa('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'a'], { cwd: repo });
      const controller = new AbortController();
      const started = Date.now();
      const pushing = git(['push', url, 'main'], { cwd: repo, signal: controller.signal, timeoutMs: 60_000 });
      // The helper is up once the server sees its connection.
      while (sockets.size === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
      expect(helpersOf(url).length).toBeGreaterThan(0);
      controller.abort();
      const result = await pushing;
      expect(result.ok).toBe(false);
      // Said in a few words: not execa's message, which quotes every -c setting of the command line.
      expect(result.stderr).toBe('git push was stopped: the run is stopping');
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(helpersOf(url)).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
