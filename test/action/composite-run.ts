// Runs action.yml's gate, run and comment steps the way the runner does: each step's `run:` script
// with bash, its `env:` evaluated from action.yml itself (`${{ inputs.x }}` is the input or its
// default), one GITHUB_OUTPUT file per step, and the later steps skipped as their `if:` says.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { baseEnv, ROOT } from '../helpers/cli.js';
import { parseOutputFile, scratchDir } from './harness.js';

interface Step {
  id?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}
export const actionYml = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Step[] };
};
export const actionStep = (id: string) => actionYml.runs.steps.find((s) => s.id === id)!;

export const TEST_TOKEN = 'ghs_testtoken000000000000000000000000';

export interface StepRun {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  /** The env the step ran with (evaluated from action.yml). */
  env: Record<string, string>;
}

export interface CompositeRun {
  gate: StepRun;
  run: StepRun | null;
  comment: StepRun | null;
  /** Whether the upload step's `if:` let it run (actions/upload-artifact itself is not run). */
  uploaded: boolean;
  summary: string;
}

export interface CompositeOptions {
  cwd: string;
  /** GITHUB_* context: event name and payload, repository, actor, API URL... and provider variables. */
  env: Record<string, string>;
  event?: Record<string, unknown>;
  /** What actions/upload-artifact would output as artifact-url. */
  artifactUrl?: string;
}

export async function runComposite(inputs: Record<string, string>, opts: CompositeOptions): Promise<CompositeRun> {
  const dir = scratchDir('unattended-composite-run-');
  const summaryFile = path.join(dir, 'summary.md');
  fs.writeFileSync(summaryFile, '');
  const eventFile = path.join(dir, 'event.json');
  fs.writeFileSync(eventFile, JSON.stringify(opts.event ?? {}));
  const runnerTemp = path.join(dir, 'runner-temp');
  fs.mkdirSync(runnerTemp);
  const outputs: Record<string, Record<string, string>> = {};
  const input = (name: string) => {
    if (name in inputs) return inputs[name]!;
    const fallback = actionYml.inputs[name]?.default ?? '';
    return fallback === '${{ github.token }}' ? TEST_TOKEN : fallback;
  };
  let uploaded = false;
  const resolve = (expr: string) => {
    const given = /^inputs\.([a-z_-]+) != ''$/.exec(expr);
    if (given) return String(input(given[1]!) !== '');
    const ref = /^(inputs|steps)\.([a-z_-]+)(?:\.outputs\.([a-z-]+))?$/.exec(expr);
    if (ref?.[1] === 'inputs') return input(ref[2]!);
    if (expr === 'steps.state.outputs.dir') return ROOT;
    if (expr === 'steps.upload.outputs.artifact-url') return uploaded ? (opts.artifactUrl ?? '') : '';
    if (ref?.[1] === 'steps' && ref[3]) return outputs[ref[2]!]?.[ref[3]] ?? '';
    throw new Error(`no stand-in for \${{ ${expr} }}`);
  };
  const evaluate = (expression: string) => expression.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => resolve(expr));
  // A step's `if:` as the runner reads it: terms joined by &&, each always() or a reference compared
  // with a string (GitHub compares strings ignoring case, and nothing else: no trimming).
  const condition = (id: string) =>
    (actionStep(id).if ?? '').split('&&').every((term) => {
      term = term.trim();
      if (term === 'always()') return true;
      const cmp = /^(\S+) (==|!=) '([^']*)'$/.exec(term);
      if (!cmp) throw new Error(`no stand-in for if: ${term}`);
      const equal = resolve(cmp[1]!).toLowerCase() === cmp[3]!.toLowerCase();
      return cmp[2] === '==' ? equal : !equal;
    });

  const runStep = async (id: string): Promise<StepRun> => {
    const step = actionStep(id);
    const outputFile = path.join(dir, `output-${id}`);
    fs.writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v)]));
    const result = await execa('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step.run!], {
      cwd: opts.cwd,
      env: baseEnv({
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        RUNNER_TEMP: runnerTemp,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_EVENT_PATH: eventFile,
        ...opts.env,
        ...env,
      }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      all: true,
      timeout: 60_000,
    });
    outputs[id] = parseOutputFile(fs.readFileSync(outputFile, 'utf8'));
    return { code: result.exitCode ?? -1, stdout: String(result.all), outputs: outputs[id]!, env };
  };

  const gate = await runStep('gate');
  // The steps after a failed one are skipped unless their `if:` says always().
  const run = gate.code === 0 ? await runStep('run') : null;
  uploaded = condition('upload');
  const comment = condition('comment') ? await runStep('comment') : null;
  return { gate, run, comment, uploaded, summary: fs.readFileSync(summaryFile, 'utf8') };
}
