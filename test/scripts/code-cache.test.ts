// The launcher compiles the command's code (dist/cli/main.cjs) against a V8 code cache it keeps in
// $XDG_CACHE_HOME/unattended/code (scripts/bin/code-cache.cjs). What a user can see: the first run
// of a build leaves one private file; later runs use it as it is; a cache that is not the user's
// own, that others may write, that lies in the working directory, or that is garbage is never
// used, and the command works the same either way.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/** `unattended tools` with its own cache directory; stdout must be the same whatever the cache. */
async function tools(cacheHome: string, cwd: string) {
  const r = await execa(process.execPath, [CLI, 'tools'], { cwd, env: baseEnv({ XDG_CACHE_HOME: cacheHome }), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return String(r.stdout);
}

function cacheFiles(cacheHome: string): string[] {
  const dir = path.join(cacheHome, 'unattended', 'code');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

describe('the code cache', () => {
  it('is written once, private, by the first run of a build, and used as it is by the next', async () => {
    const home = tempDir();
    const cwd = tempDir();
    const first = await tools(home, cwd);
    const [file, ...more] = cacheFiles(home);
    expect(more).toEqual([]);
    expect(path.basename(file!)).toMatch(/^main-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}\.bin$/);
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file!)).mode & 0o777).toBe(0o700);
    const written = fs.statSync(file!);
    expect(await tools(home, cwd)).toBe(first);
    // Not written again: the same file (a rewrite renames a new one over it).
    expect(fs.statSync(file!)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });

  it("is replaced, never used, when it is garbage, writable by others, a link, or another user's", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const expected = await tools(home, cwd);
    const [file] = cacheFiles(home);
    const good = fs.readFileSync(file!);
    const spoil: Array<[string, () => void]> = [
      ['garbage', () => fs.writeFileSync(file!, Buffer.alloc(good.length, 0x41), { mode: 0o600 })],
      ['group-writable', () => (fs.writeFileSync(file!, good), fs.chmodSync(file!, 0o620))],
      ['world-writable', () => (fs.writeFileSync(file!, good), fs.chmodSync(file!, 0o602))],
      [
        'a symbolic link',
        () => {
          const elsewhere = path.join(cwd, 'elsewhere.bin');
          fs.writeFileSync(elsewhere, good, { mode: 0o600 });
          fs.symlinkSync(elsewhere, file!);
        },
      ],
    ];
    // Another user's file (only root can make one here).
    if (process.getuid?.() === 0) spoil.push(["another user's", () => (fs.writeFileSync(file!, good, { mode: 0o600 }), fs.chownSync(file!, 65534, 65534))]);
    for (const [what, make] of spoil) {
      fs.rmSync(file!, { force: true });
      make();
      const before = fs.lstatSync(file!).ino;
      expect(await tools(home, cwd), what).toBe(expected);
      // Treated as missing: a new private file took its place.
      const after = fs.lstatSync(file!);
      expect([what, after.ino !== before, after.isFile(), after.mode & 0o777]).toEqual([what, true, true, 0o600]);
    }
  });

  it('is neither read nor written inside the working directory', async () => {
    const cwd = tempDir();
    const home = path.join(cwd, 'cache');
    await tools(home, cwd);
    expect(cacheFiles(home)).toEqual([]);
  });

  it("drops other builds' files when it writes its own", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const dir = path.join(home, 'unattended', 'code');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stale = path.join(dir, `main-0123456789abcdef-${process.version}-${process.arch}-00000000.bin`);
    fs.writeFileSync(stale, 'old build', { mode: 0o600 });
    await tools(home, cwd);
    expect(fs.existsSync(stale)).toBe(false);
    expect(cacheFiles(home)).toHaveLength(1);
  });
});
