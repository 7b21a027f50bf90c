// The `unattended` command is a CommonJS launcher (scripts/bin/unattended.cjs) that answers
// --version itself, help and completion through dist/cli/help.cjs, and imports dist/cli/main.js for
// everything else. Imported rather than run as
// the entry module, main.js's top-level await must not turn a run that never finished into exit 0.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const LAUNCHER = path.resolve(import.meta.dirname, '../../scripts/bin/unattended.cjs');

/** The launcher as it ships (dist/cli/unattended.cjs beside main.js, package.json two levels up), with `main` as main.js. */
async function launch(main: string, args: string[], help = 'throw new Error("help.cjs loaded");', nodeOptions: string[] = []) {
  const root = tempDir();
  fs.mkdirSync(path.join(root, 'dist/cli'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'unattended', version: '9.8.7', type: 'module' }));
  fs.copyFileSync(LAUNCHER, path.join(root, 'dist/cli/unattended.cjs'));
  fs.writeFileSync(path.join(root, 'dist/cli/main.js'), main);
  fs.writeFileSync(path.join(root, 'dist/cli/help.cjs'), help);
  // The clean environment of the CLI tests: nothing of the test runner's shell, such as a
  // NODE_EXTRA_CA_CERTS that every Node start would spend ~80 ms of CPU reading.
  return execa(process.execPath, [...nodeOptions, path.join(root, 'dist/cli/unattended.cjs'), ...args], { env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
}

describe('the unattended launcher', () => {
  it('answers --version from package.json without loading main.js', async () => {
    const r = await launch('throw new Error("main.js loaded");', ['--version']);
    expect([r.exitCode, r.stdout]).toEqual([0, '9.8.7']);
  });

  it('on a Node.js without process.getBuiltinModule (older than 20.16), says which version it needs: exit 52, no stack trace', async () => {
    const root = tempDir();
    const older = path.join(root, 'older-node.cjs');
    fs.writeFileSync(older, 'delete process.getBuiltinModule;');
    const main = 'throw new Error("main.js loaded");';
    const r = await launch(main, ['run', '-p', 'hi'], undefined, ['--require', older]);
    expect(r.exitCode).toBe(52);
    expect(r.stderr).toBe(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer`);
  });

  it('runs main.js with the same arguments and keeps its exit code', async () => {
    const r = await launch('process.stdout.write(process.argv.slice(2).join(" ")); process.exitCode = await Promise.resolve(3);', ['run', '-p', 'hi']);
    expect([r.exitCode, r.stdout]).toEqual([3, 'run -p hi']);
  });

  it('a command that never finished is exit 13, as when main.js is the entry module, not 0', async () => {
    const r = await launch('await new Promise(() => {});', ['run']);
    expect(r.exitCode).toBe(13);
  });

  it('an error thrown by main.js fails the process', async () => {
    const r = await launch('throw new Error("broken build");', ['run']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('broken build');
  });

  describe('help and completion go to help.cjs, not main.js', () => {
    const MAIN = 'process.stdout.write("main: " + process.argv.slice(2).join(" "));';
    const HELP = 'exports.answerHelp = async (argv) => { process.stdout.write("help: " + argv.join(" ")); return 0; };';

    it.each([['--help'], ['-h'], ['batch', 'status', '--help'], ['run', 'fix.yaml', '-h'], ['completion'], ['--get-yargs-completions', 'ba']])(
      '%s …',
      async (...args) => {
        const r = await launch('throw new Error("main.js loaded");', args, HELP);
        expect([r.exitCode, r.stdout]).toEqual([0, `help: ${args.join(' ')}`]);
      },
    );

    it('a -h after -- or inside a prompt is not a help request', async () => {
      for (const args of [['run', 'fix.yaml', '--', '-h'], ['-p', 'explain -h and --help'], ['completion', 'bash']]) {
        const r = await launch(MAIN, args);
        expect([r.exitCode, r.stdout]).toEqual([0, `main: ${args.join(' ')}`]);
      }
    });

    it("keeps help.cjs' exit code, and runs main.js when help.cjs finds no help request after all", async () => {
      const refused = await launch('throw new Error("main.js loaded");', ['--help'], 'exports.answerHelp = async () => 52;');
      expect(refused.exitCode).toBe(52);
      const notHelp = await launch(MAIN, ['-h'], 'exports.answerHelp = async () => undefined;');
      expect([notHelp.exitCode, notHelp.stdout]).toEqual([0, 'main: -h']);
    });
  });
});
