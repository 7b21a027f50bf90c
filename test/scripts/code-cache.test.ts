// The launcher compiles the command's code (dist/cli/main.cjs) against a V8 code cache it keeps
// beside the code (dist/cli/cache/) when the installation is the user's, else in
// $XDG_CACHE_HOME/unattended/code (scripts/bin/code-cache.cjs). A code cache is code: V8 checks it
// only against its own version, flags and the source's length. So the tests plant a cache compiled
// from another source of the same length, which prints PLANTED: where the cache is trusted, the
// command prints it (the planted cache does run); everywhere else it must never appear, and the
// command works as usual.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unattendedCacheDir } from '../../src/util/cache-dir.js';
import { baseEnv, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

/** A copy of the built package; `othersMayWrite`: dist/cli is group-writable, so no cache may live beside the code. */
function installation(othersMayWrite: boolean) {
  const root = tempDir();
  fs.cpSync(path.join(ROOT, 'dist'), path.join(root, 'dist'), { recursive: true, filter: (from) => from !== path.join(ROOT, 'dist/cli/cache') });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  // The copy keeps the build's modes, which follow the umask: set them, either way.
  fs.chmodSync(path.join(root, 'dist'), 0o755);
  fs.chmodSync(path.join(root, 'dist/cli'), othersMayWrite ? 0o775 : 0o755);
  return { root, cli: path.join(root, 'dist/cli/main.js'), main: path.join(root, 'dist/cli/main.cjs'), cacheDir: path.join(root, 'dist/cli/cache') };
}

// The tests of the cache under the cache home run an installation whose own place is refused.
const SHARED = installation(true);
const MAIN = SHARED.main;

/** `unattended tools` with `cacheHome` as XDG_CACHE_HOME, from `cwd`. */
async function tools(cacheHome: string, cwd: string, cli = SHARED.cli) {
  const r = await execa(process.execPath, [cli, 'tools'], { cwd, env: baseEnv({ XDG_CACHE_HOME: cacheHome }), extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
  return { code: r.exitCode, stdout: String(r.stdout), timedOut: r.timedOut };
}

function cacheFiles(cacheHome: string): string[] {
  const dir = path.join(cacheHome, 'unattended', 'code');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

/** A code cache for main.cjs's path and length whose code prints PLANTED, made by a node without flags, as the CLI's runs are. */
let planted: Buffer;
beforeAll(() => {
  const make = `
    const fs = require('node:fs'), Module = require('node:module'), vm = require('node:vm');
    const file = ${JSON.stringify(MAIN)};
    const length = fs.readFileSync(file, 'utf8').length;
    const code = 'process.stdout.write("PLANTED\\\\n"); exports.main = async () => 0;';
    const script = new vm.Script(Module.wrap(code.padEnd(length, ' ')), { filename: file, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    process.stdout.write(script.createCachedData().toString('base64'));`;
  planted = Buffer.from(execFileSync(process.execPath, ['-e', make], { env: baseEnv(), encoding: 'utf8' }), 'base64');
});

/** The cache file the launcher writes for `tools` under `cacheHome` (one run from a neutral directory). */
async function cacheFileFor(cacheHome: string): Promise<string> {
  expect((await tools(cacheHome, tempDir())).code).toBe(0);
  const [file, ...more] = cacheFiles(cacheHome);
  expect(more).toEqual([]);
  return file!;
}

describe('the code cache beside the code', () => {
  it("is written there when the installation is the user's, and found by a run with a fresh home", async () => {
    const own = installation(false);
    const [homeA, homeB] = [tempDir(), tempDir()];
    const first = await tools(homeA, tempDir(), own.cli);
    expect(first.code).toBe(0);
    const [name, ...more] = fs.readdirSync(own.cacheDir);
    expect(more).toEqual([]);
    expect(name).toMatch(/^main-[0-9a-f]{16}-tools-v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}\.bin$/);
    const file = path.join(own.cacheDir, name!);
    expect([fs.statSync(file).mode & 0o777, fs.statSync(own.cacheDir).mode & 0o777]).toEqual([0o600, 0o700]);
    const written = fs.statSync(file);
    expect((await tools(homeB, tempDir(), own.cli)).stdout).toBe(first.stdout);
    // Neither home got a file: the second run used the one beside the code, as it was.
    expect([cacheFiles(homeA), cacheFiles(homeB)]).toEqual([[], []]);
    expect(fs.statSync(file)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });

  it('runs a cache planted there, and none when others may write the installation or it lies under the working directory', async () => {
    const own = installation(false);
    expect((await tools(tempDir(), tempDir(), own.cli)).code).toBe(0);
    const file = path.join(own.cacheDir, fs.readdirSync(own.cacheDir)[0]!);
    fs.writeFileSync(file, planted, { mode: 0o600 });
    expect((await tools(tempDir(), tempDir(), own.cli)).stdout).toBe('PLANTED');
    const expected = (await tools(tempDir(), tempDir())).stdout;
    // Under the working directory (a run inside a checkout of the package): the cache home instead.
    const home = tempDir();
    expect((await tools(home, own.root, own.cli)).stdout).toBe(expected);
    expect(cacheFiles(home)).toHaveLength(1);
    fs.chmodSync(path.join(own.root, 'dist/cli'), 0o775);
    expect((await tools(tempDir(), tempDir(), own.cli)).stdout).toBe(expected);
    // Nor is a directory for it made in an installation that could not hold it.
    expect(fs.existsSync(SHARED.cacheDir)).toBe(false);
  });

  it('gives way to a newer cache under the cache home (a stale one beside the code may be on a read-only mount)', async () => {
    const own = installation(false);
    const home = tempDir();
    expect((await tools(home, tempDir(), own.cli)).code).toBe(0);
    const beside = path.join(own.cacheDir, fs.readdirSync(own.cacheDir)[0]!);
    const inHome = path.join(home, 'unattended', 'code', path.basename(beside));
    fs.mkdirSync(path.dirname(inHome), { recursive: true, mode: 0o700 });
    fs.copyFileSync(beside, inHome);
    const garbage = Buffer.alloc(fs.statSync(beside).size, 0x41);
    fs.writeFileSync(beside, garbage, { mode: 0o600 });
    const anHourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(beside, anHourAgo, anHourAgo);
    const kept = fs.statSync(inHome).ino;
    expect((await tools(home, tempDir(), own.cli)).code).toBe(0);
    // The newer file was used as it was: nothing was rewritten in either place.
    expect(fs.statSync(inHome).ino).toBe(kept);
    expect(fs.readFileSync(beside).equals(garbage)).toBe(true);
  });

  it('reads the shipped code as ASCII, and a main.cjs with other characters as UTF-8, with and without its cache', async () => {
    // The build keeps main.cjs ASCII, which the launcher reads as Latin-1 (the same text, faster).
    expect(/[^\x00-\x7f]/.test(fs.readFileSync(path.join(ROOT, 'dist/cli/main.cjs'), 'latin1'))).toBe(false);
    // One edited by hand still runs as written: Latin-1 would have turned these into mojibake.
    const own = installation(false);
    fs.appendFileSync(own.main, '\nprocess.stdout.write("naïve → ✓ 流式 🙂\\n");\n');
    const home = tempDir();
    const first = await tools(home, tempDir(), own.cli);
    expect(fs.readdirSync(own.cacheDir)).toHaveLength(1);
    const second = await tools(home, tempDir(), own.cli);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stdout.split('\n')[0]).toBe('naïve → ✓ 流式 🙂');
    expect(second.stdout).toBe(first.stdout);
  });
});

describe('the code cache under the cache home', () => {
  it('is written once, private, by the first run of a command, and used as it is by the next', async () => {
    const home = tempDir();
    const cwd = tempDir();
    const first = await tools(home, cwd);
    expect(first.code).toBe(0);
    const [file, ...more] = cacheFiles(home);
    expect(more).toEqual([]);
    expect(path.basename(file!)).toMatch(/^main-[0-9a-f]{16}-tools-v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}\.bin$/);
    // The launcher finds the directory by the same rule as the runner, which protects it from tools.
    expect(path.dirname(file!)).toBe(path.join(unattendedCacheDir({ XDG_CACHE_HOME: home })!, 'code'));
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file!)).mode & 0o777).toBe(0o700);
    const written = fs.statSync(file!);
    expect((await tools(home, cwd)).stdout).toBe(first.stdout);
    // Not written again: the same file (a rewrite renames a new one over it).
    expect(fs.statSync(file!)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });

  it('is code: a planted cache in a trusted place runs (which is why every check below matters)', async () => {
    const home = tempDir();
    const file = await cacheFileFor(home);
    fs.writeFileSync(file, planted, { mode: 0o600 });
    expect((await tools(home, tempDir())).stdout).toBe('PLANTED');
  });

  describe('is never used, and the command works as usual, when', () => {
    let expected: string;
    beforeAll(async () => {
      expected = (await tools(tempDir(), tempDir())).stdout;
    });

    /** Plants the cache, spoils it with `spoil`, runs `tools` from `cwd` (default: a neutral directory). */
    async function spoiled(spoil: (file: string, home: string) => string | void) {
      const home = tempDir();
      const file = await cacheFileFor(home);
      fs.writeFileSync(file, planted, { mode: 0o600 });
      const cwd = spoil(file, home) ?? tempDir();
      const r = await tools(home, cwd);
      expect(r.timedOut).toBe(false);
      expect([r.code, r.stdout]).toEqual([0, expected]);
    }

    it('the file is writable by its group or by anyone', async () => {
      await spoiled((file) => fs.chmodSync(file, 0o620));
      await spoiled((file) => fs.chmodSync(file, 0o602));
    });

    it('the file is a symbolic link, or a FIFO (which must not block the start)', async () => {
      await spoiled((file) => {
        const elsewhere = path.join(tempDir(), 'elsewhere.bin');
        fs.renameSync(file, elsewhere);
        fs.symlinkSync(elsewhere, file);
      });
      await spoiled((file) => {
        fs.rmSync(file);
        execFileSync('mkfifo', [file]);
      });
    });

    it.runIf(process.getuid?.() === 0)("the file, or its directory, is another user's", async () => {
      await spoiled((file) => fs.chownSync(file, 65534, 65534));
      await spoiled((file) => fs.chownSync(path.dirname(file), 65534, 65534));
    });

    it('its directory, or one above it, is writable by others (a sticky one like /tmp excepted)', async () => {
      await spoiled((file) => fs.chmodSync(path.dirname(file), 0o770));
      // The exception is for the directories above: the cache's own is never shared.
      await spoiled((file) => fs.chmodSync(path.dirname(file), 0o1777));
      await spoiled((_file, home) => fs.chmodSync(home, 0o777));
    });

    it('it lies under the working directory, directly or through a link', async () => {
      await spoiled((_file, home) => home);
      const cwd = tempDir();
      const home = path.join(tempDir(), 'link');
      fs.symlinkSync(cwd, home);
      const file = await cacheFileFor(home);
      fs.writeFileSync(file, planted, { mode: 0o600 });
      expect((await tools(home, tempDir())).stdout).toBe('PLANTED');
      expect((await tools(home, cwd)).stdout).toBe(expected);
    });
  });

  it('a garbage cache is replaced by a good one', async () => {
    const home = tempDir();
    const file = await cacheFileFor(home);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x41), { mode: 0o600 });
    const before = fs.statSync(file).ino;
    expect((await tools(home, tempDir())).code).toBe(0);
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(fs.readFileSync(file).equals(Buffer.alloc(fs.statSync(file).size, 0x41))).toBe(false);
  });

  it("keeps other builds' files written within the week, and removes older ones", async () => {
    const home = tempDir();
    const dir = path.join(home, 'unattended', 'code');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const recent = path.join(dir, `main-0123456789abcdef-tools-${process.version}-${process.arch}-00000000.bin`);
    const old = path.join(dir, `main-fedcba9876543210-tools-${process.version}-${process.arch}-00000000.bin`);
    for (const f of [recent, old]) fs.writeFileSync(f, 'another build', { mode: 0o600 });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    fs.utimesSync(old, eightDaysAgo, eightDaysAgo);
    expect((await tools(home, tempDir())).code).toBe(0);
    expect([fs.existsSync(recent), fs.existsSync(old)]).toEqual([true, false]);
    expect(cacheFiles(home)).toHaveLength(2);
  });
});

