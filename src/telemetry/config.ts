// Whether a run exports OpenTelemetry, and where to: read from the standard OTEL_* environment.
// Deliberately free of any OpenTelemetry import: every run reads this, and only a run that exports
// loads the SDK (runner/telemetry-hook.ts imports ./exporter.js dynamically).

import { readFileSync } from 'node:fs';
import { usesVertex } from './provider-name.js';
import { UNANSWERED_ENV } from './unanswered.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE's values (the OTLP exporter spec). */
export type MetricsTemporality = 'cumulative' | 'delta' | 'lowmemory';

export interface TelemetryConfig {
  /** Full OTLP/HTTP URLs (…/v1/traces, …/v1/metrics); null: that signal is not exported. */
  tracesUrl: string | null;
  metricsUrl: string | null;
  tracesProtocol: OtlpProtocol;
  metricsProtocol: OtlpProtocol;
  /** The recipe's and OTEL_EXPORTER_OTLP_HEADERS' headers, before a signal's own. */
  headers: Record<string, string>;
  /** What each signal's requests carry: OTEL_EXPORTER_OTLP_TRACES_HEADERS (METRICS) over `headers`. */
  tracesHeaders: Record<string, string>;
  metricsHeaders: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /**
   * How long the end of a run waits for the collector at each of its two flushes: the longer of
   * the exported signals' timeouts, so that each export may take all of its own.
   */
  timeoutMs: number;
  /** How long one export may take (OTEL_EXPORTER_OTLP_TRACES_TIMEOUT / _METRICS_, else OTEL_EXPORTER_OTLP_TIMEOUT; milliseconds). */
  tracesTimeoutMs: number;
  metricsTimeoutMs: number;
  /** How often a run's metrics are exported while it goes on (OTEL_METRIC_EXPORT_INTERVAL; milliseconds). */
  metricsIntervalMs: number;
  /** The metrics' temporality (OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE; cumulative by default). */
  metricsTemporality: MetricsTemporality;
  /** The W3C trace context the run nests under (TRACEPARENT / TRACESTATE), if any. */
  traceparent: string | null;
  tracestate: string | null;
  /** Whether a gemini run calls Vertex AI (GOOGLE_GENAI_USE_VERTEXAI), for gen_ai.provider.name. */
  vertex: boolean;
  /** The batch that started this run found the collector not answering (./unanswered.ts): the run's flushes are short. */
  unansweredBefore: boolean;
  /** Problems with the settings, said once as warnings; none of them stops the run. */
  warnings: string[];
}

type Env = Record<string, string | undefined>;

/**
 * The export timeout when OTEL_EXPORTER_OTLP_TIMEOUT does not say: 3 s, not the spec's 10 s, because
 * a run's end waits for it twice (before run_end, then after) and a CI step should not idle 20 s
 * on a collector that is down.
 */
const DEFAULT_EXPORT_TIMEOUT_MS = 3_000;

/** OTEL_METRIC_EXPORT_INTERVAL when unset: the spec's 60 s. A run exports its metrics at its end whatever it says. */
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

/** A recipe's `telemetry:` block: the same settings, which the OTEL_* environment overrides. */
export interface TelemetryDefaults {
  endpoint: string | null;
  protocol: OtlpProtocol | null;
  headers: Record<string, string>;
  serviceName: string | null;
  resourceAttributes: Record<string, string>;
}

