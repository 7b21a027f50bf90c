// The line matching behind grep runs in worker threads: a model-written regular expression can
// backtrack catastrophically, and on the main thread that would freeze the whole run (no
// timeout, no Ctrl-C). Workers are terminated on abort or time-out and the run goes on.
// Files come in numbered batches while the walk goes on (a 200,000-file tree is walked and
// searched at once without holding every path in memory) and are spread over one worker per core
// (up to MAX_GREP_THREADS), so the search of a big tree uses every core. Each batch's results come
// back on their own and are merged strictly in batch order, so the output, the cap and the counts
// are exactly those of one thread reading the files in walk order; a search stopped by its time
// limit still says what it found in the files before the first batch not yet back.
// worker_threads is loaded by the first search that reads a file, not at start-up: most runs never
// grep, and a run's first model request should not wait for modules it may never use. A pattern
// that is plain text cannot backtrack: its first BYTES_SEARCHED_HERE are searched on this thread,
// with the workers' own code, and a search that ends within them (most: ripgrep hands over only
// the files with a match) starts no worker at all.
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { BINARY_SNIFF_BYTES, hasNulByte, readHead } from './common.js';
import { holdLinearFallback } from './regexp-fallback.js';

export const MAX_GREP_FILE_BYTES = 1024 * 1024;
export const MAX_MATCH_LINE_CHARS = 250;
/** More threads than this only contend for the disk and the page cache. */
export const MAX_GREP_THREADS = 4;

export interface GrepPattern {
  source: string;
  flags: string;
  /** The Unicode forms a line is also matched in (grep-unicode-forms.ts). */
  forms?: Array<'NFC' | 'NFD'>;
  /** For a pattern with a look-around or back-reference: a superset a line must match first (grep-prefilter.ts). */
  prefilter?: { source: string; flags: string } | null;
  maxMatches: number;
  /**
   * A binary file is searched too, and said to match or not, its lines never shown: set when the
   * search is of one file the call named, as ripgrep and grep say 'binary file matches' of it.
   */
  searchBinary?: boolean;
}

export interface GrepOutcome {
  matches: string[];
  /** The workspace-relative file of each match, in the same order. */
  matchFiles: string[];
  /** Files skipped as binary or too large (and binary files searched as searchBinary asks). */
  skipped: number;
  /** Binary files searched (searchBinary) that hold a match, workspace-relative. */
  binaryMatches?: string[];
  /** Of those, the files over MAX_GREP_FILE_BYTES: not searched, so a search without a match is no "not found". */
  tooLarge: number;
  /** The first of them (TOO_LARGE_NAMED), workspace-relative, for the note that names them. */
  tooLargeNames: string[];
  /** Files searched (read and matched line by line). */
  searched: number;
  /** Stopped at maxMatches. */
  truncated: boolean;
  /** Files that could not be read, workspace-relative, with the error's code, in walk order. */
  unreadable: Array<[string, string]>;
}

/**
 * What became of one file: 0 unreadable (or not reached), 1 searched, 2 skipped as binary (or, with
 * searchBinary, binary without a match), 3 skipped as too large, 4 binary with a match (searchBinary).
 */
export type FileStatus = 0 | 1 | 2 | 3 | 4;

/** Files over the size limit a result names; the rest are counted. */
export const TOO_LARGE_NAMED = 10;

/** What a worker found in one batch. */
interface BatchResult {
  seq: number;
  /** A worker's word on the files of a batch it is still scanning, up to its last file with a match. */
  progress?: true;
  /** The batch's workspace-relative paths (set on this thread: a worker does not send them back). */
  names?: string[];
  status: FileStatus[];
  /** Index in the batch of the file each match is in, and the match's output line. */
  matchFile: number[];
  matchText: string[];
  /** Index in the batch and error code of each file that could not be read, in order. */
  failed: Array<[number, string]>;
}

/** A character that gives a pattern regular-expression syntax, or U+FFFD (see `literal` below). */
export const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|\uFFFD]/;

