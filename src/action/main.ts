// Entry of the GitHub Action. action.yml runs it three times, as three steps: `main.js gate`
// (may the person who triggered the event start a run?), `main.js` (the run), `main.js comment`
// (answer on the issue or pull request). Inputs come from INPUT_* environment variables only;
// see docs/github-action.md.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commentStep, gateStep } from './github-steps.js';
import { runAction } from './run-action.js';
import { command } from './workflow-commands.js';

// This file stays dist/action/main.js in the bundle, so the CLI's launcher (the installed command,
// package.json "bin") is always one directory over.
const cliPath = fileURLToPath(new URL('../cli/unattended.cjs', import.meta.url));

try {
  const step = process.argv[2];
  const ctx = { env: process.env, log: writeStdoutSync };
  if (step === 'gate') process.exitCode = await gateStep(ctx);
  else if (step === 'comment') process.exitCode = await commentStep(ctx);
  else if (step === undefined) process.exitCode = await runAction({ ...ctx, cliPath });
  else throw new Error(`unknown step "${step}" (expected gate, comment or none)`);
} catch (error) {
  // The action's own failure (RUNNER_TEMP not writable, ...): say so as an annotation, fail.
  writeStdoutSync(command('error', error instanceof Error ? error.message : String(error), { title: 'unattended action: unexpected error' }));
  process.exitCode = 1;
}

/** Synchronous, so these lines and the child's (which shares fd 1) keep their order. */
function writeStdoutSync(text: string): void {
  let buffer = Buffer.from(text);
  while (buffer.length > 0) {
    try {
      buffer = buffer.subarray(fs.writeSync(1, buffer));
    } catch (error) {
      // A non-blocking pipe that is full: wait for the reader, briefly and without spinning hot.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}
