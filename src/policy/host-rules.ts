// web_fetch rules name hosts: `example.org` (that host only) or `*.example.org` (its subdomains;
// for a deny rule, the domain itself too). Ports and schemes are not part of a pattern.

export interface HostPattern {
  host: string;
  subdomains: boolean;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV6 = /^\[[0-9a-f:.]+\]$/;

export function compileHostPattern(pattern: string): { ok: true; pattern: HostPattern } | { ok: false; reason: string } {
  let text = pattern.trim().toLowerCase().replace(/\.$/, '');
  const subdomains = text.startsWith('*.');
  if (subdomains) text = text.slice(2);
  if (HOST_NAME.test(text) || (!subdomains && IPV6.test(text))) {
    return { ok: true, pattern: { host: text.replace(/^\[|\]$/g, ''), subdomains } };
  }
  return { ok: false, reason: `'${pattern}' is not a host pattern (write example.org or *.example.org, without scheme, port or path)` };
}

/** The host a fetch would reach, lower-case without a trailing dot; null for anything but http(s). */
export function urlHost(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, '');
  return host === '' ? null : host;
}

export function hostAllowed(host: string, pattern: HostPattern): boolean {
  return pattern.subdomains ? host.endsWith(`.${pattern.host}`) : host === pattern.host;
}

/** Deny rules match generously: `*.example.org` also covers example.org itself. */
export function hostDenied(host: string, pattern: HostPattern): boolean {
  return host === pattern.host || (pattern.subdomains && host.endsWith(`.${pattern.host}`));
}
