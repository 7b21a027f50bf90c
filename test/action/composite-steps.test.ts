// action.yml's own shell steps, run with bash as the runner would: the state step (cache key,
// build detection, Node check) and the run step (inputs through env to the entry).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, ROOT, tempDir } from '../helpers/cli.js';
import { commandLines, parseOutputFile } from './harness.js';
import { PEER_INPUTS } from '../../src/action/peer-inputs.js';

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
interface ActionYml {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Step[] };
}

const action = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const step = (id: string) => action.runs.steps.find((s) => s.id === id)!;
const scratch = tempDir('unattended-composite-');
let stepRuns = 0;
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function runStep(script: string, env: Record<string, string>, cwd = ROOT) {
  const outputFile = path.join(scratch, `output-${++stepRuns}`);
  fs.writeFileSync(outputFile, '');
  const result = await execa('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
    cwd,
    env: baseEnv({ GITHUB_OUTPUT: outputFile, RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', ...env }),
    extendEnv: false,
    reject: false,
  });
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr), outputs: parseOutputFile(fs.readFileSync(outputFile, 'utf8')) };
}

/** A copy of what the build reads: the action as a user's runner downloads it, unbuilt. */
function actionCopy(name: string): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'scripts']) fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  return dir;
}

describe('the state step', () => {
  const script = step('state').run!;

  it('resolves the action directory, finds it unbuilt, and keys the cache on its sources', async () => {
    const dir = actionCopy('a');
    const first = await runStep(script, { GITHUB_ACTION_PATH: `${path.dirname(dir)}/./${path.basename(dir)}` });
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ dir, 'node-ok': 'true', built: 'false' });
    expect(first.outputs['cache-key']).toMatch(/^unattended-action-v1-Linux-X64-[0-9a-f]{40}$/);

    const same = await runStep(script, { GITHUB_ACTION_PATH: dir });
    expect(same.outputs['cache-key']).toBe(first.outputs['cache-key']);

    const keys = new Set([first.outputs['cache-key']]);
    for (const file of ['src/action/main.ts', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs']) {
      fs.appendFileSync(path.join(dir, file), '\n');
      keys.add((await runStep(script, { GITHUB_ACTION_PATH: dir })).outputs['cache-key']);
    }
    expect(keys.size).toBe(5);
  });

  it('sees a built checkout, and asks for Node when the one on PATH is too old', async () => {
    const dir = actionCopy('b');
    // A build is self-contained: its entry points and the grammar in dist/assets/ (no node_modules).
    for (const file of ['dist/action/main.js', 'dist/cli/main.cjs', 'dist/assets/tree-sitter-bash.wasm']) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), '');
    }
    const bin = path.join(scratch, 'old-node-bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'node'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const r = await runStep(script, { GITHUB_ACTION_PATH: dir, PATH: `${bin}:${process.env.PATH}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ built: 'true', 'node-ok': 'false' });
  });
});

describe('the run step', () => {
  const run = step('run');

  /** The step's env as the runner evaluates it: `${{ inputs.x }}` is the input or its default. */
  function stepEnv(inputs: Record<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, expression] of Object.entries(run.env!)) {
      const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(expression);
      if (input) env[name] = inputs[input[1]!] ?? action.inputs[input[1]!]!.default ?? '';
      else if (expression === '${{ steps.state.outputs.dir }}') env[name] = ROOT;
      else throw new Error(`unexpected expression in the run step: ${expression}`);
    }
    return env;
  }

  // The GitHub token and the rule for who may start a run belong to the gate and comment steps.
  // Peers' inputs (peer-inputs.ts) go to the gate, which refuses them, and never to the run.
  const GITHUB_STEP_INPUTS = ['github-token', 'allow-users', ...Object.keys(PEER_INPUTS)];

  it('passes every input but the token and allow-users, and only inputs, through env', () => {
    const mapped = Object.values(run.env!)
      .map((e) => /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(e)?.[1])
      .filter(Boolean);
    expect(mapped.sort()).toEqual(Object.keys(action.inputs).filter((name) => !GITHUB_STEP_INPUTS.includes(name)).sort());
    expect(JSON.stringify(run.env)).not.toContain('github-token');
    expect(JSON.stringify(run.env)).not.toContain('github.token');
    for (const [name, expression] of Object.entries(run.env!)) {
      const input = /inputs\.([a-z-]+)/.exec(expression)?.[1];
      if (input) expect(name).toBe(`INPUT_${input.toUpperCase().replace(/-/g, '_')}`);
    }
    expect(run.run).not.toContain('${{');
  });

  it('runs the entry with the defaults of action.yml and the demo recipe', async () => {
    const runnerTemp = path.join(scratch, 'runner-temp');
    fs.mkdirSync(runnerTemp);
    const r = await runStep(run.run!, { ...stepEnv({ recipe: 'recipes/demo.yaml', params: '' }), RUNNER_TEMP: runnerTemp });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs).toMatchObject({ status: 'denied', 'exit-code': '0', 'changed-files': 'README.md' });
    expect(commandLines(r.stdout).some((l) => l.startsWith('::warning title=unattended%3A policy denied shell::'))).toBe(true);
  });
});

