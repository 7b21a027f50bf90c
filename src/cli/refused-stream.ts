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
