// The OpenTelemetry SDK for one run: a tracer and a meter exporting over OTLP/HTTP (protobuf or
// JSON), and the run's events turned into spans (./spans.ts) and metrics (./metrics.ts). Loaded
// only by a run that exports (a dynamic import from runner/telemetry-hook.ts). Nothing here may
// fail the run: an export that fails is counted and said as a warning; flushing has a deadline.
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { EventSink } from '../types/events.js';
import type { TelemetryConfig } from './config.js';
import { RunMetrics } from './metrics.js';
import { genAiProviderName } from './provider-name.js';
import { endpointAgentFactory } from './endpoint-agent.js';
import { RunSpans } from './spans.js';
import { lateExport, markOutstanding, UNANSWERED_FLUSH_MS } from './unanswered.js';

export interface RunTelemetry {
  readonly sink: EventSink;
  /** The run's trace id and its run span's id (hex), for report.json. */
  readonly traceId: string;
  readonly spanId: string;
  /**
   * Whether the run's spans are recorded, so exported: not when TRACEPARENT's flags say the
   * pipeline's trace is sampled out (the SDK's default sampler follows the parent's decision).
   */
  readonly sampled: boolean;
  /** Exports what is finished so far; resolves to the failures since the last call (never rejects). */
  flush(deadlineMs: number): Promise<string[]>;
  /** Ends the export: what is left is sent within the deadline; resolves to the failures (never rejects). */
  shutdown(deadlineMs: number): Promise<string[]>;
}

/**
 * `logContent`: content (prompt, text, arguments, outputs) as exported, or null to keep it back;
 * `redact`: the transcript's redaction, for the free text always exported (warnings, retry reasons).
 */
export function startTelemetry(config: TelemetryConfig, version: string, logContent: (text: string) => string | null, startTime: Date | undefined, redact: (text: string) => string): RunTelemetry {
  const failures: string[] = [];
  const collector: CollectorState = { unanswered: config.unansweredBefore };
  const { tracerProvider, meterProvider } = otlpProviders(config, version, failures, collector);
  const parent = parentContext(config);
  const tracer = tracerProvider.getTracer('unattended', version);
  const runSpan = tracer.startSpan('invoke_agent', { kind: SpanKind.INTERNAL, ...(startTime ? { startTime } : {}) }, parent);
  const providerName = (provider: string) => genAiProviderName(provider, config.vertex);
  const spans = new RunSpans(tracer, runSpan, trace.setSpan(parent, runSpan), logContent, redact, providerName);
  const metrics = meterProvider ? new RunMetrics(meterProvider.getMeter('unattended', version), providerName) : null;
  const taken = () => failures.splice(0).map((f) => `telemetry: export failed: ${f}`);
  // The first answer's span and metrics are exported at once, in the background: a collector that
  // does not answer is then known (after one export timeout) long before a run of any length ends,
  // whose end would otherwise wait that timeout for it.
  let probed = false;
  const flush = async (deadlineMs: number) => {
    await withDeadline(Promise.allSettled([tracerProvider.forceFlush(), meterProvider?.forceFlush()]), deadlineMs, failures, collector);
    return taken();
  };
  return {
    sink: (event) => {
      try {
        spans.observe(event);
        metrics?.observe(event);
        if (!probed && event.type === 'model_response') {
          probed = true;
          void Promise.allSettled([tracerProvider.forceFlush(), meterProvider?.forceFlush()]);
        }
      } catch (error) {
        // Telemetry is a bystander: an event it cannot read is skipped, the run goes on.
        failures.push(`event ${event.type}: ${(error as Error).message}`);
      }
    },
    traceId: runSpan.spanContext().traceId,
    spanId: runSpan.spanContext().spanId,
    sampled: runSpan.isRecording(),
    flush,
    shutdown: async (deadlineMs) => {
      spans.endAll();
      await withDeadline(Promise.allSettled([tracerProvider.shutdown(), meterProvider?.shutdown()]), deadlineMs, failures, collector);
      return taken();
    },
  };
}

