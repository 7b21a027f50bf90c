// Whether the environment names an HTTP proxy at all: checked by the transports before each new
// connection so that the proxy code (proxy.ts) is loaded only when one is set. Read once: the
// environment of a run does not change under it.
let set: boolean | undefined;

export function proxyVariablesSet(): boolean {
  set ??= ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'].some((name) => !!process.env[name]);
  return set;
}
