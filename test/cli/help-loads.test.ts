// `--help` and `--version` load the command line and nothing a command needs: no ajv, no yaml, no
// loop (`--help` used to take ~190 ms because it loaded all three). Checked on the built CLI with a
// module hook that lists every file of dist/ the process loads: ES modules through the loader's
// hook, and the CommonJS files required at run time (ajv and yaml: dist/assets/*.cjs) through
// Module._load.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { answerHelp } from '../../src/cli/help.js';
import { baseEnv, CLI, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const LAUNCHER = path.join(ROOT, 'dist/cli/unattended.cjs');

afterAll(removeTempDirs);

async function loadedFiles(args: string[], entry = CLI): Promise<{ files: string[]; stdout: string }> {
  const dir = tempDir();
  const log = path.join(dir, 'loaded.txt');
  fs.writeFileSync(log, '');
  fs.writeFileSync(path.join(dir, 'hooks.mjs'), `import fs from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.includes('/dist/')) fs.appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`);
  fs.writeFileSync(
    path.join(dir, 'register.mjs'),
    [
      `import fs from 'node:fs';`,
      `import Module, { register } from 'node:module';`,
      `register(new URL('./hooks.mjs', import.meta.url));`,
      `const load = Module._load;`,
      `Module._load = function (request, parent, isMain) {`,
      `  const file = Module._resolveFilename(request, parent, isMain);`,
      `  if (file.includes('/dist/')) fs.appendFileSync(${JSON.stringify(log)}, 'file://' + file + '\\n');`,
      `  return load.call(this, request, parent, isMain);`,
      `};`,
    ].join('\n'),
  );
  const r = await execa(process.execPath, ['--import', path.join(dir, 'register.mjs'), entry, ...args], { cwd: dir, env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  // The entry file is seen by both hooks.
  const files = new Set(fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((url) => new URL(url).pathname));
  return { files: [...files], stdout: String(r.stdout) };
}

// Names the bundle keeps (identifiers are not minified): ajv's code generator, yaml's parser, the loop.
const HEAVY = { ajv: /\brequire_codegen\b/, yaml: /\bparseDocument\b/, loop: /\bfunction runLoop\b/ };

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

  it('the markers are real: a validate loads yaml, and ajv when the recipe has an output schema', async () => {
    const dir = tempDir();
    const recipe = path.join(dir, 'answer.yaml');
    fs.writeFileSync(recipe, 'version: 1\nconfirmation: { mode: deny }\nprompt: Answer.\ntools: []\noutput:\n  schema: { type: object, properties: { answer: { type: string } } }\n');
    const validate = heavyIn((await loadedFiles(['validate', recipe])).files);
    expect(validate).toContain('yaml in yaml.cjs');
    expect(validate).toContain('ajv in ajv.cjs');
  });

  it('the installed command answers help and completion from help.cjs alone, word for word as main.js', async () => {
    for (const args of [['--help'], ['run', '--help'], ['batch', 'merge', '-h'], ['--get-yargs-completions', 'po']]) {
      const { files, stdout } = await loadedFiles(args, LAUNCHER);
      expect(files.map((file) => path.relative(ROOT, file))).toEqual(['dist/cli/unattended.cjs', 'dist/cli/help.cjs']);
      expect(stdout).toBe((await loadedFiles(args)).stdout);
    }
  });

  it('help.cjs prints nothing for a command line that asks for no help, and the command runs as usual', async () => {
    const dir = tempDir();
    const writes: string[] = [];
    const saved = { stdout: process.stdout.write, stderr: process.stderr.write, log: console.log };
    process.stdout.write = process.stderr.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof saved.stdout;
    console.log = (...parts: unknown[]) => void writes.push(parts.join(' '));
    try {
      expect(await answerHelp(['validate', path.join(dir, 'missing.yaml')])).toBeUndefined();
      expect(await answerHelp(['--no-such-option'])).toBeUndefined();
      expect(await answerHelp(['--help'])).toBe(0);
    } finally {
      Object.assign(process.stdout, { write: saved.stdout });
      Object.assign(process.stderr, { write: saved.stderr });
      console.log = saved.log;
    }
    expect(writes.join('')).toMatch(/^unattended \[PROMPT \| RECIPE\]/);
    expect((await cliInProcess(['validate', path.join(dir, 'missing.yaml')], { cwd: dir })).code).toBe(52);
  });
});
