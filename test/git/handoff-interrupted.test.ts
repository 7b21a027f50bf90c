// A stop during the hand-off, at the points where git has done its work but not yet returned: the
// report must say what is true of the branch, locally and on origin. Each point is held open by a
// hook (git-daemon.ts) or a git that waits after its work, so the stop lands exactly there.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineForHandoff, gitHandoffStep } from '../../src/git/handoff-step.js';
import { handOff } from '../../src/git/handoff.js';
import { RunStop } from '../../src/loop/stop.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { gitDaemon, holdingHook, untilExists } from './git-daemon.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from './repos.js';

afterAll(cleanupRepos);

const config = (over: Partial<GitHandoff> = {}): GitHandoff => ({ branch: 'unattended/fix', commitMessage: 'Fix', push: true, author: null, pullRequest: null, ...over });

/** A repository whose origin is `url`, its baseline taken, then changed as a run would. */
async function changedRepo(root: string, url: string | null, env: Record<string, string> = isolatedGitEnv(root)) {
  const repo = await makeRepo(path.join(root, 'repo'), { 'a.txt': 'a\n' });
  if (url) await gitIn(repo, 'remote', 'add', 'origin', url);
  const outDir = path.join(root, 'out');
  const baseline = await baselineForHandoff(config({ push: url !== null }), repo, outDir, env);
  fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
  return { repo, outDir, baseline, env };
}

/** Stops `controller` once `marker` appears: the point a hook or a waiting git holds. */
function stopAt(marker: string, controller: AbortController): Promise<void> {
  return untilExists(marker).then(() => controller.abort(new RunStop('SIGTERM')));
}

describe.skipIf(process.platform !== 'linux')('a hand-off stopped', () => {
  it('after origin took the push, before the push returned: pushed, the commit and the branch kept', async () => {
    const root = tempRoot();
    const daemon = await gitDaemon(root);
    try {
      const bare = path.join(root, 'origin.git');
      await gitIn(root, 'init', '-q', '--bare', bare);
      const marker = path.join(root, 'updated');
      holdingHook(bare, 'post-receive', marker);
      const { repo, outDir, baseline, env } = await changedRepo(root, daemon.url('origin.git'));
      const controller = new AbortController();
      const [result] = await Promise.all([
        gitHandoffStep({ config: config(), outcome: { status: 'success', exitCode: 0, finalAnswer: 'done', error: null }, workspace: repo, outDir, baseline, signal: controller.signal, env }),
        stopAt(marker, controller),
      ]);
      const onOrigin = await gitIn(bare, 'rev-parse', 'refs/heads/unattended/fix');
      expect(result.outcome).toMatchObject({ status: 'cancelled', exitCode: 143, finalAnswer: 'done' });
      expect(result.report).toMatchObject({ pushed: true, commit: onOrigin, push_error: null, files: ['a.txt'] });
      expect(result.report?.error).toMatch(/interrupted as the push finished: origin has branch 'unattended\/fix'/);
      expect(await gitIn(repo, 'rev-parse', 'refs/heads/unattended/fix')).toBe(onOrigin);
    } finally {
      await daemon.close();
    }
  });

  it('before origin took the push: not pushed, nothing committed, the branch removed', async () => {
    const root = tempRoot();
    const daemon = await gitDaemon(root);
    try {
      const bare = path.join(root, 'origin.git');
      await gitIn(root, 'init', '-q', '--bare', bare);
      const marker = path.join(root, 'receiving');
      holdingHook(bare, 'pre-receive', marker);
      const { repo, outDir, baseline, env } = await changedRepo(root, daemon.url('origin.git'));
      const controller = new AbortController();
      const [report] = await Promise.all([handOff({ config: config(), workspace: repo, outDir, baseline, signal: controller.signal, env, originCheckMs: 60_000 }), stopAt(marker, controller)]);
      expect(report).toMatchObject({ pushed: false, commit: null, files: [] });
      expect(report.error).toBe("interrupted before the push reached origin; the branch 'unattended/fix' was removed");
      expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
      expect(await gitIn(bare, 'branch', '--list')).toBe('');
    } finally {
      await daemon.close();
    }
  });

  it('when origin cannot be asked in time: said so, and the commit and the branch kept', async () => {
    // An origin that takes every connection and never answers: neither the push nor the question returns.
    const controller = new AbortController();
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      sockets.push(socket);
      controller.abort(new RunStop('SIGTERM'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const { repo, outDir, baseline, env } = await changedRepo(tempRoot(), `git://127.0.0.1:${port}/repo.git`);
      const report = await handOff({ config: config(), workspace: repo, outDir, baseline, signal: controller.signal, env, originCheckMs: 300 });
      expect(report.pushed).toBe(false);
      expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(report.push_error).toMatch(/interrupted during the push, and whether origin has branch 'unattended\/fix' is unknown/);
      expect(report.error).toMatch(/the local branch is kept/);
      expect(await gitIn(repo, 'rev-parse', 'refs/heads/unattended/fix')).toBe(report.commit);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('while update-ref made the branch: the branch it wrote is removed, not left behind as if never made', async () => {
    // A git that writes the branch, says so, and then waits to be killed, as a stop can find it.
    const root = tempRoot();
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    const marker = path.join(root, 'written');
    const real = process.env.PATH!.split(':').map((dir) => path.join(dir, 'git')).find((file) => fs.existsSync(file))!;
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" update-ref -m unattended hand-off refs/"*) '${real}' "$@"; touch '${marker}'; exec sleep 600;; esac\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = { ...isolatedGitEnv(root), PATH: `${bin}:${process.env.PATH}` };
    const { repo, outDir, baseline } = await changedRepo(root, null, env);
    const controller = new AbortController();
    const [report] = await Promise.all([handOff({ config: config({ push: false }), workspace: repo, outDir, baseline, signal: controller.signal, env }), stopAt(marker, controller)]);
    expect(report).toMatchObject({ pushed: false, commit: null, files: [] });
    expect(report.error).toBe("interrupted before the hand-off finished; the branch 'unattended/fix' was removed");
    expect(await gitIn(repo, 'branch', '--list')).toBe('* main');
  });
});
