// A shell standing in a directory that was removed (a temporary checkout cleaned up, a branch
// switch that dropped it): the command says so in one line, exit 42, never Node's stack trace of
// uv_cwd. The built CLI, started from such a directory by a real shell.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

async function fromRemovedDirectory(args: string[]) {
  const gone = `${tempDir()}/gone`;
  const r = await execa('bash', ['-c', 'mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec "$@"', 'bash', gone, process.execPath, CLI, ...args], {
    env: baseEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  return { code: r.exitCode, stderr: String(r.stderr) };
}

describe('a current directory that no longer exists', () => {
  for (const args of [['-p', 'fix the typo', '--provider', 'scripted', '--script', '/nonexistent.yaml'], ['validate', '/nonexistent.yaml'], ['run', '--help']]) {
    it(`unattended ${args[0]} …: one clear line, exit 42, no stack trace`, async () => {
      const r = await fromRemovedDirectory(args);
      expect(r.stderr).toContain('unattended: the current directory no longer exists');
      expect(r.stderr).not.toMatch(/\n\s+at |uv_cwd/);
      expect(r.code).toBe(42);
    });
  }
});
