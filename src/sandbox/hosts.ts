// Which hosts the network proxy lets through: the recipe's `sandbox.network` list. A name matches
// itself; `*.example.com` matches every name below example.com (not example.com itself, as in
// certificates). Comparison is on the normalised name: lower case, no trailing dot, IPv6 brackets off.

export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

export class HostRules {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(readonly patterns: readonly string[]) {
    for (const pattern of patterns) {
      const p = normaliseHost(pattern);
      if (p.startsWith('*.')) this.suffixes.push(p.slice(1));
      else this.exact.add(p);
    }
  }

  /** Names listed as they are (no wildcard): these may resolve to private or loopback addresses. */
  get exactNames(): ReadonlySet<string> {
    return this.exact;
  }

  allows(host: string): boolean {
    const h = normaliseHost(host);
    if (h === '' || this.exact.has(h)) return h !== '';
    return this.suffixes.some((suffix) => h.endsWith(suffix) && h.length > suffix.length);
  }
}

/** `host:port` of a CONNECT request (`[::1]:443` too); null when it is not one. */
export function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: normaliseHost(m[1]!), port };
}
