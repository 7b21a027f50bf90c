// `--help` and `--version` load the command line and nothing a command needs: no ajv, no yaml, no
// loop (`--help` used to take ~190 ms because it loaded all three). Checked on the built CLI with a
// module hook that lists every file of dist/ the process loads.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

async function loadedFiles(args: string[]): Promise<{ files: string[]; stdout: string }> {
  const dir = tempDir();
  const log = path.join(dir, 'loaded.txt');
  fs.writeFileSync(log, '');
  fs.writeFileSync(path.join(dir, 'hooks.mjs'), `import fs from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.includes('/dist/')) fs.appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`);
  fs.writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));\n`);
  const r = await execa(process.execPath, ['--import', path.join(dir, 'register.mjs'), CLI, ...args], { cwd: dir, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return { files: fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((url) => new URL(url).pathname), stdout: String(r.stdout) };
}

// Names the bundle keeps (identifiers are not minified): ajv's module, yaml's parser, the loop.
const HEAVY = { ajv: /\brequire_ajv\b/, yaml: /\bparseDocument\b/, loop: /\bfunction runLoop\b/ };

function heavyIn(files: string[]): string[] {
  return files.flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return Object.entries(HEAVY).filter(([, marker]) => marker.test(text)).map(([name]) => `${name} in ${path.basename(file)}`);
  });
}

describe('what --help and --version load', () => {
  it('--help: the command line only', async () => {
    const { files, stdout } = await loadedFiles(['--help']);
    expect(stdout).toContain('unattended');
    expect(heavyIn(files)).toEqual([]);
  });

  it('--version: the entry file and a few bytes beside it', async () => {
    const { files, stdout } = await loadedFiles(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(files[0]).toBe(CLI);
    const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    expect(bytes).toBeLessThan(8 * 1024);
  });

  it('the markers are real: a validate loads ajv and yaml, a run loads the loop', async () => {
    const validate = heavyIn((await loadedFiles(['validate', path.join(path.dirname(CLI), '../../recipes/demo.yaml')])).files);
    expect(validate.some((h) => h.startsWith('ajv'))).toBe(true);
    expect(validate.some((h) => h.startsWith('yaml'))).toBe(true);
  });
});