describe('the ripgrep step', () => {
  const script = step('ripgrep').run!;

  it.runIf(fs.existsSync('/usr/bin/rg'))('where rg is on PATH: says so and installs nothing', async () => {
    const r = await runStep(script, { PATH: '/usr/bin:/bin' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('unattended ripgrep: rg is on PATH');
  });

  it('where it cannot be installed: says grep will search in JavaScript, and never fails the step', async () => {
    const bin = path.join(scratch, 'no-rg-bin');
    fs.mkdirSync(bin);
    for (const tool of ['bash', 'id', 'env']) fs.symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
    const r = await runStep(script, { PATH: bin });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('unattended ripgrep: installing ripgrep');
    expect(r.stdout).toContain('unattended ripgrep: could not install ripgrep; grep will search in JavaScript');
  });
});

describe('the sandbox step', () => {
  const script = step('sandbox').run!;

  it.runIf(fs.existsSync('/usr/bin/bwrap'))('where bubblewrap already works: says so and changes nothing', async () => {
    const r = await runStep(script, {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('unattended sandbox: bubblewrap works');
  });

  it('where it cannot be installed or used: says why and leaves the decision to the run (never fails the step)', async () => {
    // A PATH with bash and coreutils but no bwrap, apt-get, sudo or apparmor tools.
    const bin = path.join(scratch, 'bare-bin');
    fs.mkdirSync(bin);
    for (const tool of ['bash', 'id', 'cat', 'env']) fs.symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
    const r = await runStep(script, { PATH: bin });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('unattended sandbox: installing bubblewrap');
    expect(r.stdout).toContain('unattended sandbox: bubblewrap is not available; tools will run without a sandbox');
  });

  it('is skipped with sandbox: off, and passes the input to the run as --sandbox', () => {
    const raw = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
    // By the gate's trimmed reading (`sandbox: "off "` is off to the run step too).
    expect(raw).toContain("if: runner.os == 'Linux' && steps.gate.outputs.sandbox-off != 'true'");
    expect(step('gate').env!.INPUT_SANDBOX).toBe('${{ inputs.sandbox }}');
    expect(step('run').env!.INPUT_SANDBOX).toBe('${{ inputs.sandbox }}');
  });
});

describe('the gate and comment steps', () => {
  const ids = action.runs.steps.map((s) => s.id);
  const raw = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    outputs: Record<string, { value: string }>;
    runs: { steps: Array<{ id?: string; if?: string; env?: Record<string, string> }> };
  };
  const byId = (id: string) => raw.runs.steps.find((s) => s.id === id)!;

  it('the gate runs before the sandbox set-up and the run; the comment after the upload, whatever the run did', () => {
    expect(ids.indexOf('gate')).toBeGreaterThan(ids.indexOf('state'));
    expect(ids.indexOf('gate')).toBeLessThan(ids.indexOf('sandbox'));
    expect(ids.indexOf('gate')).toBeLessThan(ids.indexOf('run'));
    expect(ids.indexOf('comment')).toBe(ids.length - 1);
    expect(ids.indexOf('upload')).toBeLessThan(ids.indexOf('comment'));
    // No `if:` on the gate or the run: a refused gate fails the step, so nothing after it runs
    // but the always() steps, which need the run's directory.
    expect(byId('gate').if).toBeUndefined();
    expect(byId('run').if).toBeUndefined();
    expect(byId('comment').if).toBe("always() && steps.gate.outputs.comment == 'true' && steps.run.outputs.run-dir != ''");
    expect(byId('comment').env!.UNATTENDED_ARTIFACT_URL).toBe('${{ steps.upload.outputs.artifact-url }}');
  });

  it('only the gate and comment steps hold the token; the status output says refused when the gate refused', () => {
    const holders = raw.runs.steps.filter((s) => JSON.stringify(s.env ?? {}).includes('inputs.github-token')).map((s) => s.id);
    expect(holders).toEqual(['gate', 'comment']);
    expect(raw.outputs.status!.value).toBe('${{ steps.run.outputs.status || steps.gate.outputs.status }}');
  });
});
