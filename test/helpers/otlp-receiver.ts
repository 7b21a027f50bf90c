// An OTLP/HTTP collector on 127.0.0.1 for tests: it takes what the real exporters send to
// /v1/traces and /v1/metrics, as http/json or http/protobuf (decoded with the protobuf definitions
// that ship in @opentelemetry/otlp-transformer), and keeps the spans and metric points in one
// plain shape whatever the encoding.
import http from 'node:http';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);
// The generated protobufjs module for the OTLP messages: the very definitions the exporters encode with.
const proto = (require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as any).opentelemetry.proto;

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** The W3C tracestate the span carries ('' for none). */
  traceState: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  resource: Record<string, unknown>;
  startMs: number;
  endMs: number;
}

export interface ReceivedPoint {
  metric: string;
  attributes: Record<string, unknown>;
  /** A sum's value, or a histogram's count. */
  value: number;
  sum?: number;
  /** A histogram's bucket boundaries. */
  bounds?: number[];
  /** The metric's unit, and its temporality (1 delta, 2 cumulative) where it has one. */
  unit?: string;
  temporality?: number;
  /** The resource's attributes (service.name, service.instance.id, …): with the attributes, the series' identity. */
  resource?: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  /** Each request's path and content type, in order. */
  requests: Array<{ path: string; contentType: string; headers: http.IncomingHttpHeaders }>;
  /** The HTTP status the receiver answers with (200 by default); a 5xx or 4xx makes exports fail; 0: it never answers. */
  status: number;
  close(): Promise<void>;
}

/** `host`: the address it listens on (`::1` for a collector reached by an IPv6 literal). */
export async function startOtlpReceiver(host = '127.0.0.1'): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = { url: '', spans: [], points: [], requests: [], status: 200, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
      const contentType = String(req.headers['content-type'] ?? '');
      receiver.requests.push({ path: req.url ?? '', contentType, headers: req.headers });
      if (receiver.status === 0) return;
      if (receiver.status !== 200) {
        res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('refused');
        return;
      }
      const json = contentType.includes('json');
      // By the path's end: a collector behind a prefix (`/otlp/v1/traces`) or a query (`?token=…`) too.
      const pathname = new URL(req.url ?? '/', 'http://receiver').pathname;
      if (pathname.endsWith('/v1/traces')) {
        const message = json ? JSON.parse(body.toString('utf8')) : decode(proto.collector.trace.v1.ExportTraceServiceRequest, body);
        receiver.spans.push(...spansOf(message));
      } else if (pathname.endsWith('/v1/metrics')) {
        const message = json ? JSON.parse(body.toString('utf8')) : decode(proto.collector.metrics.v1.ExportMetricsServiceRequest, body);
        receiver.points.push(...pointsOf(message));
      }
      res.writeHead(200, { 'content-type': contentType || 'application/json' }).end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address() as { port: number };
  receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** Protobuf decoded to the same object shape as OTLP/JSON: ids in hex, 64-bit numbers as strings. */
function decode(type: any, body: Buffer): any {
  const object = type.toObject(type.decode(body), { longs: String, bytes: String, enums: Number, defaults: false });
  return hexIds(object);
}

function hexIds(value: any): any {
  if (Array.isArray(value)) return value.map(hexIds);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = /^(traceId|spanId|parentSpanId)$/.test(k) && typeof v === 'string' ? Buffer.from(v, 'base64').toString('hex') : hexIds(v);
    return out;
  }
  return value;
}

function spansOf(message: any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of message.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          name: s.name,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          traceState: s.traceState ?? '',
          kind: s.kind ?? 0,
          attributes: attributesOf(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message },
          events: (s.events ?? []).map((e: any) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
          resource,
          startMs: Number(BigInt(s.startTimeUnixNano) / 1_000_000n),
          endMs: Number(BigInt(s.endTimeUnixNano) / 1_000_000n),
        });
      }
    }
  }
  return out;
}

function pointsOf(message: any): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  for (const rm of message.resourceMetrics ?? []) {
    const resource = attributesOf(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        for (const p of m.sum?.dataPoints ?? []) out.push({ metric: m.name, attributes: attributesOf(p.attributes), value: Number(p.asInt ?? p.asDouble ?? 0), unit: m.unit, temporality: m.sum.aggregationTemporality, resource });
        for (const p of m.histogram?.dataPoints ?? []) {
          out.push({ metric: m.name, attributes: attributesOf(p.attributes), value: Number(p.count ?? 0), sum: Number(p.sum ?? 0), bounds: (p.explicitBounds ?? []).map(Number), unit: m.unit, temporality: m.histogram.aggregationTemporality, resource });
        }
      }
    }
  }
  return out;
}

function attributesOf(list: any[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) out[a.key] = valueOf(a.value);
  return out;
}

function valueOf(v: any): unknown {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
