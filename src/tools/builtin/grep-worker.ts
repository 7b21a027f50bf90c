// The line matching behind grep runs in a worker thread: a model-written regular expression can
// backtrack catastrophically, and on the main thread that would freeze the whole run (no
// timeout, no Ctrl-C). A worker is terminated on abort or time-out and the run goes on.
import { Worker } from 'node:worker_threads';
import { BINARY_SNIFF_BYTES } from './common.js';

export const MAX_GREP_FILE_BYTES = 1024 * 1024;
export const MAX_MATCH_LINE_CHARS = 250;

export interface GrepRequest {
  source: string;
  flags: string;
  /** [absolute, workspace-relative] pairs, confined and in output order. */
  files: Array<[string, string]>;
  maxMatches: number;
}

export interface GrepOutcome {
  matches: string[];
  /** Files skipped as binary or too large. */
  skipped: number;
  truncated: boolean;
}

// Plain JavaScript evaluated by the worker: it must not depend on TypeScript or the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { source, flags, files, maxMatches, maxFileBytes, maxLineChars, sniffBytes } = workerData;
const re = new RegExp(source, flags);
const matches = [];
let skipped = 0;
let truncated = false;
scan: for (const [absolute, relative] of files) {
  let bytes;
  try {
    if (fs.statSync(absolute).size > maxFileBytes) { skipped++; continue; }
    bytes = fs.readFileSync(absolute);
  } catch { continue; }
  if (bytes.subarray(0, sniffBytes).includes(0)) { skipped++; continue; }
  const lines = bytes.toString('utf8').split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i])) continue;
    if (matches.length >= maxMatches) { truncated = true; break scan; }
    let text = lines[i].trim();
    if (text.length > maxLineChars) text = text.slice(0, maxLineChars) + '…';
    matches.push(relative + ':' + (i + 1) + ': ' + text);
  }
}
parentPort.postMessage({ matches, skipped, truncated });
`;

/** Rejects with the signal's reason when it aborts first (the worker is terminated). */
export function searchInWorker(request: GrepRequest, signal: AbortSignal): Promise<GrepOutcome> {
  signal.throwIfAborted();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      ...request,
      maxFileBytes: MAX_GREP_FILE_BYTES,
      maxLineChars: MAX_MATCH_LINE_CHARS,
      sniffBytes: BINARY_SNIFF_BYTES,
    },
    // The worker reads files and matches lines: a small heap is plenty, and bounds a bad regex's memory.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return new Promise<GrepOutcome>((resolve, reject) => {
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    worker.once('message', (outcome: GrepOutcome) => {
      settle();
      void worker.terminate();
      resolve(outcome);
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      settle();
      reject(new Error(`grep worker exited with code ${code}`));
    });
  });
}
