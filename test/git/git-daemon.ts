// A git:// origin on 127.0.0.1 served by `git daemon --inetd`, one per connection: unlike a push
// to a path, whose receive-pack the hand-off starts with hooks off, its receive-pack runs the bare
// repository's hooks. A hook that blocks holds a push at a chosen point (pre-receive: before the
// branch is updated; post-receive: after it, before the push returns), so a test can stop the run
// exactly there, with no timing to race.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isolatedGitEnv } from './repos.js';

export interface GitDaemon {
  /** The git:// URL of `name` under the served directory. */
  url(name: string): string;
  close(): Promise<void>;
}

export async function gitDaemon(base: string): Promise<GitDaemon> {
  const children = new Set<ChildProcess>();
  // Paused: the daemon reads the request, never this process.
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    const child = spawn('git', ['daemon', '--inetd', '--export-all', '--enable=receive-pack', `--base-path=${base}`, base], {
      stdio: [socket, socket, 'ignore'],
      detached: true,
      env: isolatedGitEnv(base),
    });
    children.add(child);
    child.on('exit', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: (name) => `git://127.0.0.1:${port}/${name}`,
    async close() {
      // The daemons and the hooks they run, held or not.
      for (const child of children) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A hook of the bare repository that says it started (touches `marker`) and then holds until killed. */
export function holdingHook(bare: string, hook: 'pre-receive' | 'post-receive', marker: string): void {
  const file = path.join(bare, 'hooks', hook);
  fs.writeFileSync(file, `#!/bin/sh\ncat >/dev/null\ntouch '${marker}'\nexec sleep 600\n`, { mode: 0o755 });
}

/** Resolves once `file` exists (a hook's marker): polled, so a slow machine only makes it later. */
export async function untilExists(file: string, limitMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!fs.existsSync(file)) {
    if (Date.now() - started > limitMs) throw new Error(`${file} did not appear within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