/** The telemetry settings from the environment (over the recipe's), or null when nothing asks for export (the default). */
export function telemetryFromEnv(env: Env, defaults: TelemetryDefaults | null = null): TelemetryConfig | null {
  if (truthy(env.OTEL_SDK_DISABLED)) return null;
  const warnings: string[] = [];
  const base = withoutSignalPath(nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) ?? defaults?.endpoint ?? null, nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'telemetry.endpoint', warnings);
  const tracesEndpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const metricsEndpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
  if (!base && !tracesEndpoint && !metricsEndpoint) return null;
  // An endpoint that is no http(s) URL is said and its signals are not exported (the config stays,
  // so the warning is heard): `localhost:4318` would otherwise parse with `localhost:` for a scheme
  // and the exporter would send to port 443.
  const baseName = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'telemetry.endpoint';
  const baseFor = [tracesEndpoint ? null : 'traces', metricsEndpoint ? null : 'metrics'].filter((x) => x !== null).join(' and ');
  const baseOk = base !== null && baseFor !== '' ? httpUrl(base, baseName, baseFor, warnings) : base !== null;
  const tracesUrl = tracesEndpoint ? (httpUrl(tracesEndpoint, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'traces', warnings) ? tracesEndpoint : null) : signalUrl(baseOk ? base : null, 'v1/traces');
  const metricsUrl = metricsEndpoint ? (httpUrl(metricsEndpoint, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'metrics', warnings) ? metricsEndpoint : null) : signalUrl(baseOk ? base : null, 'v1/metrics');
  const general = nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? defaults?.protocol ?? undefined;
  const envResource = keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES', warnings);
  const headers = { ...recipeHeaders(defaults?.headers ?? {}, warnings), ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS', warnings) };
  const timeout = exportTimeout(env.OTEL_EXPORTER_OTLP_TIMEOUT, 'OTEL_EXPORTER_OTLP_TIMEOUT', DEFAULT_EXPORT_TIMEOUT_MS, warnings);
  const traces = exporterWanted(env.OTEL_TRACES_EXPORTER, 'OTEL_TRACES_EXPORTER', tracesUrl !== null, warnings) ? tracesUrl : null;
  const metrics = exporterWanted(env.OTEL_METRICS_EXPORTER, 'OTEL_METRICS_EXPORTER', metricsUrl !== null, warnings) ? metricsUrl : null;
  // The OTLP exporter spec: each signal's own variable wins over the general one (headers key by key).
  const tracesTimeoutMs = exportTimeout(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', timeout, warnings);
  const metricsTimeoutMs = exportTimeout(env.OTEL_EXPORTER_OTLP_METRICS_TIMEOUT, 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT', timeout, warnings);
  return {
    tracesUrl: traces && withoutUserinfo(traces),
    metricsUrl: metrics && withoutUserinfo(metrics),
    // A warning names the variable that was set, and says it once (the general one serves both signals).
    tracesProtocol: protocol(nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? general, nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) === null ? generalName(env) : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', warnings),
    metricsProtocol: protocol(nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL) ?? general, nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL) === null ? generalName(env) : 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL', warnings),
    headers,
    tracesHeaders: withBasicAuth(traces, { ...headers, ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', warnings) }),
    metricsHeaders: withBasicAuth(metrics, { ...headers, ...keyValues(env.OTEL_EXPORTER_OTLP_METRICS_HEADERS, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', warnings) }),
    serviceName: serviceName(env, envResource, defaults),
    resourceAttributes: { ...defaults?.resourceAttributes, ...envResource },
    timeoutMs: Math.max(traces ? tracesTimeoutMs : 0, metrics ? metricsTimeoutMs : 0, traces || metrics ? 0 : timeout),
    tracesTimeoutMs,
    metricsTimeoutMs,
    // Unset, at least as long as an export may take (OTEL_EXPORTER_OTLP_TIMEOUT may be up to 600000).
    metricsIntervalMs: metrics ? milliseconds(env.OTEL_METRIC_EXPORT_INTERVAL, 'OTEL_METRIC_EXPORT_INTERVAL', Math.max(DEFAULT_METRIC_INTERVAL_MS, metricsTimeoutMs), warnings, 86_400_000) : DEFAULT_METRIC_INTERVAL_MS,
    metricsTemporality: metrics ? temporality(env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE, warnings) : 'cumulative',
    traceparent: traceparent(env.TRACEPARENT, warnings),
    tracestate: nonEmpty(env.TRACESTATE),
    vertex: usesVertex(env),
    unansweredBefore: env[UNANSWERED_ENV] === '1',
    warnings,
  };
}

/**
 * W3C trace context's traceparent (lower-case hex; ids not all zero; version ff is invalid), as the
 * propagator reads it. One it refuses made the run a trace of its own without a word, so the
 * pipeline looked as if it had started no run: now it is said, with the form expected.
 */
const TRACEPARENT = /^\s?(?!ff)[\da-f]{2}-(?![0]{32})[\da-f]{32}-(?![0]{16})[\da-f]{16}-[\da-f]{2}(-.*)?\s?$/;

function traceparent(value: string | undefined, warnings: string[]): string | null {
  const text = nonEmpty(value);
  if (text === null || TRACEPARENT.test(text)) return text;
  warnings.push(`telemetry: TRACEPARENT=${text.slice(0, 80)} is not a W3C traceparent (00-<32 hex digits, lower case>-<16 hex digits>-<2 hex digits>); the run's trace starts on its own`);
  return null;
}

/**
 * service.name as the SDK spec resolves it: OTEL_SERVICE_NAME, else a `service.name` in
 * OTEL_RESOURCE_ATTRIBUTES, then the recipe's (service_name, then its resource_attributes), and
 * `unattended` only when nothing names the service.
 */
function serviceName(env: Env, envResource: Record<string, string>, defaults: TelemetryDefaults | null): string {
  return nonEmpty(env.OTEL_SERVICE_NAME) ?? nonEmpty(envResource['service.name']) ?? defaults?.serviceName ?? nonEmpty(defaults?.resourceAttributes['service.name']) ?? 'unattended';
}

/**
 * A general endpoint written with a signal's path (`http://host:4318/v1/traces`, the URL a
 * collector's docs show for traces): the spec appends the signal's path to it, so every export
 * went to `/v1/traces/v1/traces` and was refused. The path is taken off, and that is said.
 */
function withoutSignalPath(base: string | null, name: string, warnings: string[]): string | null {
  // The path is matched before the query (`…/v1/traces?token=x`), and the query kept.
  const [, head = '', query = ''] = /^([^?#]*)(.*)$/s.exec(base ?? '') ?? [];
  const match = head.match(/^(.*?)\/v1\/(traces|metrics|logs)\/*$/);
  if (!base || !match) return base;
  const shown = (url: string) => url.replace(/\/\/[^/@\s]*@/, '//').replace(/\?.*$/s, '');
  warnings.push(`telemetry: ${name}=${shown(base)} is the collector's base URL, to which each signal's path is appended: /v1/${match[2]!} is taken off (set OTEL_EXPORTER_OTLP_${match[2]!.toUpperCase()}_ENDPOINT for one signal's own URL)`);
  return `${match[1]!}${query}`;
}

/**
 * The general endpoint gets the signal's path appended (OTLP spec); a signal-specific one is used
 * as given. Appended to the path, not to the text: a query (`/otlp?token=x`) stays a query, where
 * `/otlp?token=x/v1/traces` sent every export to /otlp with a token that was no longer the token.
 */
function signalUrl(base: string | null, suffix: string): string | null {
  if (!base) return null;
  const [, head = '', rest = ''] = /^([^?#]*)([?#].*)?$/s.exec(base) ?? [];
  // A fragment is never sent; the query is.
  const query = rest.startsWith('?') ? rest.replace(/#.*$/s, '') : '';
  return `${head.replace(/\/+$/, '')}/${suffix}${query}`;
}

/**
 * Credentials in an endpoint (`https://user:token@collector.example`, a collector behind basic
 * auth): the exporter sends a URL's host, port and path only, so they never reached the collector
 * and every export was refused (401). They go as the Authorization header instead (unless the
 * headers set one), and the URL goes without them.
 */
function withoutUserinfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

function withBasicAuth(url: string | null, headers: Record<string, string>): Record<string, string> {
  if (url === null || Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return headers;
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return headers;
    const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    return { ...headers, authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` };
  } catch {
    return headers;
  }
}

/** Whether `value` is an http:// or https:// URL; if not, a warning says which setting, what is lost and how to write it. */
function httpUrl(value: string, name: string, signals: string, warnings: string[]): boolean {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // said below
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return true;
  // Never a password a URL may carry (`https://user:secret@host`).
  const shown = value.replace(/\/\/[^/@\s]*@/, '//').slice(0, 100);
  // http:// written, but no URL (`http://host:99999`, `http://:4318`, `http://host:port`): saying it
  // is "not an http:// URL" sent the user looking at the scheme, not at the port or host.
  if (/^https?:\/\//i.test(shown)) {
    warnings.push(`telemetry: ${name}=${shown} is not a valid URL (it needs a host name, and a port, if any, from 1 to 65535, like http://localhost:4318); ${signals} are not exported`);
    return false;
  }
  const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(shown) ? 'an http:// or https:// URL' : `a URL with its scheme, like http://${shown}`;
  warnings.push(`telemetry: ${name}=${shown} is not an http:// or https:// URL; ${signals} are not exported (write ${hint})`);
  return false;
}

/** OTEL_EXPORTER_OTLP_*TIMEOUT: whole milliseconds (the spec's unit), at least 1; anything else keeps the fallback. */
function exportTimeout(value: string | undefined, name: string, fallback: number, warnings: string[]): number {
  return milliseconds(value, name, fallback, warnings, 600_000);
}

/** Whole milliseconds from 1 to `max`; anything else is said and keeps the fallback. */
function milliseconds(value: string | undefined, name: string, fallback: number, warnings: string[], max: number): number {
  const text = value?.trim();
  if (!text) return fallback;
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= max) return Number(text);
  warnings.push(`telemetry: ${name}=${text.slice(0, 40)} is not a number of milliseconds from 1 to ${max}; using ${fallback}`);
  return fallback;
}

/**
 * OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER: `none` turns the signal off; `otlp` (the default)
 * keeps it. Other exporters (console, zipkin, prometheus) are not built in: said once, and the
 * signal still goes over OTLP to the endpoint that was set, rather than nowhere without a word.
 */
function exporterWanted(value: string | undefined, name: string, hasEndpoint: boolean, warnings: string[]): boolean {
  const names = (value ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || names.includes('otlp')) return true;
  if (names.every((v) => v === 'none')) return false;
  if (hasEndpoint) warnings.push(`telemetry: ${name}=${value!.trim().slice(0, 60)} is not supported (only otlp or none); exporting over OTLP to the endpoint that is set`);
  return true;
}

/**
 * The exporter reads this variable itself, but as written: ` delta` (a stray space) or a value it
 * does not know went to cumulative without a word (its warning goes to a logger nobody set), and
 * a delta backend then summed cumulative counts. Read here, trimmed, and anything else is said.
 */
function temporality(value: string | undefined, warnings: string[]): MetricsTemporality {
  const v = value?.trim().toLowerCase();
  if (!v) return 'cumulative';
  if (v === 'cumulative' || v === 'delta' || v === 'lowmemory') return v;
  warnings.push(`telemetry: OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=${value!.trim().slice(0, 40)} is not supported (use cumulative, delta or lowmemory); exporting cumulative metrics`);
  return 'cumulative';
}

/** Where the general protocol came from: the variable, or the recipe's telemetry block. */
function generalName(env: Env): string {
  return nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL) !== null ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'telemetry.protocol';
}

function protocol(value: string | undefined, name: string, warnings: string[]): OtlpProtocol {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'http/protobuf') return 'http/protobuf';
  if (v === 'http/json') return 'http/json';
  const warning = `telemetry: ${name}=${value} is not supported (use http/protobuf or http/json); exporting with http/protobuf`;
  if (!warnings.includes(warning)) warnings.push(warning);
  return 'http/protobuf';
}

/** What an HTTP header name may be made of (RFC 9110 token); Node refuses any other, and with it the whole export. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may not carry (Node refuses it, and the export with it). */
const HEADER_VALUE_FORBIDDEN = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * `k1=v1,k2=v2` with percent-encoded values (W3C Baggage style), as the OTLP spec writes headers and
 * resource attributes. An entry that cannot be used (no key=value, a bad escape, a header Node would
 * refuse) is said and left out, so that the others still work; a header's entry is never shown, as
 * it may hold a credential.
 */
function keyValues(value: string | undefined, name: string, warnings: string[], headers = name.endsWith('HEADERS')): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!key || (headers && !HEADER_NAME.test(key))) {
      // Never the entry itself: headers carry credentials ("Authorization: Bearer …" written with a colon).
      const shown = pair.trim();
      const hint = /^[\w-]+\s*:/.test(shown) ? ` (it starts '${shown.slice(0, shown.indexOf(':'))}:'; write it as key=value)` : '';
      const what = key ? 'an entry whose key is not a header name' : 'an entry without key=value';
      warnings.push(`telemetry: ${name} has ${what}, ${shown.length} characters long${hint}; it is ignored`);
      continue;
    }
    const decoded = decode(pair.slice(eq + 1).trim());
    if (decoded === null) {
      warnings.push(`telemetry: ${name}: the value of ${key} is not valid percent-encoding (write a % as %25); it is ignored`);
      continue;
    }
    if (headers && HEADER_VALUE_FORBIDDEN.test(decoded)) {
      warnings.push(`telemetry: ${name}: the value of ${key} has a character a header cannot carry (a line break, a control character or one beyond Latin-1); it is ignored`);
      continue;
    }
    out[key] = decoded;
  }
  return out;
}

/** The recipe's telemetry.headers, less those Node would refuse (and the export with them), each said by its key. */
function recipeHeaders(headers: Record<string, string>, warnings: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(key)) warnings.push(`telemetry: telemetry.headers has a key that is not a header name (${key.length} characters long); it is ignored`);
    else if (HEADER_VALUE_FORBIDDEN.test(value)) warnings.push(`telemetry: telemetry.headers: the value of ${key} has a character a header cannot carry (a line break, a control character or one beyond Latin-1); it is ignored`);
    else out[key] = value;
  }
  return out;
}

/** Null when the text is not valid percent-encoding (the spec: such a value is discarded and said). */
function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function nonEmpty(value: string | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

function truthy(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** unattended's version, for the exported resource (service.version). */
export function packageVersion(): string {
  try {
    // dist/cli/main.cjs is two levels below the package root.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
