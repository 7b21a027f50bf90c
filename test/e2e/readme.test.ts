// Every shell command in README.md runs, as written, and succeeds. The only substitutions are the
// ones a reader's machine makes for them: `npx unattended` is the built CLI (what npx resolves to
// in this project), the model endpoints are fakes on 127.0.0.1, and keys are test values.
// `npm test` is skipped (it is what runs this file) and so is `npm install` (CI has just run it).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, ROOT, tempDir } from '../helpers/cli.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

interface Block {
  line: number;
  commands: string[];
}

/** The ```sh blocks of the README, comments dropped, `export` lines kept. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const block: Block = { line: i + 1, commands: [] };
    for (i++; i < lines.length && lines[i] !== '```'; i++) {
      const command = lines[i]!.replace(/\s{2,}#\s.*$/, '').trim();
      if (command && !command.startsWith('#')) block.commands.push(command);
    }
    blocks.push(block);
  }
  return blocks;
}

let gemini: FakeGemini;
let openai: Awaited<ReturnType<typeof startFakeOpenAI>>;
let cwd: string;

beforeAll(async () => {
  gemini = await startFakeGemini(Array.from({ length: 60 }, () => ({ text: 'Nothing needed changing.' })));
  openai = await startFakeOpenAI(Array.from({ length: 5 }, () => ({ text: 'Hello from the fake model.' })));
  // A reader's project: the recipes, a README with a typo, and two repositories for the batch.
  cwd = tempDir('unattended-readme-');
  fs.symlinkSync(path.join(ROOT, 'recipes'), path.join(cwd, 'recipes'));
  fs.writeFileSync(path.join(cwd, 'README.md'), '# app\n\nTeh app.\n');
  const targets: string[] = [];
  for (const name of ['api', 'web']) {
    const repo = path.join(cwd, 'repos', name);
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src/index.js'), 'export const x = oldFormat(1);\n');
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    targets.push(`repos/${name}`);
  }
  fs.writeFileSync(path.join(cwd, 'targets.txt'), `${targets.join('\n')}\n`);
});

afterAll(async () => {
  await gemini?.close();
  await openai?.close();
});

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const blocks = shellBlocks(readme);

describe('README commands', () => {
  it('has the quick start first: install and run the demo, then the tests', () => {
    expect(blocks[0]!.commands).toEqual(['npm install && npx unattended run recipes/demo.yaml', 'npm test']);
  });

  for (const block of blocks) {
    it(`block at README.md:${block.line} runs`, async () => {
      const env: Record<string, string> = {
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        GEMINI_API_KEY: '',
      };
      for (const raw of block.commands) {
        if (raw === 'npm test') continue;
        const exported = /^export (\w+)=/.exec(raw);
        if (exported) {
          env[exported[1]!] = `readme-test-${exported[1]!.toLowerCase()}`;
          continue;
        }
        const command = raw
          .replace(/^npm install && /, '')
          .replaceAll('npx unattended', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`)
          .replaceAll('http://localhost:11434/v1', openai.url);
        const result = await execa('bash', ['-c', command], {
          cwd,
          env: baseEnv(env),
          extendEnv: false,
          reject: false,
          stdin: 'ignore',
          timeout: 60_000,
        });
        expect({ command: raw, exitCode: result.exitCode, stderr: result.exitCode === 0 ? '' : result.stderr }).toEqual({
          command: raw,
          exitCode: 0,
          stderr: '',
        });
      }
    });
  }

  it('its complete recipe examples (```yaml blocks with version: 1) validate', async () => {
    const recipes = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^version: 1$/m.test(b));
    expect(recipes.length).toBeGreaterThan(0);
    for (const [i, recipe] of recipes.entries()) {
      const file = path.join(cwd, `readme-recipe-${i}.yaml`);
      fs.writeFileSync(file, recipe);
      const r = await execa(process.execPath, [CLI, 'validate', file], { reject: false });
      expect({ recipe: i, code: r.exitCode, stderr: r.stderr }).toEqual({ recipe: i, code: 0, stderr: '' });
    }
  });

  it('reached the models: the commands that name a provider really ran a model turn', () => {
    expect(gemini.requests.length).toBeGreaterThanOrEqual(6); // rename, stdin prompt, 2 batch targets x 2
    expect(openai.requests.length).toBe(1);
    expect(gemini.requests.every((r) => r.headers['x-goog-api-key'] === 'readme-test-gemini_api_key')).toBe(true);
  });
});