/** The SDK's providers exporting to the configured collector; a signal without a URL gets none. */
export function otlpProviders(config: TelemetryConfig, version: string, failures: string[], collector: CollectorState): { tracerProvider: BasicTracerProvider; meterProvider: MeterProvider | null } {
  // service.version is unattended's unless the user's attributes give the version of the service they name.
  const resource = resourceFromAttributes({
    'service.version': version,
    // Each process writes its own metric streams (OTLP's single-writer rule): without an instance of
    // its own, the runs of a batch (or a CI matrix) wrote the very same cumulative series, each run's
    // `unattended.runs` 1 over the other's, so a fleet of runs counted as one. The user's wins.
    'service.instance.id': randomUUID(),
    ...config.resourceAttributes,
    'service.name': config.serviceName,
  });
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: config.tracesUrl ? [new BatchSpanProcessor(watchedSpans(traceExporter(config, config.tracesUrl), watchedUrl(config.tracesUrl, 'traces'), failures, collector))] : [],
  });
  const meterProvider = config.metricsUrl
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: watchedMetrics(metricExporter(config, config.metricsUrl), watchedUrl(config.metricsUrl, 'metrics'), failures, collector),
            // One export at the end of the run is what a CI run needs; a long run also reports as
            // often as OTEL_METRIC_EXPORT_INTERVAL says (each minute unless set), so a dashboard
            // sees it while it goes on.
            exportIntervalMillis: config.metricsIntervalMs,
            // An export request is given up after its timeout (the exporter's, which a flush waits
            // for), so none outlives it and holds the process. The reader refuses to wait longer
            // than its interval; the request itself still has the exporter's whole timeout.
            exportTimeoutMillis: Math.min(config.metricsTimeoutMs, config.metricsIntervalMs),
          }),
        ],
      })
    : null;
  return { tracerProvider, meterProvider };
}

/** TRACEPARENT (W3C trace context, as CI systems set it) makes the run a child of the pipeline's span. */
export function parentContext(config: TelemetryConfig): Context {
  if (!config.traceparent) return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent: config.traceparent };
  if (config.tracestate) carrier.tracestate = config.tracestate;
  return new W3CTraceContextPropagator().extract(ROOT_CONTEXT, carrier, {
    get: (c, key) => c[key],
    keys: (c) => Object.keys(c),
  });
}

function traceExporter(config: TelemetryConfig, url: string): SpanExporter {
  const agent = endpointAgentFactory(url, 'TRACES');
  const options = { url, headers: config.tracesHeaders, timeoutMillis: config.tracesTimeoutMs, ...(agent ? { httpAgentOptions: agent } : {}) };
  return withoutEnvHeaders(() => (config.tracesProtocol === 'http/json' ? new JsonTraceExporter(options) : new ProtoTraceExporter(options)));
}

function metricExporter(config: TelemetryConfig, url: string): PushMetricExporter {
  const agent = endpointAgentFactory(url, 'METRICS');
  const options = { url, headers: config.metricsHeaders, timeoutMillis: config.metricsTimeoutMs, temporalityPreference: TEMPORALITY[config.metricsTemporality], ...(agent ? { httpAgentOptions: agent } : {}) };
  return withoutEnvHeaders(() => (config.metricsProtocol === 'http/json' ? new JsonMetricExporter(options) : new ProtoMetricExporter(options)));
}

const TEMPORALITY = { cumulative: AggregationTemporalityPreference.CUMULATIVE, delta: AggregationTemporalityPreference.DELTA, lowmemory: AggregationTemporalityPreference.LOWMEMORY } as const;

const ENV_HEADERS = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'];

/**
 * An exporter's constructor reads the OTEL_*_HEADERS variables again, with a decoder that throws on
 * a bad escape (`%ZZ`), which stopped all export ("URI malformed"). The headers it is given are
 * those variables already parsed (./config.ts, which warns about what it leaves out), so it is
 * built without them in sight; the rest of its environment (certificates, compression) stays.
 */
