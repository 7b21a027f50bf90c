// The OTLP exporters send with node:http / node:https and an agent, and read no proxy variable:
// a collector beyond the proxy HTTPS_PROXY / HTTP_PROXY name was never reached. The agent made
// here goes through it as model requests do (util/proxy.ts): an https collector through a
// CONNECT tunnel, TLS to the collector inside it (with the exporter's CA and client certificate),
// an http one sent to the proxy in absolute form with the proxy's credentials. Loaded only when a
// proxy variable is set and names a proxy for the collector (endpoint-agent.ts).
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { tunnelAgent, type ProxyRoute } from '../util/proxy.js';

type AgentWithAdd = http.Agent & { addRequest(req: http.ClientRequest, options: unknown): void };

/** An agent that sends each request of the exporter for `url` through `route`. */
export function proxyAgent(route: ProxyRoute, url: URL, tlsOptions: tls.SecureContextOptions): http.Agent {
  if (url.protocol === 'https:') return tunnelAgent(route, tlsOptions);
  const agent = new http.Agent({ keepAlive: true }) as AgentWithAdd;
  const add = agent.addRequest.bind(agent);
  // addRequest runs before the request line and headers are written: the path it leaves is the one sent.
  agent.addRequest = (req, options) => {
    req.path = `${url.protocol}//${url.host}${req.path}`;
    if (route.authorization) req.setHeader('proxy-authorization', route.authorization);
    add(req, { ...(options as object), host: route.host, hostname: route.host, port: route.port });
  };
  if (route.secure) {
    // An https:// proxy: TLS to the proxy itself, the request inside it plain as to any proxy.
    (agent as unknown as { createConnection: (options: http.ClientRequestArgs) => Duplex }).createConnection = () =>
      tls.connect({ host: route.host, port: route.port, servername: net.isIP(route.host) ? undefined : route.host });
  }
  return agent;
}
