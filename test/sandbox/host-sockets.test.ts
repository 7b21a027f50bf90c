// The host's unix sockets under a sandbox with no network: a read-only mount does not stop
// connect(), so a system service's socket under /run (the D-Bus system bus, systemd's, a
// database's) was reachable from "no network". Real sockets, real bubblewrap, the real CLI.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { DEFAULT_SANDBOX } from '../../src/recipe/types.js';
import { hostSockets } from '../../src/sandbox/host-sockets.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeOutsideDirs);

/** An HTTP server on a unix socket at `file`; closed and removed after the test. */
async function socketServer(file: string): Promise<{ hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('answered by a host daemon\n');
  });
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return {
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A directory under /run this user may create a socket in (/run/lock is world-writable on Debian and Ubuntu), or null. */
function writableRunDir(): string | null {
  for (const dir of ['/run/lock', '/run']) {
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      return fs.realpathSync(dir);
    } catch {
      // try the next
    }
  }
  return null;
}

describe('hostSockets', () => {
  it('finds sockets in nested directories, without following links', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'a/b'), { recursive: true });
    const elsewhere = tempDir();
    const servers = [await socketServer(path.join(root, 'a/b/daemon.sock')), await socketServer(path.join(elsewhere, 'other.sock'))];
    fs.symlinkSync(elsewhere, path.join(root, 'link'));
    fs.writeFileSync(path.join(root, 'a/plain'), '');
    try {
      expect(hostSockets([root])).toEqual([path.join(root, 'a/b/daemon.sock')]);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

const runDir = writableRunDir();
if (bwrapWorks && !runDir) console.warn('SKIPPED: no directory under /run is writable here, so no host socket can be planted there');

describe.skipIf(!bwrapWorks || !runDir)('a host socket under /run', () => {
  it('is not reachable from the sandbox, unless sandbox.writable opens its directory', async () => {
    const dir = fs.mkdtempSync(path.join(runDir!, 'unattended-sock-'));
    const socket = path.join(dir, 'daemon.sock');
    const server = await socketServer(socket);
    try {
      const command = `curl -sS -m 3 --unix-socket ${socket} http://daemon/; echo "curl exit $?"`;
      const run = await runCommands({ commands: [command] });
      expect(run.outputs[0]).not.toContain('answered by a host daemon');
      expect(run.outputs[0]).toMatch(/curl exit [1-9]/);
      expect(server.hits()).toBe(0);
      // The recipe's own choice: a directory it makes writable keeps its sockets.
      const opened = await runCommands({ commands: [command], sandbox: { writable: [dir] } });
      expect(opened.outputs[0]).toContain('answered by a host daemon');
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // A container's shim socket under /run comes and goes: bwrap cannot mount onto a path that is gone.
  it('one that goes away during the run does not fail the commands that follow', async () => {
    const dir = fs.mkdtempSync(path.join(runDir!, 'unattended-sock-'));
    const server = await socketServer(path.join(dir, 'shim.sock'));
    const sandbox = await Sandbox.open(DEFAULT_SANDBOX, { workspace: tempDir(), outDir: null, env: { HOME: outsideDir() } });
    try {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
      const spec = sandbox.command(['sh', '-c', 'echo still runs'], { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
      const result = spawnSync(spec.file, spec.args, { env: spec.env, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('still runs\n');
    } finally {
      await sandbox.close();
    }
  });

  it('a socket elsewhere on the host stays reachable (what the README says holds)', async () => {
    const socket = path.join(outsideDir(), 'daemon.sock');
    const server = await socketServer(socket);
    try {
      const run = await runCommands({ commands: [`curl -sS -m 3 --unix-socket ${socket} http://daemon/`] });
      expect(run.outputs[0]).toContain('answered by a host daemon');
    } finally {
      await server.close();
    }
  });
});
