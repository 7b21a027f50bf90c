// The line matching behind grep runs in a worker thread: a model-written regular expression can
// backtrack catastrophically, and on the main thread that would freeze the whole run (no
// timeout, no Ctrl-C). A worker is terminated on abort or time-out and the run goes on.
// Files are streamed to it in batches while the walk goes on (a 200,000-file tree is walked and
// searched at once, on two threads, without holding every path in memory), and each batch's
// matches come back as they are found, so a search stopped by its time limit still says what it
// found and how far it got.
import { Worker } from 'node:worker_threads';
import { BINARY_SNIFF_BYTES } from './common.js';

export const MAX_GREP_FILE_BYTES = 1024 * 1024;
export const MAX_MATCH_LINE_CHARS = 250;

export interface GrepPattern {
  source: string;
  flags: string;
  maxMatches: number;
}

export interface GrepOutcome {
  matches: string[];
  /** Files skipped as binary or too large. */
  skipped: number;
  /** Files searched (read and matched line by line). */
  searched: number;
  /** Stopped at maxMatches. */
  truncated: boolean;
}

// Plain JavaScript evaluated by the worker: it must not depend on TypeScript or the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { source, flags, maxMatches, maxFileBytes, maxLineChars, sniffBytes } = workerData;
const re = new RegExp(source, flags);
let found = 0;
let full = false;
parentPort.on('message', (files) => {
  const matches = [];
  let skipped = 0;
  let searched = 0;
  scan: for (const [absolute, relative] of files) {
    if (full) break;
    let bytes;
    try {
      if (fs.statSync(absolute).size > maxFileBytes) { skipped++; continue; }
      bytes = fs.readFileSync(absolute);
    } catch { continue; }
    if (bytes.subarray(0, sniffBytes).includes(0)) { skipped++; continue; }
    searched++;
    const lines = bytes.toString('utf8').split('\\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      if (found >= maxMatches) { full = true; break scan; }
      let text = lines[i].trim();
      if (text.length > maxLineChars) text = text.slice(0, maxLineChars) + '…';
      matches.push(relative + ':' + (i + 1) + ': ' + text);
      found++;
    }
  }
  parentPort.postMessage({ matches, skipped, searched, full });
});
`;

/** One search: feed it files with add(), then finish(); abort terminates the worker. */
export class GrepSearch {
  private readonly worker: Worker;
  private readonly outcome: GrepOutcome = { matches: [], skipped: 0, searched: 0, truncated: false };
  private pending = 0;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private stopped = false;
  private readonly onAbort = () => this.fail(this.signal.reason);

  constructor(
    pattern: GrepPattern,
    private readonly signal: AbortSignal,
  ) {
    signal.throwIfAborted();
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...pattern, maxFileBytes: MAX_GREP_FILE_BYTES, maxLineChars: MAX_MATCH_LINE_CHARS, sniffBytes: BINARY_SNIFF_BYTES },
      // The worker reads files and matches lines: a small heap is plenty, and bounds a bad regex's memory.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.worker.on('message', (batch: { matches: string[]; skipped: number; searched: number; full: boolean }) => {
      this.pending--;
      this.outcome.matches.push(...batch.matches);
      this.outcome.skipped += batch.skipped;
      this.outcome.searched += batch.searched;
      if (batch.full) this.outcome.truncated = true;
      this.notify();
    });
    this.worker.once('error', (error) => this.fail(error));
    this.worker.once('exit', (code) => this.fail(new Error(`grep worker exited with code ${code}`)));
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** True once enough matches are found: the caller stops walking. */
  get full(): boolean {
    return this.outcome.truncated;
  }

  /** What was found so far (all of it after finish()). */
  get partial(): GrepOutcome {
    return this.outcome;
  }

  /** [absolute, workspace-relative] pairs, confined and in output order. */
  add(files: Array<[string, string]>): void {
    if (files.length === 0 || this.failure) return;
    this.pending++;
    this.worker.postMessage(files);
  }

  /** Waits for every batch; rejects with the abort reason or the worker's failure. */
  async finish(): Promise<GrepOutcome> {
    try {
      while (this.pending > 0 && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.failure) throw this.failure;
      return this.outcome;
    } finally {
      this.stop();
    }
  }

  /** Ends the worker; what was found so far stays readable through `partial`. */
  stop(): void {
    this.stopped = true;
    this.signal.removeEventListener('abort', this.onAbort);
    void this.worker.terminate();
  }

  private fail(error: unknown): void {
    if (this.failure || this.stopped) return;
    this.failure = error;
    void this.worker.terminate();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
