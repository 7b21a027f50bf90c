// The OpenTelemetry JS exporter addresses its endpoint from the URL's parts in a way that loses
// two kinds of endpoint, each fixed by the agent the exporter is given:
// - a query (`https://h/otlp?token=x`, as some hosted collectors authenticate): its http transport
//   sends the URL's path alone, so the token never reached the collector and every export was
//   refused. The agent puts the query back on each request's path.
// - an IPv6 literal (`http://[::1]:4318`): it gives Node the host with its brackets, which Node
//   looks up as a name (getaddrinfo ENOTFOUND [::1]). The agent connects to the address itself.
// The agent carries the TLS files the exporter would have read from the environment (a factory of
// ours replaces its own). Behind the proxy a proxy variable names, the agent goes through it
// (proxy-agent.ts, loaded only then). Any other URL keeps the exporter's own agent.
import fs from 'node:fs';
import type http from 'node:http';
import { proxyVariablesSet } from '../util/proxy-variables.js';

type Signal = 'TRACES' | 'METRICS';

/** The exporter's `httpAgentOptions` for `url`, or undefined when it needs none (the exporter's own agent then). */
export function endpointAgentFactory(url: string, signal: Signal, env: NodeJS.ProcessEnv = process.env): ((protocol: string) => Promise<http.Agent>) | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const search = parsed.search;
  const bracketed = parsed.hostname.startsWith('[');
  const proxied = proxyVariablesSet();
  if (!search && !bracketed && !proxied) return undefined;
  return async (protocol) => {
    const tls = protocol === 'http:' ? {} : tlsFiles(signal, env);
    // A variable that names no usable proxy throws here: the export fails, and the run's warning says why.
    const route = proxied ? (await import('../util/proxy.js')).proxyFor(parsed) : null;
    const module = protocol === 'http:' ? await import('node:http') : await import('node:https');
    const agent = route ? (await import('./proxy-agent.js')).proxyAgent(route, parsed, tls) : new module.Agent({ keepAlive: true, ...tls });
    // addRequest runs before the request line is written: the path it leaves is the one sent.
    const withAdd = agent as unknown as { addRequest(req: http.ClientRequest, options: unknown): void };
    const add = withAdd.addRequest.bind(agent);
    withAdd.addRequest = (req, options) => {
      if (search && !req.path.includes('?')) req.path += search;
      // The Host header is already written (with the brackets, as HTTP wants it); the connection takes the address.
      const { host, hostname } = options as { host?: unknown; hostname?: unknown };
      add(req, { ...(options as object), host: unbracketed(host), hostname: unbracketed(hostname) });
    };
    return agent;
  };
}

function unbracketed(host: unknown): unknown {
  return typeof host === 'string' && host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** OTEL_EXPORTER_OTLP_[SIGNAL_]CERTIFICATE, _CLIENT_CERTIFICATE and _CLIENT_KEY, read as the exporter reads them. */
function tlsFiles(signal: Signal, env: NodeJS.ProcessEnv): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const read = (name: string): Buffer | undefined => {
    const file = env[`OTEL_EXPORTER_OTLP_${signal}_${name}`]?.trim() || env[`OTEL_EXPORTER_OTLP_${name}`]?.trim();
    if (!file) return undefined;
    try {
      return fs.readFileSync(file);
    } catch {
      // The exporter's own reading warns and goes on without it; so does this one.
      return undefined;
    }
  };
  const ca = read('CERTIFICATE');
  const cert = read('CLIENT_CERTIFICATE');
  const key = read('CLIENT_KEY');
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}
