// stream-json's promise for a run refused before it had a run directory (an --out that holds a run
// already, a --continue whose run cannot be found, two prompts): a parser written for Claude Code's
// or Qwen Code's stream still reads an `init` first and a `result` last (subtype
// error_during_execution, is_error, the error), not an empty stdout. No transcript: there is no run.
// `--output-format json` likewise prints the report such a run has (status, exit code, error), so a
// script reading `.status` or `.exit_code` from stdout reads the refusal, not nothing.
import { PeerStream, type PeerMessage } from '../report/peer-stream.js';
import { buildReport, reportJson } from '../report/fold.js';
import { Redactor } from '../report/redact.js';
import { newRunId } from '../runner/run-id.js';
import type { RunEvent } from '../types/events.js';
import { classifyError } from './errors.js';

export function streamRefusedRun(error: unknown, cwd: string, write: (text: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  const { runId, start, end } = refusedRun(error, cwd);
  const peers = new PeerStream(runId);
  const redactor = Redactor.fromEnv(env);
  let seq = 0;
  const line = ({ type, ...fields }: PeerMessage) =>
    write(`${redactor.redact(JSON.stringify({ type, ts: new Date().toISOString(), run_id: runId, seq: ++seq, ...fields }))}\n`);
  peers.before(start).forEach(line);
  peers.after(end, () => buildReport([start, end])).forEach(line);
}

/** `--output-format json`: the report of the refused run, as one whose run started would print it. */
export function printRefusedReport(error: unknown, cwd: string, write: (text: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  const { start, end } = refusedRun(error, cwd);
  write(Redactor.fromEnv(env).redact(reportJson(buildReport([start, end]))));
}

function refusedRun(error: unknown, cwd: string): { runId: string; start: RunEvent; end: RunEvent } {
  const started = new Date();
  const runId = newRunId(started);
  const outcome = classifyError(error);
  const start: RunEvent = {
    type: 'run_start',
    run_id: runId,
    started_at: started.toISOString(),
    transcript: '',
    recipe: null,
    recipe_name: 'unnamed',
    provider: 'none',
    model: 'none',
    workspace: cwd,
    prompt: '',
    tools: [],
    policy: { mode: '', allow: [], deny: [] },
    limits: {},
  };
  const end: RunEvent = {
    type: 'run_end',
    status: outcome.status,
    exit_code: outcome.exitCode,
    final_answer: null,
    error: outcome.error,
    error_kind: outcome.errorKind ?? null,
    turns: 0,
    tool_calls: 0,
    usage: { input: 0, output: 0, total: 0 },
    duration_ms: Date.now() - started.getTime(),
  };
  return { runId, start, end };
}

/**
 * The machine format a `run` command line asked for, when it can be read without the parser: one
 * `--output-format json|stream-json` (`=` or the next word) before any `--`. A line the parser
 * refused (a flag given twice, an unknown flag) still prints its refusal in that format, as a line
 * refused after parsing does; null for text, no command `run`, or a format given twice or unknown.
 */
export function requestedMachineFormat(argv: readonly string[], isRun: boolean): 'json' | 'stream-json' | null {
  if (!isRun) return null;
  const given: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const flag = /^--(?:output-format|outputFormat)(?:=(.*))?$/s.exec(word);
    if (!flag) continue;
    given.push(flag[1] ?? argv[i + 1] ?? '');
  }
  if (given.length !== 1) return null;
  return given[0] === 'json' || given[0] === 'stream-json' ? given[0] : null;
}

/** The refusal of a run that never started, on stdout in `format` (the error itself goes to stderr). */
export function printRefusal(format: 'json' | 'stream-json', error: unknown, cwd: string, write: (text: string) => void): void {
  if (format === 'stream-json') streamRefusedRun(error, cwd, write);
  else printRefusedReport(error, cwd, write);
}
