// The run output directory, created before anything else so every exit can leave its report.
import { InputError } from '../types/errors.js';
import fs from 'node:fs';
import path from 'node:path';

export class OutputDirError extends InputError {
  constructor(dir: string, cause: unknown) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message ?? String(cause);
    super(`cannot write the run outputs to ${dir} (${reason}); choose a writable directory with --out DIR`);
  }
}

/**
 * Creates `dir` one missing component at a time, from its nearest existing ancestor. Not
 * mkdirSync's recursive mode: on some pseudo file systems (/proc) that never returns.
 * Then proves the directory writable, so a failure is reported here, once, clearly.
 */
export function ensureOutputDir(dir: string): void {
  try {
    const missing: string[] = [];
    let current = dir;
    while (!fs.existsSync(current)) {
      missing.unshift(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    for (const part of missing) fs.mkdirSync(part);
    fs.accessSync(dir, fs.constants.W_OK);
    if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    throw new OutputDirError(dir, error);
  }
}