function withoutEnvHeaders<T>(build: () => T): T {
  const saved = ENV_HEADERS.map((name) => [name, process.env[name]] as const);
  for (const name of ENV_HEADERS) delete process.env[name];
  try {
    return build();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

/** The SDK reports a failed export only to a global handler; the exporter's own answer is kept here instead. */
function watchedSpans(inner: SpanExporter, what: Destination, failures: string[], collector: CollectorState): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => inner.export(spans, (result) => done(noted(result, what, failures, collector))),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

function watchedMetrics(inner: PushMetricExporter, what: Destination, failures: string[], collector: CollectorState): PushMetricExporter {
  return {
    export: (metrics: ResourceMetrics, done: (result: ExportResult) => void) => inner.export(metrics, (result) => done(noted(result, what, failures, collector))),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}

/** An export's signal and where it went, as a warning names them, and the URL its HTTP status is kept under. */
interface Destination {
  what: string;
  key: string;
  /** Said after a failure the collector gave no HTTP answer to: why this URL may never give one. */
  hint: string;
}

/**
 * The last HTTP status each export URL answered with ('503 Service Unavailable'). The exporter
 * retries a 429, 502, 503 or 504 until its timeout and then fails with only 'Export failed with
 * retryable status', so a collector that was down or throttling was said without its status;
 * Node's HTTP client tells it on a diagnostics channel, whoever sent the request.
 */
const lastStatus = new Map<string, string>();
let listening = false;

function watchedUrl(url: string, signal: string): Destination {
  const key = statusKey(url);
  if (!listening) {
    listening = true;
    subscribe('http.client.response.finish', (message) => {
      const { request, response } = message as { request: { protocol?: string; path?: string; getHeader(name: string): unknown }; response: { statusCode?: number; statusMessage?: string } };
      // A request to a proxy in absolute form (proxy-agent.ts) has the whole URL for its path.
      const sent = /^https?:\/\//.test(request.path ?? '') ? request.path! : `${request.protocol ?? ''}//${String(request.getHeader('host') ?? '')}${request.path ?? ''}`;
      if (lastStatus.has(sent)) lastStatus.set(sent, `${response.statusCode ?? ''} ${response.statusMessage ?? ''}`.trim());
    });
  }
  if (key !== null && !lastStatus.has(key)) lastStatus.set(key, '');
  return { what: `${signal} to ${shownUrl(url)}`, key: key ?? url, hint: grpcPortHint(url) };
}

/** A URL as Node's client sends it: the path, and the query the agent puts back (endpoint-agent.ts). */
function statusKey(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

/** `to.what`: the signal and where it went, so a wrong path (404) or port says which URL to fix. */
function noted(result: ExportResult, to: Destination, failures: string[], collector: CollectorState): ExportResult {
  // An answer, even a refusal (404), is fast; none at all (a timeout, no connection, 503s retried to the end) took the whole timeout.
  const status = (result.error as { code?: unknown } | undefined)?.code;
  collector.unanswered = result.code !== ExportResultCode.SUCCESS && typeof status !== 'number';
  if (collector.unanswered) for (const wake of collector.waiters ?? []) wake();
  if (result.code === ExportResultCode.SUCCESS) return result;
  const answered = lastStatus.get(to.key);
  const message = result.error?.message ?? 'the collector refused them';
  const said =
    typeof status !== 'number' && /retryable status/.test(result.error?.message ?? '') && answered
      ? `${to.what}: HTTP ${answered}, still after retries`
      : typeof status === 'number'
        ? `${to.what}: HTTP ${status} ${message}`
        : `${to.what}: ${message}${to.hint}`;
  if (!failures.includes(said)) failures.push(said);
  return result;
}

/**
 * 4317 is OTLP/gRPC's port (the endpoint a gRPC setup, OTEL_EXPORTER_OTLP_PROTOCOL=grpc, names);
 * a gRPC receiver answers an OTLP/HTTP request with no HTTP at all, so the failure read only
 * "Parse Error: Expected HTTP/" or "socket hang up", nothing on what to change.
 */
function grpcPortHint(url: string): string {
  try {
    return new URL(url).port === '4317' ? " (port 4317 is OTLP/gRPC's, which is not supported: point the endpoint at the collector's OTLP/HTTP port, 4318 by default)" : '';
  } catch {
    return '';
  }
}

/** A URL as a warning shows it: never the credentials it may carry (`https://user:secret@host`). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'the endpoint';
  }
}

/** What is known of the collector: whether it left the last export unanswered (./unanswered.ts). */
export interface CollectorState {
  unanswered: boolean;
  /** Flushes waiting on the collector, woken when an export (an earlier one) goes unanswered. */
  waiters?: Set<() => void>;
}

/**
 * Waits for `work` (a flush) up to `deadlineMs`, or UNANSWERED_FLUSH_MS when the collector did not
 * answer the last export: it would most likely cost the whole deadline again. An earlier export
 * still in flight that goes unanswered meanwhile cuts the wait the same way, UNANSWERED_FLUSH_MS
 * from then. What is still in flight then is abandoned (the CLI exits without waiting for it, cli/main.ts).
 */
export async function withDeadline(work: Promise<unknown>, deadlineMs: number, failures: string[], collector: CollectorState): Promise<void> {
  const started = performance.now();
  const cut = collector.unanswered && deadlineMs > UNANSWERED_FLUSH_MS;
  const waitMs = cut ? UNANSWERED_FLUSH_MS : deadlineMs;
  let timer: NodeJS.Timeout | undefined;
  let woken = false;
  let wake = () => {};
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
    timer.unref();
    wake = () => {
      if (woken || UNANSWERED_FLUSH_MS >= waitMs - (performance.now() - started)) return;
      woken = true;
      clearTimeout(timer);
      timer = setTimeout(() => resolve('late'), UNANSWERED_FLUSH_MS);
      timer.unref();
    };
  });
  if (!cut) (collector.waiters ??= new Set()).add(wake);
  const outcome = await Promise.race([work.then(() => 'done' as const), late]);
  collector.waiters?.delete(wake);
  clearTimeout(timer);
  if (outcome !== 'late') return;
  collector.unanswered = true;
  markOutstanding();
  failures.push(lateExport(woken ? Math.round(performance.now() - started) : waitMs, cut || woken));
}