// The scan of a batch of files, in plain JavaScript: a worker evaluates it, and so does this thread
// for a plain-text pattern (see GrepSearch), so both search alike. It must not depend on
// TypeScript or the build. A batch stops after maxMatches + 1 matches: no more of it can be shown,
// and the extra one tells the merge that the cap was passed; or, given a byte budget, before the
// first file past it (`count` says how many files it covered).
const SCANNER_SOURCE = `
function makeScanner(fs, isAscii, { source, flags, forms = [], prefilter, maxMatches, maxFileBytes, maxLineChars, sniffBytes, searchBinary = false }) {
  const re = new RegExp(source, flags);
  // A line the superset does not match is not matched with the pattern, which could backtrack on
  // it beyond the linear engine's reach (grep-prefilter.ts).
  const pre = prefilter ? new RegExp(prefilter.source, prefilter.flags) : null;
  // A pattern that spells an accented letter also matches a line in its own Unicode form
  // (grep-unicode-forms.ts): the line read decomposed or composed as the pattern is written.
  const inForms = (regex, text) => {
    for (const form of forms) {
      const other = text.normalize(form);
      if (other !== text && regex.test(other)) return true;
    }
    return false;
  };
  // The whole text first, in multiline mode: a file where even that finds nothing (most files) is
  // never split into lines. Without look-arounds a match on a line is a match in the text (^, $
  // and \\b see a line break where a line has its start or end), so this skips no file with a match.
  // The superset, where there is one, has no look-around either, and cannot backtrack past the linear engine.
  const whole = pre ? new RegExp(pre.source, pre.flags + 'm') : /\\(\\?<?[=!]/.test(source) ? null : new RegExp(source, flags + 'm');
  // A pattern that is plain text (no regular-expression syntax, case kept) is first looked for as
  // bytes: a file whose bytes do not hold its UTF-8 form cannot match once decoded (decoding only
  // adds U+FFFD, which such a pattern does not hold), so it is never decoded, the bulk of the work.
  const literal = flags === '' && !${REGEX_SYNTAX}.test(source) ? Buffer.from(source, 'utf8') : null;
  // One buffer per scanner, read into directly: no stat and no allocation per file (both cost
  // more than reading a small file). A file that fills it past maxFileBytes is over the limit.
  const buffer = Buffer.allocUnsafe(maxFileBytes + 1);
  function readCapped(absolute) {
    const fd = fs.openSync(absolute, 'r');
    try {
      let got = 0;
      for (let n = 1; n > 0 && got < buffer.length; got += n) n = fs.readSync(fd, buffer, got, buffer.length - got, null);
      return got > maxFileBytes ? -1 : got;
    } finally {
      fs.closeSync(fd);
    }
  }
  return function scan(files, byteBudget, onMatches) {
    const status = [];
    const matchFile = [];
    const matchText = [];
    const failed = [];
    let bytes = 0;
    let f = 0;
    reading: for (; f < files.length && bytes < byteBudget; f++) {
      const [absolute, relative] = files[f];
      status.push(0);
      let size;
      try {
        size = readCapped(absolute);
      } catch (error) { failed.push([f, String(error && error.code)]); continue; }
      bytes += size < 0 ? maxFileBytes : size;
      if (size < 0) { status[f] = 3; continue; }
      const binary = buffer.subarray(0, Math.min(size, sniffBytes)).includes(0);
      if (binary && !searchBinary) { status[f] = 2; continue; }
      status[f] = binary ? 2 : 1;
      // Text of ASCII alone reads the same in every form.
      if (literal && buffer.subarray(0, size).indexOf(literal) < 0 && (forms.length === 0 || isAscii(buffer.subarray(0, size)))) continue;
      const text = buffer.toString('utf8', 0, size);
      if (whole && !whole.test(text) && !inForms(whole, text)) continue;
      const lines = text.split('\\n');
      if (lines[lines.length - 1] === '') lines.pop();
      // A line ends before its \\r\\n as before its \\n: $ matches there (grep-pattern.ts).
      const crlf = text.includes('\\r');
      for (let i = 0; i < lines.length; i++) {
        const line = crlf && lines[i].endsWith('\\r') ? lines[i].slice(0, -1) : lines[i];
        if (pre && !pre.test(line) && (forms.length === 0 || !inForms(pre, line))) continue;
        if (!re.test(line) && (forms.length === 0 || !inForms(re, line))) continue;
        // A binary file matches, or not: its lines are not shown.
        if (binary) { status[f] = 4; break; }
        let text = line.trim();
        if (text.length > maxLineChars) text = text.slice(0, maxLineChars) + '…';
        matchFile.push(f);
        matchText.push(relative + ':' + (i + 1) + ': ' + text);
        if (matchText.length > maxMatches) { f = files.length; break reading; }
      }
      if (onMatches && matchFile.length > 0 && matchFile[matchFile.length - 1] === f) onMatches(status, matchFile, matchText, failed);
    }
    while (status.length < f) status.push(0);
    return { count: f, bytes, status, matchFile, matchText, failed };
  };
}
`;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${SCANNER_SOURCE}
const scan = makeScanner(require('node:fs'), require('node:buffer').isAscii, workerData);
parentPort.on('message', ({ seq, files }) => {
  // After each file with a match, what is new since the last such word: a search stopped while a
  // later file holds this worker (a pattern backtracking there) keeps what it found before.
  let sent = { status: 0, match: 0, failed: 0 };
  const { status, matchFile, matchText, failed } = scan(files, Infinity, (status, matchFile, matchText, failed) => {
    parentPort.postMessage({ seq, progress: true, status: status.slice(sent.status), matchFile: matchFile.slice(sent.match), matchText: matchText.slice(sent.match), failed: failed.slice(sent.failed) });
    sent = { status: status.length, match: matchText.length, failed: failed.length };
  });
  parentPort.postMessage({ seq, status, matchFile, matchText, failed });
});
`;

interface ScanSettings extends GrepPattern {
  maxFileBytes: number;
  maxLineChars: number;
  sniffBytes: number;
}

type Scan = (files: Array<[string | Buffer, string]>, byteBudget: number) => Omit<BatchResult, 'seq'> & { count: number; bytes: number };

type MakeScanner = (filesystem: typeof fs, ascii: typeof isAscii, s: ScanSettings) => Scan;
let makeScannerHere: MakeScanner | undefined;

/** The scanner on this thread: the same source the workers run, compiled once per process. */
function scannerHere(settings: ScanSettings): Scan {
  // Our own constant source, the one the workers evaluate: never text from a call.
  makeScannerHere ??= new Function(`${SCANNER_SOURCE}\nreturn makeScanner;`)() as MakeScanner;
  return makeScannerHere(fs, isAscii, settings);
}

/**
 * How much of a search runs on this thread, before any worker starts, when its pattern is plain
 * text (nothing REGEX_SYNTAX names, with or without (?i)): such a pattern cannot backtrack, so it
 * cannot hold the run. Starting a worker costs ~40 ms of CPU and wall time, more than reading this
 * much; a bigger search goes on in workers, on every core.
 */
export const BYTES_SEARCHED_HERE = 4 * 1024 * 1024;

/**
 * The worker's verdict on a file that needs no reading of its lines, on this thread: 3 when it is
 * over MAX_GREP_FILE_BYTES, 2 when it has a NUL in its first BINARY_SNIFF_BYTES, 0 when it cannot be
 * read, or null when it is text that a worker must search. Costs a stat and one small read, far
 * less than starting a worker (~40 ms of CPU) for the binary and large files ripgrep leaves out.
 */
export function judgeUnread(absolute: string | Buffer): FileStatus | null {
  try {
    if (fs.statSync(absolute).size > MAX_GREP_FILE_BYTES) return 3;
    return hasNulByte(readHead(absolute)) ? 2 : null;
  } catch {
    return 0;
  }
}

/** Files queued on every worker before another starts: one walk batch (grep.ts FILES_PER_BATCH). */
const BACKLOG_FOR_ANOTHER_THREAD = 256;

/** Worker threads a search may use: one per core, at most MAX_GREP_THREADS. */
export function grepThreads(): number {
  return Math.max(1, Math.min(os.availableParallelism(), MAX_GREP_THREADS));
}

interface WorkerSlot {
  worker: Worker;
  /** Files handed to it whose batch has not come back yet. */
  pendingFiles: number;
}

/** One search: feed it files with add(), then finish(); abort terminates the workers. */
export class GrepSearch {
  private readonly workers: WorkerSlot[] = [];
  private readonly outcome: GrepOutcome = { matches: [], matchFiles: [], skipped: 0, tooLarge: 0, tooLargeNames: [], searched: 0, truncated: false, unreadable: [] };
  /** The workspace-relative paths of each batch sent to a worker, until it is merged. */
  private readonly names = new Map<number, string[]>();
  /** Results that came back before an earlier batch: merged when their turn comes. */
  private readonly waiting = new Map<number, BatchResult>();
  /** What workers said so far of batches they are still scanning (see WORKER_SOURCE). */
  private readonly progress = new Map<number, BatchResult>();
  private sent = 0;
  private merged = 0;
  /** This thread's scanner while the pattern is plain text and the budget lasts, else null. */
  private here: Scan | null;
  private bytesLeftHere = BYTES_SEARCHED_HERE;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private stopped = false;
  /** Lets go of V8's linear fallback, held while this search has workers (regexp-fallback.ts). */
  private releaseFallback: (() => void) | null = null;
  private readonly onAbort = () => this.fail(this.signal.reason);

  constructor(
    private readonly pattern: GrepPattern,
    private readonly signal: AbortSignal,
    private readonly maxThreads = grepThreads(),
  ) {
    signal.throwIfAborted();
    signal.addEventListener('abort', this.onAbort, { once: true });
    this.here = REGEX_SYNTAX.test(pattern.source) ? null : scannerHere(this.settings());
    // No worker yet: the first file to read starts one (the pattern was compiled on this thread
    // already), so a search whose files are all judged without reading them starts none.
  }

  /** True once enough matches are found: the caller stops walking. */
  get full(): boolean {
    return this.outcome.truncated;
  }

  /** Worker threads started so far. */
  get threads(): number {
    return this.workers.length;
  }

  /**
   * What was found so far (all of it after finish()). For a search stopped at its time limit, that
   * includes the files of the next batch its worker got through before the file it is still on (a
   * pattern backtracking in one file must not lose the matches beside it, which ripgrep keeps).
   */
  get partial(): GrepOutcome {
    const started = this.progress.get(this.merged);
    if (started && !this.outcome.truncated) {
      this.progress.delete(this.merged);
      this.terminate();
      this.mergeBatch(started);
    }
    return this.outcome;
  }

  /** [absolute, workspace-relative] pairs, confined and in output order. */
  add(files: Array<[string | Buffer, string]>): void {
    if (files.length === 0 || this.failure || this.outcome.truncated) return;
    if (this.here) {
      const { count, bytes, ...found } = this.here(files, this.bytesLeftHere);
      this.bytesLeftHere -= bytes;
      if (this.bytesLeftHere <= 0) this.here = null;
      this.waiting.set(this.sent, { seq: this.sent++, ...found, names: files.slice(0, count).map((file) => file[1]) });
      this.mergeInOrder();
      files = files.slice(count);
      if (files.length === 0 || this.outcome.truncated) return;
    }
    // The least busy worker takes it; another starts only while every one has a backlog worth a
    // thread: starting one costs ~40-100 ms of CPU, reading a hundred small files a few ms.
    let target = this.workers.length === 0 ? this.spawn() : this.workers.reduce((a, b) => (b.pendingFiles < a.pendingFiles ? b : a));
    if (target.pendingFiles >= BACKLOG_FOR_ANOTHER_THREAD && this.workers.length < this.maxThreads) target = this.spawn();
    target.pendingFiles += files.length;
    this.names.set(this.sent, files.map((file) => file[1]));
    target.worker.postMessage({ seq: this.sent++, files });
  }

  /**
   * Files already judged without a worker (see judgeUnread), next in output order, and their
   * workspace-relative names: their statuses count as a batch of their own, merged in turn like any other.
   */
  addJudged(status: FileStatus[], names: string[]): void {
    if (status.length === 0 || this.failure || this.outcome.truncated) return;
    this.waiting.set(this.sent, { seq: this.sent++, status, matchFile: [], matchText: [], failed: [], names });
    this.mergeInOrder();
  }

  /** Waits for every batch; rejects with the abort reason or a worker's failure. */
  async finish(): Promise<GrepOutcome> {
    try {
      while (this.merged < this.sent && !this.outcome.truncated && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.failure) throw this.failure;
      return this.outcome;
    } finally {
      this.stop();
    }
  }

  /** Ends the workers; what was found so far stays readable through `partial`. */
  stop(): void {
    this.stopped = true;
    this.signal.removeEventListener('abort', this.onAbort);
    this.terminate();
  }

  private terminated = false;

  private terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    for (const { worker } of this.workers) void worker.terminate();
    this.releaseFallback?.();
  }

  private spawn(): WorkerSlot {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    // Before the worker compiles the pattern: V8 reads the flag then.
    if (!this.terminated) this.releaseFallback ??= holdLinearFallback();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: this.settings(),
      // A worker reads files and matches lines: a small heap is plenty, and bounds a bad regex's memory.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const slot: WorkerSlot = { worker, pendingFiles: 0 };
    worker.on('message', (batch: BatchResult) => {
      if (batch.progress) return this.noteProgress(batch);
      this.progress.delete(batch.seq);
      slot.pendingFiles -= batch.status.length;
      batch.names = this.names.get(batch.seq);
      this.names.delete(batch.seq);
      this.waiting.set(batch.seq, batch);
      this.mergeInOrder();
      this.notify();
    });
    worker.once('error', (error) => this.fail(error));
    worker.once('exit', (code) => this.fail(new Error(`grep worker exited with code ${code}`)));
    this.workers.push(slot);
    return slot;
  }

  /** Adds a worker's word on a batch it is still scanning to what it said before. */
  private noteProgress(delta: BatchResult): void {
    const names = this.names.get(delta.seq);
    if (!names) return;
    const sofar = this.progress.get(delta.seq) ?? { seq: delta.seq, status: [], matchFile: [], matchText: [], failed: [], names };
    sofar.status.push(...delta.status);
    sofar.matchFile.push(...delta.matchFile);
    sofar.matchText.push(...delta.matchText);
    sofar.failed.push(...delta.failed);
    this.progress.set(delta.seq, sofar);
  }

  private settings(): ScanSettings {
    return { ...this.pattern, maxFileBytes: MAX_GREP_FILE_BYTES, maxLineChars: MAX_MATCH_LINE_CHARS, sniffBytes: BINARY_SNIFF_BYTES };
  }

  private mergeInOrder(): void {
    for (let batch = this.waiting.get(this.merged); batch && !this.outcome.truncated; batch = this.waiting.get(this.merged)) {
      this.waiting.delete(this.merged++);
      this.mergeBatch(batch);
    }
    if (this.outcome.truncated && this.waiting.size > 0) this.waiting.clear();
    if (this.outcome.truncated) this.names.clear();
    if (this.outcome.truncated) this.terminate();
  }

  /** Counts and matches file by file, stopping at the match past the cap, as one thread would. */
  private mergeBatch(batch: BatchResult): void {
    let m = 0;
    let failure = 0;
    for (let f = 0; f < batch.status.length; f++) {
      if (batch.status[f] === 1) this.outcome.searched++;
      else if (batch.status[f] === 2) this.outcome.skipped++;
      else if (batch.status[f] === 4) {
        this.outcome.skipped++;
        (this.outcome.binaryMatches ??= []).push(batch.names![f]!);
      }
      else if (batch.status[f] === 3) {
        this.outcome.skipped++;
        if (this.outcome.tooLarge++ < TOO_LARGE_NAMED) this.outcome.tooLargeNames.push(batch.names![f]!);
      }
      for (; failure < batch.failed.length && batch.failed[failure]![0] === f; failure++) this.outcome.unreadable.push([batch.names![f]!, batch.failed[failure]![1]]);
      for (; m < batch.matchFile.length && batch.matchFile[m] === f; m++) {
        if (this.outcome.matches.length >= this.pattern.maxMatches) {
          this.outcome.truncated = true;
          return;
        }
        this.outcome.matches.push(batch.matchText[m]!);
        this.outcome.matchFiles.push(batch.names![f]!);
      }
    }
  }

  private fail(error: unknown): void {
    // A worker ended because the cap was reached (or the search was stopped) is no failure.
    if (this.failure || this.stopped || this.outcome.truncated) return;
    this.failure = error;
    this.terminate();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
