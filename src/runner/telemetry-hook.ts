// Telemetry for a run, when the OTEL_* environment asks for it. The SDK and the exporters are a
// dynamic import: a run without telemetry (the default) loads none of their code.
import type { EventSink, RunEvent, TraceIds } from '../types/events.js';
import type { RunTelemetry } from '../telemetry/exporter.js';
import { packageVersion, telemetryFromEnv, type TelemetryDefaults } from '../telemetry/config.js';

/** After SIGTERM/SIGINT both flushes must fit in the signal's grace period (runner/signals.ts STOP_GRACE_MS, 4 s). */
const FLUSH_AFTER_SIGNAL_MS = 1_000;

export interface TelemetryHook {
  readonly sink: EventSink;
  /** Null when no trace is exported (OTEL_TRACES_EXPORTER=none): report.json names none then. */
  readonly trace: TraceIds | null;
  /** How long the end of a run may wait for the collector, per flush: the export timeout, cut to 1 s after SIGTERM/SIGINT. */
  flushDeadlineMs(signalled: boolean): number;
  /** Exports the spans and metrics finished so far; its failures become warning events (before run_end). */
  flush(emit: EventSink, deadlineMs: number): Promise<void>;
  /** The last export, after run_end: its failures can only be said on stderr (the transcript is closed). */
  shutdown(stderr: (text: string) => void, deadlineMs: number): Promise<void>;
}

/** Longest content attribute exported (log_content): a whole file read is not a span attribute. */
const MAX_CONTENT_CHARS = 4_096;

export interface RecipeTelemetrySettings extends TelemetryDefaults {
  logContent: boolean;
}

/** Null when telemetry is off; never throws (a broken telemetry setup is a warning, not a failed run). */
export async function startRunTelemetry(
  env: NodeJS.ProcessEnv,
  recipe: RecipeTelemetrySettings | null,
  redact: (text: string) => string,
  warn: (message: string) => void,
  startTime?: Date,
): Promise<TelemetryHook | null> {
  const config = telemetryFromEnv(env, recipe);
  if (!config) return null;
  for (const warning of config.warnings) warn(warning);
  // Nothing left to export (both signals `none`, or their endpoints unusable, as warned): the SDK is not loaded.
  if (!config.tracesUrl && !config.metricsUrl) return null;
  let telemetry: RunTelemetry;
  try {
    const { startTelemetry } = await import('../telemetry/exporter.js');
    // Content (prompt, model text, arguments, outputs) leaves only when the recipe asks, and redacted like the transcript.
    // Redacted before it is cut: a secret the cut went through would keep what no longer looks like one.
    const logContent = recipe?.logContent ? (text: string) => cut(redact(text)) : () => null;
    telemetry = startTelemetry(config, packageVersion(), logContent, startTime, redact);
  } catch (error) {
    warn(`telemetry: cannot start, the run goes on without it: ${(error as Error).message}`);
    return null;
  }
  // A pipeline that sampled its trace out (TRACEPARENT flags 00) gets no spans of the run: said, or
  // the collector's silence is a mystery; report.json then names no trace, as none was exported.
  const traced = config.tracesUrl !== null && telemetry.sampled;
  if (config.tracesUrl !== null && !traced) {
    // The parent's flags, or a sampler the SDK reads from the environment (OTEL_TRACES_SAMPLER=always_off).
    const why = config.traceparent
      ? `TRACEPARENT=${config.traceparent.slice(0, 80)} is not sampled (trace flags ${config.traceparent.trim().split('-')[3] ?? ''}, not 01): the run's spans follow the pipeline's decision and are not exported`
      : `the run's trace is not sampled (OTEL_TRACES_SAMPLER=${(env.OTEL_TRACES_SAMPLER ?? '').trim().slice(0, 40)}): its spans are not exported`;
    warn(`telemetry: ${why}${config.metricsUrl ? '; metrics are' : ''}`);
  }
  return {
    sink: telemetry.sink,
    trace: traced ? { trace_id: telemetry.traceId, span_id: telemetry.spanId } : null,
    flushDeadlineMs: (signalled) => (signalled ? Math.min(FLUSH_AFTER_SIGNAL_MS, config.timeoutMs) : config.timeoutMs),
    flush: async (emit, deadlineMs) => {
      for (const message of await telemetry.flush(deadlineMs)) emit({ type: 'warning', message } satisfies RunEvent);
    },
    shutdown: async (stderr, deadlineMs) => {
      for (const message of await telemetry.shutdown(deadlineMs)) stderr(`unattended: ${message} (the run's outcome is not affected)\n`);
    },
  };
}

function cut(text: string): string {
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}…` : text;
}
