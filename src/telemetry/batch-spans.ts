// A batch as one trace: a `batch <recipe>` span (under TRACEPARENT when set) with a `target <spec>`
// span per target. Each target's run is a separate process; it nests under its target span
// through the TRACEPARENT (and TRACESTATE) the batch puts in that run's environment, so the runs' own spans (model
// requests, tool calls) complete the tree. Loaded only when the OTEL_* environment asks for export.
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TelemetryConfig } from './config.js';
import { otlpProviders, parentContext, withDeadline, type CollectorState } from './exporter.js';

/** How long the batch's last export may take once a signal stopped it, as for a run (runner/telemetry-hook.ts). */
const FLUSH_AFTER_SIGNAL_MS = 1_000;

export interface TargetOutcome {
  status: string;
  category: string;
  cause: string | null;
  exit_code: number | null;
  run_id: string | null;
  /** Set when this span is a --resume pushing the run's commit again or opening its pull request again, not a run. */
  handoff_retried?: true;
}

export interface BatchTrace {
  /** Whether the batch's spans are recorded, so exported: not when TRACEPARENT's flags (or the sampler) say no. */
  readonly sampled: boolean;
  /**
   * Starts the target's span; returns the TRACEPARENT and TRACESTATE its run is given (the
   * pipeline's tracestate goes on with the trace: W3C says a child passes it on), and how to end the span.
   */
  target(spec: string, index: number): { traceparent: string; tracestate: string | undefined; end: (outcome: TargetOutcome) => void };
  /**
   * What the batch knows of the collector, from its own exports and its runs' reports (a run that
   * waited out a flush deadline): while it does not answer, the runs started next are told
   * (../telemetry/unanswered.ts), and the batch's own last export does not wait the timeout for it.
   */
  readonly collector: CollectorState;
  /** Ends the batch span and sends what is left within the export timeout; resolves to the failures. */
  /** `failed`: targets that did not succeed, when they fail the batch (no --allow-failures). */
  shutdown(summary: { targets: number; interrupted: string | null; failed?: number; of?: number }): Promise<string[]>;
}

/**
 * `redact`: the transcript's redaction. A target is free text a user wrote, and a private
 * repository's URL may carry its token (`https://x-access-token:…@github.com/…`), as may a failed
 * clone's cause quoting it: they leave redacted, as warnings and a retry's reason do.
 */
export function startBatchTrace(config: TelemetryConfig, version: string, recipeName: string, redact: (text: string) => string): BatchTrace {
  const failures: string[] = [];
  const collector: CollectorState = { unanswered: false };
  const { tracerProvider, meterProvider } = otlpProviders({ ...config, metricsUrl: null }, version, failures, collector);
  const tracer = tracerProvider.getTracer('unattended', version);
  const parent = parentContext(config);
  const batch = tracer.startSpan(`batch ${recipeName}`, { attributes: { 'unattended.recipe': recipeName } }, parent);
  const batchContext = trace.setSpan(parent, batch);
  const propagator = new W3CTraceContextPropagator();
  return {
    sampled: batch.isRecording(),
    collector,
    target: (spec, index) => {
      const shown = redact(spec);
      const span: Span = tracer.startSpan(`target ${shown}`, { attributes: { 'unattended.target': shown, 'unattended.target.index': index } }, batchContext);
      const carrier: Record<string, string> = {};
      propagator.inject(trace.setSpan(batchContext, span), carrier, { set: (c, key, value) => (c[key] = value) });
      return {
        traceparent: carrier.traceparent ?? '',
        tracestate: carrier.tracestate || undefined,
        end: (outcome) => {
          span.setAttributes({ 'unattended.status': outcome.status, 'unattended.category': outcome.category });
          if (outcome.exit_code !== null) span.setAttribute('unattended.exit_code', outcome.exit_code);
          if (outcome.run_id) span.setAttribute('unattended.run_id', outcome.run_id);
          if (outcome.handoff_retried) span.setAttribute('unattended.handoff_retried', true);
          const cause = outcome.cause === null ? null : redact(outcome.cause);
          if (cause) span.setAttribute('unattended.cause', cause);
          // By the exit code where the run gave one: `denied` with exit 0 did its work.
          const failed = outcome.exit_code === null ? outcome.status !== 'success' : outcome.exit_code !== 0;
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: cause ?? outcome.status });
          span.end();
        },
      };
    },
    shutdown: async (summary) => {
      batch.setAttribute('unattended.targets', summary.targets);
      // As a run's span: an error when the batch's exit code is not 0.
      if (summary.interrupted) batch.setStatus({ code: SpanStatusCode.ERROR, message: summary.interrupted });
      else if (summary.failed) batch.setStatus({ code: SpanStatusCode.ERROR, message: `${summary.failed} of ${summary.of ?? summary.failed} targets did not succeed` });
      batch.end();
      // Stopped by a signal, the batch has the grace a run has after one (runner/telemetry-hook.ts):
      // a CI system's SIGKILL follows within seconds, and the export timeout may be minutes.
      const deadlineMs = summary.interrupted ? Math.min(FLUSH_AFTER_SIGNAL_MS, config.tracesTimeoutMs) : config.tracesTimeoutMs;
      await withDeadline(Promise.allSettled([tracerProvider.shutdown(), meterProvider?.shutdown()]), deadlineMs, failures, collector);
      return failures.splice(0).map((f) => `telemetry: export failed: ${f}`);
    },
  };
}
