// web_fetch rules name hosts (recipe/rule-host.ts): `example.org` (that host only) or
// `*.example.org` (its subdomains; for a deny rule, the domain itself too), on any port unless the
// rule names one, which then must be the URL's port (its scheme's default when it names none).
import type { HostPattern } from '../recipe/rules.js';
import { unmapIpv4 } from '../util/mapped-ipv4.js';

export type { HostPattern } from '../recipe/rules.js';

/** Where a fetch would go: host as in host-rules, and the port, explicit or the scheme's default. */
export interface UrlTarget {
  host: string;
  port: number;
}

/** The host and port a fetch would reach; null for anything but http(s). */
export function urlTarget(url: string): UrlTarget | null {
  const host = urlHost(url);
  if (host === null) return null;
  const parsed = new URL(url);
  return { host, port: parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port) };
}


/**
 * The host a fetch would reach, lower-case without a trailing dot, an IPv4-mapped IPv6 address as
 * the IPv4 address it is; null for anything but http(s).
 */
export function urlHost(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = unmapIpv4(parsed.hostname.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, ''));
  return host === '' ? null : host;
}

export function hostAllowed(target: UrlTarget, pattern: HostPattern): boolean {
  if (pattern.port !== null && target.port !== pattern.port) return false;
  return pattern.subdomains ? target.host.endsWith(`.${pattern.host}`) : target.host === pattern.host;
}

/** Deny rules match generously: `*.example.org` also covers example.org itself. */
export function hostDenied(target: UrlTarget, pattern: HostPattern): boolean {
  if (pattern.port !== null && target.port !== pattern.port) return false;
  return target.host === pattern.host || (pattern.subdomains && target.host.endsWith(`.${pattern.host}`));
}
