// An OTLP endpoint whose URL carries a query (`https://h/otlp?token=x`, as some hosted collectors
// authenticate): the OpenTelemetry JS exporter requests the URL's path alone (its http transport
// sends `parsedUrl.pathname`), so the token never reached the collector and every export was
// refused. The exporter is given an agent that puts the query back on each request's path, with
// the TLS files the exporter itself would have read from the environment (a factory of ours
// replaces its own).
import fs from 'node:fs';
import type http from 'node:http';

type Signal = 'TRACES' | 'METRICS';

/** The exporter's `httpAgentOptions` for `url`, or undefined when the URL has no query (the exporter's own agent then). */
export function queryAgentFactory(url: string, signal: Signal, env: NodeJS.ProcessEnv = process.env): ((protocol: string) => Promise<http.Agent>) | undefined {
  let search: string;
  try {
    search = new URL(url).search;
  } catch {
    return undefined;
  }
  if (!search) return undefined;
  return async (protocol) => {
    const module = protocol === 'http:' ? await import('node:http') : await import('node:https');
    const tls = protocol === 'http:' ? {} : tlsFiles(signal, env);
    const agent = new module.Agent({ keepAlive: true, ...tls });
    // addRequest runs before the request line is written: the path it leaves is the one sent.
    const withAdd = agent as unknown as { addRequest(req: http.ClientRequest, options: unknown): void };
    const add = withAdd.addRequest.bind(agent);
    withAdd.addRequest = (req, options) => {
      if (!req.path.includes('?')) req.path += search;
      add(req, options);
    };
    return agent;
  };
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
