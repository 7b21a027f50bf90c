// report.json -> the step's outputs, annotations and exit code.
import { ExitCode } from '../types/outcome.js';
import type { Denial, Report } from '../report/report.js';
import { command } from './workflow-commands.js';
import { oneLine } from '../util/one-line.js';

export interface StepResult {
  outputs: Record<string, string>;
  /** Workflow command lines (annotations), printed after the run's log group. */
  annotations: string;
  exitCode: number;
}

export interface StepContext {
  cliExitCode: number;
  outDir: string;
  /** Whether the api-key input was given: an auth failure without one gets a hint. */
  apiKeyGiven?: boolean;
  /** Why this workflow run has no secrets (a fork's pull request: secretless-event.ts), if it has none. */
  secretless?: string | null;
}

/** GitHub shows at most 10 warning annotations a step; the report's own warnings get theirs first. */
const MAX_WARNINGS_PER_STEP = 10;
const MAX_REPORT_WARNING_ANNOTATIONS = 3;

export function stepResult(report: Report | null, ctx: StepContext): StepResult {
  if (!report) {
    const exitCode = ctx.cliExitCode === 0 ? 1 : ctx.cliExitCode;
    return {
      outputs: emptyOutputs('error', exitCode, ctx.outDir),
      annotations: command('error', `the run left no report in ${ctx.outDir}; see the log above`, { title: `unattended: run error (exit ${exitCode})` }),
      exitCode,
    };
  }
  const lines: string[] = [];
  const denials = report.denials;
  const reportWarnings = report.warnings.slice(0, MAX_REPORT_WARNING_ANNOTATIONS);
  const denialSlots = MAX_WARNINGS_PER_STEP - reportWarnings.length;
  // When the denials do not fit, the last of their slots says how many were left out.
  const shownDenials = denials.length <= denialSlots ? denials : denials.slice(0, denialSlots - 1);
  for (const denial of shownDenials) {
    lines.push(command('warning', denialMessage(denial), { title: `unattended: policy denied ${denial.tool}` }));
  }
  if (denials.length > shownDenials.length) {
    lines.push(command('warning', `${denials.length - shownDenials.length} more policy denials are listed in the report`, { title: 'unattended: more policy denials' }));
  }
  for (const warning of reportWarnings) {
    lines.push(command('warning', warning, { title: 'unattended' }));
  }
  // The run's exit code is the step's: fail-on-denial reaches the CLI as --fail-on-denial (exit
  // 57), so the step, `unattended run` and a batch row all mean the same by the same outcome.
  const exitCode = ctx.cliExitCode;
  // A run whose record could not be written whole (report.md, or its transcript's run_end, on a
  // full disk) exits 54 after a report.json that keeps the run's own status: the step's outputs
  // say what the process did, as its exit code does, not "success".
  const unfinished = exitCode !== report.exit_code;
  const status = unfinished ? 'error' : report.status;
  if (exitCode !== 0) {
    let message = unfinished
      ? `the run ended ${report.status} (exit ${report.exit_code}), as its report.json says, but exited ${exitCode}: its record could not be written whole; see the log above`
      : (report.error ?? `the run ended with status ${report.status}; see the step summary`);
    if (exitCode === ExitCode.auth && ctx.apiKeyGiven === false) message += apiKeyHint(report.error, ctx.secretless ?? null);
    lines.push(command('error', message, { title: `unattended: run ${status} (exit ${exitCode})` }));
  }

  return {
    outputs: {
      status,
      'exit-code': String(exitCode),
      summary: report.final_answer ?? '',
      'structured-output': report.structured_output === null || report.structured_output === undefined ? '' : JSON.stringify(report.structured_output),
      'changed-files': report.files_changed.map((f) => f.path).join('\n'),
      'report-path': `${ctx.outDir}/report.json`,
      'transcript-path': report.transcript,
      'run-dir': ctx.outDir,
      'run-id': report.run_id,
      // Dollars with full precision; empty when no price is known for the model.
      'cost-usd': report.usage.cost_usd === undefined ? '' : plainDecimal(report.usage.cost_usd),
    },
    annotations: lines.join(''),
    exitCode,
  };
}

/** Why no key reached the run: the input was left empty, or the secret it names is empty in this run. */
function apiKeyHint(error: string | null, secretless: string | null): string {
  const variable = /\b([A-Z][A-Z0-9_]*_API_KEY)\b/.exec(error ?? '')?.[1] ?? 'GEMINI_API_KEY';
  if (secretless) return ` (the api-key input is empty: ${secretless})`;
  return ` (set the api-key input from a secret, e.g. api-key: \${{ secrets.${variable} }})`;
}

export function emptyOutputs(status: string, exitCode: number, outDir: string): Record<string, string> {
  return {
    status,
    'exit-code': String(exitCode),
    summary: '',
    'structured-output': '',
    'changed-files': '',
    'report-path': '',
    'transcript-path': '',
    'run-dir': outDir,
    'run-id': '',
    'cost-usd': '',
  };
}

/** What was attempted and why it was refused, on one line. */
function denialMessage(denial: Denial): string {
  const args = denial.args;
  const target = [args.command, args.file_path, args.absolute_path, args.path, args.url].find((v) => typeof v === 'string' && v !== '') as string | undefined;
  const what = target ? `${oneLine(target, 200)}: ` : '';
  const rule = denial.rule ? ` (rule ${denial.rule})` : '';
  return `turn ${denial.turn}: ${what}${oneLine(denial.reason, 600)}${rule}`;
}

/**
 * A number as the decimal a shell compares (`bc`, `awk`, `[ … ]`): String() writes a cost under a
 * millionth of a dollar as `4.5e-7`. Ten places are far below any price's own precision.
 */
function plainDecimal(value: number): string {
  return value.toFixed(10).replace(/\.?0+$/, '') || '0';
}
