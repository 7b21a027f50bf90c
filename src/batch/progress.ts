// Batch progress on stderr. On a terminal: finished targets scroll above a live block (one line per
// running target, then an overall bar with counts and ETA), redrawn in place with ANSI and at most
// every REDRAW_MS. Elsewhere (CI logs): plain lines per start and finish; in GitHub Actions each
// finished target is a collapsible log group.
import type { BatchRow } from './batch-report.js';
import type { LiveEvent } from './event-sniffer.js';
import { plural } from '../util/plural.js';
import { terminalSafe } from '../util/terminal.js';
import { stopCommands } from '../action/workflow-commands.js';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface BatchProgress {
  start(target: string): void;
  event(target: string, event: LiveEvent): void;
  finish(row: BatchRow): void;
  note(message: string): void;
  close(): void;
  /**
   * Takes the live block off the screen and stops redrawing it, leaving the lines printed above
   * it: for a process leaving early (a second Ctrl-C, a crash), so no spinner outlives the batch.
   */
  clear(): void;
}

export interface ProgressOptions {
  sink: ProgressSink;
  /** Targets this invocation will run (resumed ones excluded). */
  total: number;
  concurrency: number;
  githubActions: boolean;
}

const REDRAW_MS = 100;
const TICK_MS = 500;
const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

export function createProgress(opts: ProgressOptions): BatchProgress {
  return opts.sink.isTTY ? new TerminalProgress(opts) : new PlainProgress(opts);
}

function mark(row: BatchRow): string {
  return row.category === 'success' ? '✓' : row.category === 'agent' || row.category === 'handoff' ? '✗' : row.category === 'infrastructure' ? '!' : '-';
}

function verdict(row: BatchRow): string {
  return `${row.status}${row.cause && row.cause !== row.status ? ` (${row.cause})` : ''}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

class Counts {
  done = 0;
  failed = 0;
  private spent = 0;
  constructor(
    readonly total: number,
    readonly concurrency: number,
  ) {}
  add(row: BatchRow): void {
    this.done++;
    if (row.category !== 'success') this.failed++;
    this.spent += row.duration_ms;
  }
  /** Mean run time so far, times the runs left, spread over the workers. */
  etaMs(): number | null {
    if (!this.done) return null;
    const left = this.total - this.done;
    return ((this.spent / this.done) * left) / Math.max(1, Math.min(this.concurrency, left));
  }
}

class PlainProgress implements BatchProgress {
  private readonly counts: Counts;
  constructor(private readonly opts: ProgressOptions) {
    this.counts = new Counts(opts.total, opts.concurrency);
  }
  start(target: string): void {
    this.opts.sink.write(`unattended batch: ▶ ${terminalSafe(target)}\n`);
  }
  event(): void {}
  finish(row: BatchRow): void {
    this.counts.add(row);
    const head = `${mark(row)} ${row.target}: ${verdict(row)} [${this.counts.done}/${this.counts.total}] ${formatDuration(row.duration_ms)}`;
    const details = [
      `exit ${row.exit_code ?? '-'}, ${plural(row.turns, 'turn')}, ${plural(row.tool_calls, 'tool call')}, ${row.tokens.estimated ? 'about ' : ''}${plural(row.tokens.total, 'token')}${row.tokens.estimated ? ' (estimated)' : ''}, ${plural(row.files_changed, 'file')} changed`,
      ...(row.git?.commit ? [`branch ${row.git.branch} at ${row.git.commit.slice(0, 12)}${row.git.pushed ? ', pushed' : ''}`] : []),
      ...(row.error ? [`error: ${row.error.replace(/\n/g, '\n  ')}`] : []),
      ...(row.report ? [`report: ${row.report}`] : []),
    ];
    // A run's error can quote its model or tools: inert before it is printed. In GitHub Actions
    // that takes more than a line of our own: the runner reads `::name::` after leading blanks
    // and `##[name]` anywhere in a line, so the details go out with commands stopped.
    if (this.opts.githubActions) {
      const { stop, resume } = stopCommands();
      this.opts.sink.write(`${terminalSafe(`::group::${head}`).replace(/\n/g, ' ')}\n${stop}${terminalSafe(details.join('\n'))}\n${resume}::endgroup::\n`);
    } else {
      this.opts.sink.write(terminalSafe(`unattended batch: ${head}\n${details.map((d) => `    ${d}\n`).join('')}`));
    }
  }
  note(message: string): void {
    this.opts.sink.write(`unattended batch: ${terminalSafe(message)}\n`);
  }
  close(): void {}
  clear(): void {}
}

