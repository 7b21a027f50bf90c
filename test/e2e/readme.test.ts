// Every shell command in README.md runs, as written, and succeeds. The only substitutions are the
// ones a reader's machine makes for them: `npx unattended` is the CLI (what npx resolves to in this
// project), the model endpoints are fakes on 127.0.0.1, and keys are test values. `npm test` is
// skipped (it is what runs this file) and so is `npm install` (CI has just run it).
// A command that is only `npx unattended` and quoted words goes through the CLI's entry in process
// (its argv split as bash splits it; the same code without a process start each); a batch's
// targets then run in process too (test/batch/in-process-launcher.ts: the child process of a target
// is the subject of the batch tests, not of this one). The rest runs in bash on the built CLI, as
// typed: the quick start, pipes, globs, variables before the command.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from '../batch/in-process-launcher.js';
import { shellWords } from '../cli/in-process.js';
import { ruleProblem, splitCliRule } from '../../src/recipe/rules.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';

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
/** The GitHub of `--org acme`; the README's `export GITHUB_TOKEN=...` gives the test's value. */
let github: FakeGitHub;
let openai: Awaited<ReturnType<typeof startFakeOpenAI>>;
let cwd: string;

beforeAll(async () => {
  gemini = await startFakeGemini(Array.from({ length: 60 }, () => ({ text: 'Nothing needed changing.' })));
  openai = await startFakeOpenAI(Array.from({ length: 5 }, () => ({ text: 'Hello from the fake model.' })));
  github = await startFakeGitHub({ token: 'readme-test-github_token', repos: [{ owner: 'acme', name: 'api', topics: ['fleet'] }, { owner: 'acme', name: 'web', topics: ['fleet'] }] });
  // A reader's project: the recipes, a README with a typo, and two repositories for the batch.
  cwd = tempDir('unattended-readme-');
  fs.symlinkSync(path.join(ROOT, 'recipes'), path.join(cwd, 'recipes'));
  fs.writeFileSync(path.join(cwd, 'README.md'), '# app\n\nTeh app.\n');
  const targets: string[] = [];
  for (const name of ['api', 'web']) {
    const repo = path.join(cwd, 'repos', name);
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src/index.js'), 'export const x = oldFormat(1);\n');
    // Not the developer's git configuration: HOME is the temp dir, no system config.
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: baseEnv({ HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' }), extendEnv: false });
    targets.push(`repos/${name}`);
  }
  fs.writeFileSync(path.join(cwd, 'targets.txt'), `${targets.join('\n')}\n`);
});

afterAll(async () => {
  await gemini?.close();
  await openai?.close();
  await github?.close();
  removeTempDirs();
});

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const blocks = shellBlocks(readme);

const BATCH_TARGETS = 2;

/**
 * The least model turns a README command must cause (one a run; a batch, one a target; a shard,
 * its share, checked over the block): per command, so that `-t` can pick any block.
 */
function turnsFor(command: string, env: Record<string, string>): { gemini: number | 'shard'; openai: number } {
  if (command.includes('--provider openai')) return { gemini: 0, openai: 1 };
  if (!env.GEMINI_API_KEY || command.includes('--dry-run')) return { gemini: 0, openai: 0 };
  if (/npx unattended batch recipes\//.test(command)) return { gemini: command.includes('--shard ') ? 'shard' : BATCH_TARGETS, openai: 0 };
  if (/npx unattended run recipes\//.test(command) && !command.includes('recipes/demo.yaml')) return { gemini: 1, openai: 0 };
  if (/^echo .* \| npx unattended run /.test(command)) return { gemini: 1, openai: 0 };
  return { gemini: 0, openai: 0 };
}

/**
 * The argv of a command that is `npx unattended` and plain or quoted words, for the CLI's entry in
 * process; null for anything bash must run (and for the quick start: see the top).
 */
function inProcessArgv(command: string, blockIndex: number): string[] | null {
  if (blockIndex === 0 || !command.startsWith('npx unattended ')) return null;
  const unquoted = command.replace(/'[^']*'|"[^"\\$`]*"/g, '');
  if (/[|&;<>$`*?(){}[\]~\\]/.test(unquoted)) return null;
  return shellWords(command).slice(2);
}

describe('README commands', () => {
  it('has the quick start first: install and run the demo, then the tests', () => {
    expect(blocks[0]!.commands).toEqual(['npm install && npx unattended run recipes/demo.yaml', 'npm test']);
  });

  for (const [blockIndex, block] of blocks.entries()) {
    it(`block at README.md:${block.line} runs`, async () => {
      const env: Record<string, string> = {
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        GEMINI_API_KEY: '',
        GITHUB_API_URL: github.url,
      };
      let shardTurns: number | null = null;
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
        const before = { gemini: gemini.requests.length, openai: openai.requests.length };
        const argv = inProcessArgv(raw, blockIndex);
        const result = argv
          ? await cliInProcess(argv, { cwd, env, ...(argv[0] === 'batch' ? { launchRun: inProcessLauncher } : {}) }).then((r) => ({ exitCode: r.code, stderr: r.stderr }))
          : await execa('bash', ['-c', command], { cwd, env: baseEnv(env), extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
        expect({ command: raw, exitCode: result.exitCode, stderr: result.exitCode === 0 ? '' : result.stderr }).toEqual({
          command: raw,
          exitCode: 0,
          stderr: '',
        });
        // Reached the models: a command that names a provider really ran its model turns, with the key it was given.
        const reached = { gemini: gemini.requests.length - before.gemini, openai: openai.requests.length - before.openai };
        const expected = turnsFor(raw, env);
        if (expected.gemini === 'shard') shardTurns = (shardTurns ?? 0) + reached.gemini;
        // At least: a model may take more than one turn; none where none is named.
        const geminiOk = expected.gemini === 'shard' || (expected.gemini === 0 ? reached.gemini === 0 : reached.gemini >= expected.gemini);
        expect({ command: raw, geminiOk, openai: reached.openai }).toEqual({ command: raw, geminiOk: true, openai: expected.openai });
        expect(gemini.requests.slice(before.gemini).every((r) => r.headers['x-goog-api-key'] === 'readme-test-gemini_api_key')).toBe(true);
      }
      // The shards together ran every target once.
      if (shardTurns !== null) expect(shardTurns).toBeGreaterThanOrEqual(BATCH_TARGETS);
    });
  }

  it('the allow and deny rules its Action examples pass (README and docs) are rules the run accepts', () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs/github-action.md'), 'utf8');
    const rules: string[] = [];
    for (const block of [...`${readme}\n${docs}`.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!)) {
      for (const m of block.matchAll(/^(\s*)(?:allow|deny): \|\n((?:\1\s+\S.*\n?)+)/gm)) rules.push(...m[2]!.split('\n').map((l) => l.trim()).filter(Boolean));
    }
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      const { tool, pattern } = splitCliRule(rule);
      expect({ rule, problem: ruleProblem(tool, pattern) }).toEqual({ rule, problem: null });
    }
  });

  it("its command-line synopsis names every flag each command's --help has, and no other", async () => {
    const synopsis = /## Command line\n\n```\n([\s\S]*?)```/.exec(readme)![1]!;
    const flags = (text: string) => new Set([...text.matchAll(/--(?:no-)?([a-z][a-z-]*)/g)].map((m) => m[1]!).filter((f) => f !== 'help' && f !== 'version'));
    for (const command of ['run', 'validate', 'tools', 'policy check', 'convert', 'report', 'batch', 'batch status', 'batch matrix', 'batch merge']) {
      const help = await cliInProcess([...command.split(' '), '--help']);
      const head = command === 'run' ? 'unattended [run] ' : command === 'batch' ? 'unattended batch RECIPE ' : `unattended ${command} `;
      const lines = synopsis.split(/\n(?=unattended )/).filter((l) => l.startsWith(head) || l.trim() === `unattended ${command}`);
      expect({ command, documented: lines.length > 0 }).toEqual({ command, documented: true });
      const inHelp = [...flags(help.stdout)].sort();
      // `batch RECIPE` abbreviates its rarer flags with `...`: the README's batch section has them.
      const inReadme = [...flags(lines.join('\n'))].sort();
      if (command === 'batch') expect(inHelp).toEqual(expect.arrayContaining(inReadme));
      else expect({ command, flags: inReadme }).toEqual({ command, flags: inHelp });
    }
  });

  it('its provider_options examples validate under the provider each names', async () => {
    const blocks = [...readme.matchAll(/```yaml\n(provider_options: +# provider: (\w+)\n[\s\S]*?)```/g)];
    expect(blocks.map((m) => m[2])).toEqual(['openai', 'anthropic']);
    for (const [i, [, block, provider]] of blocks.entries()) {
      const file = path.join(cwd, `readme-provider-options-${i}.yaml`);
      fs.writeFileSync(file, `version: 1\nprompt: hi\nprovider: ${provider}\nmodel: m\nconfirmation: {mode: deny}\n${block}`);
      const r = await cliInProcess(['validate', file]);
      expect({ provider, code: r.code, stderr: r.stderr }).toEqual({ provider, code: 0, stderr: '' });
    }
  });

  it('its complete recipe examples (```yaml blocks with version: 1) validate', async () => {
    const recipes = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^version: 1$/m.test(b));
    expect(recipes.length).toBeGreaterThan(0);
    for (const [i, recipe] of recipes.entries()) {
      const file = path.join(cwd, `readme-recipe-${i}.yaml`);
      fs.writeFileSync(file, recipe);
      const r = await cliInProcess(['validate', file]);
      expect({ recipe: i, code: r.code, stderr: r.stderr }).toEqual({ recipe: i, code: 0, stderr: '' });
    }
  });
});
