// The global fetch knows no proxy variable (undici reads none): what leaves the machine with a
// fetch (MCP over HTTP, the GitHub API of the action and of hand-offs) goes through the proxy
// HTTPS_PROXY / HTTP_PROXY name by way of the providers' transport (node-fetch.ts, util/proxy.ts).
// Cheap to import: util/proxy.ts and node-fetch.ts are loaded only when a proxy variable is set.
import { proxyVariablesSet } from '../util/proxy-variables.js';

/** fetch, through the proxy the variables name for the request's URL; the global fetch otherwise. */
export async function proxiedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (!proxyVariablesSet()) return fetch(input, init);
  const url = typeof input === 'string' || input instanceof URL ? new URL(input) : null;
  if (!url || !(await import('../util/proxy.js')).proxyFor(url)) return fetch(input, init);
  return (await import('./node-fetch.js')).nodeFetch(url, init);
}