describe("the installation's cache holds the price table's answers too", () => {
  /** A gemini run of `cli` with `home` as its cache home; the report's cost. */
  async function pricedRun(cli: string, home: string, cwd?: string): Promise<number | undefined> {
    const model = await startFakeGemini([{ text: 'Done.', usage: { input: 1_000_000, output: 0 } }]);
    try {
      const ws = tempDir();
      const out = path.join(tempDir(), 'out');
      const r = await execa(process.execPath, [cli, 'run', '--prompt', 'Hi', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--workspace', ws, '--out', out], {
        cwd: cwd ?? ws,
        env: baseEnv({ XDG_CACHE_HOME: home, GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: model.url }),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 30_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      return readRun(out).report.usage.cost_usd;
    } finally {
      await model.close();
    }
  }
  const factsFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith('model-facts-')) : []);

  it('so a run with a fresh home looks nothing up, and an answer there is used only where the installation is trusted', async () => {
    const own = installation(false);
    const homeA = tempDir();
    const cost = await pricedRun(own.cli, homeA);
    // gemini-2.5-flash, a million input tokens: the table's input price in dollars.
    expect(cost).toBeGreaterThan(0);
    const [file, ...more] = factsFiles(own.cacheDir);
    expect(more).toEqual([]);
    expect(factsFiles(path.join(homeA, 'unattended'))).toEqual([]);
    // Planted: today's answer for the query says $1234 per million input tokens. It is the one used.
    const kept = JSON.parse(fs.readFileSync(path.join(own.cacheDir, file!), 'utf8'));
    for (const key of Object.keys(kept.entries)) kept.entries[key].price = { input_mtok: 1234, output_mtok: 0 };
    fs.writeFileSync(path.join(own.cacheDir, file!), JSON.stringify(kept));
    const homeB = tempDir();
    expect(await pricedRun(own.cli, homeB)).toBeCloseTo(1234, 6);
    expect(factsFiles(path.join(homeB, 'unattended'))).toEqual([]);
    // Not read from a cache directory others may write, nor from a run inside the installation.
    fs.chmodSync(own.cacheDir, 0o777);
    expect(await pricedRun(own.cli, tempDir())).toBeCloseTo(cost!, 9);
    fs.chmodSync(own.cacheDir, 0o700);
    expect(await pricedRun(own.cli, tempDir(), own.root)).toBeCloseTo(cost!, 9);
    // Others may write the installation: its answer is not read, the table is asked, the home keeps it.
    fs.chmodSync(path.join(own.root, 'dist/cli'), 0o775);
    const homeC = tempDir();
    expect(await pricedRun(own.cli, homeC)).toBeCloseTo(cost!, 9);
    expect(factsFiles(path.join(homeC, 'unattended'))).toHaveLength(1);
  });
});

