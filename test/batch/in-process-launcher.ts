// A batch's targets run by the runner in the test process (batch/launch-run.ts's seam), for cases
// where the child process is not what is tested: each run costs its own work only, not a Node
// start and a load of the bundle (~0.4 s of CPU each on the two-core machine). The run is the
// one `unattended run` would make of the batch's flags (same recipe, params, workspace, outputs,
// limits and environment, stream-json on stdout, stderr to its file).
// Not provided: stopping a run when the batch stops (a child gets SIGTERM); cases that interrupt
// a batch, kill it or need a crash contained keep the child processes.
import fs from 'node:fs';
import type { RunLauncher } from '../../src/batch/launch-run.js';
import { classifyError } from '../../src/cli/errors.js';
import type { RecipeOverrides } from '../../src/recipe/index.js';
import { executeRun } from '../../src/runner/execute-run.js';

export const inProcessLauncher: RunLauncher = async (run) => {
  const overrides: RecipeOverrides = { workspace: run.workspace };
  if (run.timeoutMs !== null) overrides.timeout = `${Math.max(1, Math.floor(run.timeoutMs))}ms`;
  if (run.maxTokens !== null) overrides.maxTokens = Math.max(1, Math.floor(run.maxTokens));
  if (run.maxCostUsd !== null) overrides.maxCostUsd = run.maxCostUsd;
  const result = await executeRun({
    invocation: { cwd: process.cwd(), recipe: run.recipe, params: [...run.params], overrides },
    stdinContext: null,
    outDir: run.outDir,
    format: 'stream-json',
    record: null,
    env: run.env,
    streams: { stdout: run.stdout, stderr: (text) => fs.appendFileSync(run.stderrFile, text) },
    classifySetupError: classifyError,
  });
  return { exitCode: result.exitCode, signal: null };
};