interface Running {
  target: string;
  startedAt: number;
  activity: string;
}

class TerminalProgress implements BatchProgress {
  private readonly counts: Counts;
  private readonly running = new Map<string, Running>();
  private readonly startedAt = Date.now();
  private drawnLines = 0;
  private lastDraw = 0;
  private pending: NodeJS.Timeout | null = null;
  private readonly tick: NodeJS.Timeout;
  private frame = 0;
  private closed = false;

  constructor(private readonly opts: ProgressOptions) {
    this.counts = new Counts(opts.total, opts.concurrency);
    this.tick = setInterval(() => this.redraw(), TICK_MS).unref();
  }

  start(target: string): void {
    this.running.set(target, { target, startedAt: Date.now(), activity: 'starting' });
    this.schedule();
  }

  event(target: string, event: LiveEvent): void {
    const r = this.running.get(target);
    if (!r) return;
    r.activity = event.kind === 'turn' ? `turn ${event.turn}` : `${r.activity.split(' · ')[0]} · ${event.name}`;
    this.schedule();
  }

  finish(row: BatchRow): void {
    this.running.delete(row.target);
    this.counts.add(row);
    this.print(`${mark(row)} ${row.target}  ${verdict(row)}  ${formatDuration(row.duration_ms)}${row.error && row.category !== 'success' ? `  ${row.error.split('\n')[0]}` : ''}`);
  }

  note(message: string): void {
    this.print(message);
  }

  close(): void {
    if (this.closed) return;
    this.stop();
    this.redraw();
    this.opts.sink.write('\n');
    this.drawnLines = 0;
  }

  clear(): void {
    if (this.closed) return;
    this.stop();
    this.opts.sink.write(this.erase());
    this.drawnLines = 0;
  }

  private stop(): void {
    this.closed = true;
    clearInterval(this.tick);
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
  }

  /** A permanent line above the live block. */
  private print(line: string): void {
    this.opts.sink.write(`${this.erase()}${this.fit(line)}\n`);
    this.drawnLines = 0;
    if (!this.closed) this.redraw();
  }

  private schedule(): void {
    if (this.pending || this.closed) return;
    const wait = Math.max(0, this.lastDraw + REDRAW_MS - Date.now());
    this.pending = setTimeout(() => {
      this.pending = null;
      this.redraw();
    }, wait);
    this.pending.unref();
  }

  private redraw(): void {
    this.lastDraw = Date.now();
    this.frame = (this.frame + 1) % SPINNER.length;
    const lines = [...this.running.values()].map((r) => `  ${SPINNER[this.frame]} ${r.target}  ${r.activity}  ${formatDuration(Date.now() - r.startedAt)}`);
    lines.push(this.bar());
    this.opts.sink.write(`${this.erase()}${lines.map((l) => this.fit(l)).join('\n')}`);
    this.drawnLines = lines.length;
  }

  private bar(): string {
    const { done, failed, total } = this.counts;
    const width = 24;
    const filled = total ? Math.round((done / total) * width) : width;
    const eta = this.counts.etaMs();
    const parts = [`${done}/${total} done`, `${this.running.size} running`, `${failed} failed`, `elapsed ${formatDuration(Date.now() - this.startedAt)}`];
    if (eta !== null && done < total) parts.push(`ETA ${formatDuration(eta)}`);
    return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${parts.join(' · ')}`;
  }

  /** Moves to the start of the live block and clears it. */
  private erase(): string {
    if (!this.drawnLines) return '\r\x1b[2K';
    return `\r\x1b[2K${'\x1b[1A\x1b[2K'.repeat(this.drawnLines - 1)}`;
  }

  /** One line of ours, its words (targets, errors, tool names) made inert, cut to the terminal's width. */
  private fit(text: string): string {
    const line = terminalSafe(text).replace(/\n/g, ' ');
    const columns = this.opts.sink.columns || 100;
    return line.length > columns - 1 ? `${line.slice(0, columns - 2)}…` : line;
  }
}
