// `unattended report RUN_DIR|TRANSCRIPT`: the report re-rendered from a transcript alone, by the
// same fold the run used, so its JSON is the run's report.json. Secrets are redacted again with
// this environment's values (the transcript already is, with the run's).
import fs from 'node:fs';
import path from 'node:path';
import { NO_RUN_END, reportJson } from '../../report/fold.js';
import { rebuildReport } from '../../report/read-transcript.js';
import { Redactor } from '../../report/redact.js';
import { renderMarkdown } from '../../report/render-markdown.js';
import { InputError } from '../../types/errors.js';
import { ExitCode } from '../../types/outcome.js';
import { terminalSafe } from '../../util/terminal.js';
import { writeOutputFile, type OutputInput } from '../../util/user-output.js';
import { invocationInputs } from '../../runner/invocation-inputs.js';
import { parseInvocation } from '../../runner/invocation.js';
import { notARunDirHint } from '../../util/not-a-run-dir.js';
import { liveRunIn } from '../../runner/live-run.js';

export interface ReportArgs {
  source: string;
  format: 'md' | 'json';
  out: string | null;
}

export async function reportCommand(a: ReportArgs): Promise<number> {
  const transcript = transcriptOf(a.source);
  // A run still starting (its MCP servers coming up) has an empty transcript until its run_start.
  const starting = fs.statSync(transcript).size === 0 ? liveRunIn(path.dirname(transcript)) : null;
  if (starting !== null) throw new InputError(`${transcript} is empty: the run is still going (pid ${starting}) and has recorded nothing yet`, 'ask again once it has started');
  const { report, skippedLines, skippedExamples } = await rebuildReport(transcript);
  // A run still going has no run_end yet: its report reads `error`, "ends before the run did", which is no failure.
  const live = report.status === 'error' && report.error?.startsWith(NO_RUN_END) === true && liveRunIn(path.dirname(transcript));
  if (live) {
    process.stderr.write(`unattended: the run is still going (pid ${live}): this report shows what it recorded so far, with status error until it ends\n`);
    // The report itself says so too: its `error` read as a crash ("ends before the run did") to a
    // script or a reader of the file, who never sees stderr.
    report.error = `the run is still going (pid ${live}): this report shows what it recorded so far, with status error until it ends`;
  }
  if (skippedLines > 0) {
    const more = skippedLines > skippedExamples.length ? `, and ${skippedLines - skippedExamples.length} more` : '';
    process.stderr.write(terminalSafe(`unattended: skipped ${skippedLines} line(s) of ${transcript} that are not events: ${skippedExamples.join(', ')}${more}\n`));
  }
  let rendered: string;
  try {
    rendered = a.format === 'json' ? reportJson(report) : renderMarkdown(report);
  } catch (error) {
    throw new InputError(`cannot render the report of ${transcript}: an event has a field of an unexpected type (${(error as Error).message})`, 'the transcript was changed after the run, or written by another version');
  }
  const text = Redactor.fromEnv(process.env).redact(rendered);
  if (a.out === null) {
    // Markdown for a person quotes the model and its tools: inert on a terminal. JSON escapes them itself.
    process.stdout.write(a.format === 'md' ? terminalSafe(text) : text);
    return ExitCode.success;
  }
  writeOutputFile(a.out, text, '--out', [{ file: transcript, what: 'the transcript' }, otherReportOf(transcript, a.format), ...runInputsOf(transcript)]);
  return ExitCode.success;
}

/**
 * The run's own report in the other format: Markdown written over report.json (or JSON over
 * report.md) would lose it. The same format over its own file is a re-render, and allowed.
 */
function otherReportOf(transcript: string, format: 'md' | 'json'): OutputInput {
  const other = format === 'md' ? 'report.json' : 'report.md';
  return { file: path.join(path.dirname(transcript), other), what: `the run's ${other}, which a ${format === 'md' ? 'Markdown' : 'JSON'} report would replace` };
}

/** A run directory means its transcript.jsonl. */
function transcriptOf(source: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch {
    throw new InputError(`no run directory or transcript at ${source}`, 'give a run directory (.unattended/runs/<run-id>) or its transcript.jsonl');
  }
  if (!stat.isDirectory()) {
    // The run's report.json or report.md named for its transcript (the file a user knows): read as
    // a transcript it "holds no run events", which says nothing of the run beside it.
    const dir = path.dirname(source);
    if (['report.json', 'report.md'].includes(path.basename(source)) && fs.existsSync(path.join(dir, 'transcript.jsonl'))) {
      throw new InputError(`${source} is the run's report, rendered from its transcript`, `give the run directory (unattended report ${dir}) or its transcript.jsonl`);
    }
    return source;
  }
  const file = path.join(source, 'transcript.jsonl');
  if (!fs.existsSync(file)) throw new InputError(`${source} holds no transcript.jsonl`, notARunDirHint(source));
  return file;
}

/**
 * The files the run read, as its run_start names them (the recipe, its script, the flags' files):
 * a report written over one would destroy what the run could be run again from. Only the first
 * line is read: run_start opens every transcript.
 */
/**
 * The file's first line, read in pieces until its line feed: a run_start can be megabytes (a
 * prompt given on standard input is in it), and a fixed read would cut it and lose the inputs.
 */
function firstLine(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const pieces: Buffer[] = [];
    for (let at = 0; ; ) {
      const piece = Buffer.allocUnsafe(64 * 1024);
      const read = fs.readSync(fd, piece, 0, piece.length, at);
      const end = piece.subarray(0, read).indexOf(0x0a);
      pieces.push(piece.subarray(0, end === -1 ? read : end));
      if (end !== -1 || read === 0) return Buffer.concat(pieces);
      at += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function runInputsOf(transcript: string): OutputInput[] {
  let start: { type?: unknown; recipe?: unknown; invocation?: unknown };
  try {
    start = JSON.parse(firstLine(transcript).toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return [];
  }
  if (start?.type !== 'run_start') return [];
  const { invocation } = parseInvocation(start.invocation);
  const recipe = typeof start.recipe === 'string' ? [{ file: start.recipe, what: "the run's recipe" }] : [];
  return [...recipe, ...invocationInputs(invocation)];
}
