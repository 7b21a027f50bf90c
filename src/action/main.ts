// Entry of the GitHub Action (action.yml runs it as `node dist/action/main.js`). Inputs come from
// INPUT_* environment variables only; see docs/github-action.md.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runAction } from './run-action.js';
import { command } from './workflow-commands.js';

// This file stays dist/action/main.js in the bundle, so the CLI is always one directory over.
const cliPath = fileURLToPath(new URL('../cli/main.js', import.meta.url));

try {
  process.exitCode = await runAction({ env: process.env, cliPath, log: writeStdoutSync });
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
