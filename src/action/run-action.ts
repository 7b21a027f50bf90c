// The action's step from start to end: mask the key, run `unattended run` as a child process
// inside a log group, then turn report.json into outputs, annotations and the step's exit code.
// The CLI writes report.md to $GITHUB_STEP_SUMMARY itself; this step writes it only when the run
// left no report at all.
import { ExitCode } from '../types/outcome.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Report } from '../report/report.js';
import { InputError } from '../types/errors.js';
import { ActionInputError, rawInput, readInputs, type ActionInputs } from './inputs.js';
import { buildInvocation } from './invocation.js';
import { secretlessReason } from './secretless-event.js';
import { appendStepSummary, writeStepOutputs } from './step-files.js';
import { emptyOutputs, stepResult } from './step-result.js';
import { command, maskCommands, stopCommands } from './workflow-commands.js';

/** Bad input: the DESIGN.md exit code for flags, stdin and parameters. */

export interface ActionContext {
  env: NodeJS.ProcessEnv;
  /** dist/cli/unattended.cjs of this action's own checkout. */
  cliPath: string;
  /** Synchronous writes to the step's log: ordering against the child's output matters. */
  log: (text: string) => void;
}

export async function runAction(ctx: ActionContext): Promise<number> {
  const { env, log } = ctx;
  // Before anything else is printed, even an input error that might quote the value.
  const rawKey = rawInput(env, 'api-key');
  if (rawKey) log(maskCommands(rawKey));

  let inputs: ActionInputs;
  try {
    inputs = readInputs(env);
    if (inputs.stdinFile && !isReadableFile(inputs.stdinFile)) throw new ActionInputError(`stdin-file: cannot read "${inputs.stdinFile}"`);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    log(command('error', error.message, { title: 'unattended: bad action input' }));
    writeStepOutputs(env, emptyOutputs('error', ExitCode.badInput, ''), log);
    return ExitCode.badInput;
  }

  const runsDir = path.join(env.RUNNER_TEMP || os.tmpdir(), 'unattended');
  let outDir: string;
  try {
    fs.mkdirSync(runsDir, { recursive: true });
    outDir = fs.mkdtempSync(path.join(runsDir, 'run-'));
  } catch (error) {
    // An unwritable output directory is bad input (exit 42), as `unattended run --out` has it.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    const where = env.RUNNER_TEMP ? `RUNNER_TEMP ${env.RUNNER_TEMP}` : `the temporary directory ${os.tmpdir()}`;
    log(command('error', `cannot make the run's directory in ${runsDir}: ${code}; ${where} must be a directory the job can write (leave RUNNER_TEMP as the runner sets it)`, { title: "unattended action: no run directory" }));
    writeStepOutputs(env, emptyOutputs('error', ExitCode.badInput, ''), log);
    return ExitCode.badInput;
  }
  const invocation = await buildInvocation(inputs, env, { cli: ctx.cliPath, outDir });

  log(command('group', `unattended run ${inputs.recipe ?? '(ad-hoc prompt)'}`));
  const { stop, resume } = stopCommands();
  log(stop);
  const cliExitCode = await runChild(invocation.args, invocation.env, inputs.stdinFile);
  log(resume);
  log('::endgroup::\n');

  const report = readReport(outDir);
  // On Vertex AI (google-github-actions/auth) no key is given, and none is missing.
  const vertex = env.GOOGLE_GENAI_USE_VERTEXAI?.trim().toLowerCase() === 'true';
  const result = stepResult(report, { cliExitCode, outDir, apiKeyGiven: inputs.apiKey !== null || vertex, secretless: inputs.apiKey === null ? secretlessReason(env) : null });
  if (!report) appendStepSummary(env, `# ❌ unattended: run error (exit ${result.exitCode})\n\nThe run left no report; see the step's log.\n`, log);
  log(result.annotations);
  // Later steps read the outputs: a run that succeeded but could not say so fails the step, as a
  // report that cannot be written fails a run (exit 54); a failed run keeps its own code.
  const written = writeStepOutputs(env, result.outputs, log);
  return written || result.exitCode !== ExitCode.success ? result.exitCode : ExitCode.fatalTool;
}

function runChild(args: string[], env: Record<string, string>, stdinFile: string | null): Promise<number> {
  return new Promise((resolve) => {
    const stdin = stdinFile ? fs.openSync(stdinFile, 'r') : 'ignore';
    // The child's stderr joins stdout: through one pipe, nothing it prints can reach the runner
    // after the line that resumes command processing.
    const child = spawn(process.execPath, args, { env, stdio: [stdin, 1, 1] });
    if (typeof stdin === 'number') fs.closeSync(stdin);
    // A cancelled job signals this process; the CLI winds down (report written, 130/143).
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (code: number) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code);
    };
    child.on('error', (error) => {
      process.stderr.write(`unattended action: could not start the CLI: ${error.message}\n`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal === 'SIGTERM' ? 143 : signal === 'SIGINT' ? 130 : 1)));
  });
}

function readReport(outDir: string): Report | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, 'report.json'), 'utf8')) as Report;
  } catch {
    return null;
  }
}

function isReadableFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
