// The `unattended` command is a CommonJS launcher (scripts/bin/unattended.cjs) that answers
// --version itself, help and completion through dist/cli/help.cjs, and calls main() of
// dist/cli/main.cjs (loaded by code-cache.cjs) for everything else. A command whose promise never
// settles must not turn into exit 0.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-names.js';
import { baseEnv, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const LAUNCHER = path.resolve(import.meta.dirname, '../../scripts/bin/unattended.cjs');
const CODE_CACHE = path.resolve(import.meta.dirname, '../../scripts/bin/code-cache.cjs');

/** The launcher as it ships (dist/cli/unattended.cjs beside main.cjs, package.json two levels up), with `main` as main.cjs. */
async function launch(main: string, args: string[], help = 'throw new Error("help.cjs loaded");', nodeOptions: string[] = []) {
  const root = tempDir();
  fs.mkdirSync(path.join(root, 'dist/cli'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'unattended', version: '9.8.7', type: 'module' }));
  fs.copyFileSync(LAUNCHER, path.join(root, 'dist/cli/unattended.cjs'));
  fs.copyFileSync(CODE_CACHE, path.join(root, 'dist/cli/code-cache.cjs'));
  fs.writeFileSync(path.join(root, 'dist/cli/main.cjs'), main);
  fs.writeFileSync(path.join(root, 'dist/cli/help.cjs'), help);
  // The clean environment of the CLI tests: nothing of the test runner's shell, such as a
  // NODE_EXTRA_CA_CERTS that every Node start would spend ~80 ms of CPU reading.
  return execa(process.execPath, [...nodeOptions, path.join(root, 'dist/cli/unattended.cjs'), ...args], { env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
}

describe('the unattended launcher', () => {
  it('knows the same commands as the command line, to give each its own code cache', () => {
    const listed = /const OTHER_COMMANDS = new Set\((\[[^\]]*\])\)/.exec(fs.readFileSync(LAUNCHER, 'utf8'))?.[1];
    expect(JSON.parse(listed!.replaceAll("'", '"')).sort()).toEqual([...COMMANDS].filter((c) => c !== 'run').sort());
  });

  it('answers --version from package.json without loading main.cjs', async () => {
    const r = await launch('throw new Error("main.cjs loaded");', ['--version']);
    expect([r.exitCode, r.stdout]).toEqual([0, '9.8.7']);
  });

  it('on a Node.js without process.getBuiltinModule (older than 20.16), says which version it needs: exit 52, no stack trace', async () => {
    const root = tempDir();
    const older = path.join(root, 'older-node.cjs');
    fs.writeFileSync(older, 'delete process.getBuiltinModule;');
    const main = 'throw new Error("main.cjs loaded");';
    const r = await launch(main, ['run', '-p', 'hi'], undefined, ['--require', older]);
    expect(r.exitCode).toBe(52);
    expect(r.stderr).toBe(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer`);
  });

  it('the build says the same on such a Node, before it links a module or removes dist/ (npm install runs it)', async () => {
    const root = tempDir();
    const older = path.join(root, 'older-node.cjs');
    fs.writeFileSync(older, 'delete process.getBuiltinModule;');
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(pkg.scripts.build).toMatch(/^node scripts\/node-check\.cjs && /);
    const r = await execa(process.execPath, ['--require', older, path.resolve(import.meta.dirname, '../../scripts/node-check.cjs')], { env: baseEnv(), extendEnv: false, reject: false });
    expect(r.exitCode).toBe(52);
    expect(r.stderr).toBe(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer`);
    const today = await execa(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/node-check.cjs')], { env: baseEnv(), extendEnv: false, reject: false });
    expect([today.exitCode, today.stderr]).toEqual([0, '']);
  });

  it("runs main.cjs's main() with the same arguments and exits with the code it resolves to", async () => {
    const r = await launch('exports.main = async (argv) => { process.stdout.write(argv.join(" ")); return 3; };', ['run', '-p', 'hi']);
    expect([r.exitCode, r.stdout]).toEqual([3, 'run -p hi']);
  });

  it("a command that never finished is exit 13, as for an entry module's unsettled top-level await, not 0", async () => {
    const r = await launch('exports.main = () => new Promise(() => {});', ['run']);
    expect(r.exitCode).toBe(13);
  });

  it('an error thrown by main.cjs, as it loads or as main() runs, fails the process', async () => {
    for (const main of ['throw new Error("broken build");', 'exports.main = async () => { throw new Error("broken build"); };']) {
      const r = await launch(main, ['run']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('broken build');
    }
  });

  describe('help and completion go to help.cjs, not main.cjs', () => {
    const MAIN = 'exports.main = async (argv) => { process.stdout.write("main: " + argv.join(" ")); return 0; };';
    const HELP = 'exports.answerHelp = async (argv) => { process.stdout.write("help: " + argv.join(" ")); return 0; };';

    it.each([['--help'], ['-h'], ['batch', 'status', '--help'], ['run', 'fix.yaml', '-h'], ['completion'], ['--get-yargs-completions', 'ba']])(
      '%s …',
      async (...args) => {
        const r = await launch('throw new Error("main.cjs loaded");', args, HELP);
        expect([r.exitCode, r.stdout]).toEqual([0, `help: ${args.join(' ')}`]);
      },
    );

    it('a -h after -- or inside a prompt is not a help request', async () => {
      for (const args of [['run', 'fix.yaml', '--', '-h'], ['-p', 'explain -h and --help'], ['completion', 'bash']]) {
        const r = await launch(MAIN, args);
        expect([r.exitCode, r.stdout]).toEqual([0, `main: ${args.join(' ')}`]);
      }
    });

    it("keeps help.cjs' exit code, and runs main.cjs when help.cjs finds no help request after all", async () => {
      const refused = await launch('throw new Error("main.cjs loaded");', ['--help'], 'exports.answerHelp = async () => 52;');
      expect(refused.exitCode).toBe(52);
      const notHelp = await launch(MAIN, ['-h'], 'exports.answerHelp = async () => undefined;');
      expect([notHelp.exitCode, notHelp.stdout]).toEqual([0, 'main: -h']);
    });
  });
});
