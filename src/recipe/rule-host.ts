// web_fetch rule patterns: a host (`example.org`), its subdomains (`*.example.org`), either with
// a port (`localhost:8080`), or an IP address (`127.0.0.1`, `[::1]:3000`). Internationalised
// names are compared in their ASCII (punycode) form, and IP addresses in their canonical form
// (`0x7f.1` is 127.0.0.1, `[2606:4700:0:0:0:0:0:1111]` is 2606:4700::1111), as URLs carry them:
// a rule written another way than the URL parser writes the host would match nothing.
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { unmapIpv4 } from '../util/mapped-ipv4.js';

export interface HostPattern {
  /** Lower-case ASCII, without brackets for IPv6 and without a trailing dot. */
  host: string;
  /** `*.host`: the subdomains of host (for a deny rule, the host itself too). */
  subdomains: boolean;
  /** Only this port (a URL without one has its scheme's default); null: any port. */
  port: number | null;
}

type Compiled = { ok: true; matcher: HostPattern } | { ok: false; reason: string };

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV6 = /^\[([^\]]*)\]$/;
const HINT = 'write a host such as "docs.python.org", "*.python.org" or "localhost:8080" (no scheme, path or user name)';

export function compileHostPattern(pattern: string): Compiled {
  const text = pattern.trim();
  if (text === '') return { ok: false, reason: `the pattern is empty: ${HINT}` };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { ok: false, reason: `'${pattern}' is a URL: ${HINT}` };
  if (/[/?#@\s]/.test(text)) return { ok: false, reason: `'${pattern}' is not a host: ${HINT}` };
  let rest = text;
  let port: number | null = null;
  const portMatch = /:(\d+)$/.exec(rest);
  if (portMatch && (rest.startsWith('[') ? rest.lastIndexOf(']') < portMatch.index : !rest.slice(0, portMatch.index).includes(':'))) {
    port = Number(portMatch[1]);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, reason: `'${pattern}' has the port ${portMatch[1]}, which is not between 1 and 65535` };
    rest = rest.slice(0, portMatch.index);
  }
  // An IPv6 address in brackets, or bare when it has no port (`::1`).
  const ipv6 = IPV6.exec(rest) ?? (port === null && net.isIPv6(rest) ? [rest, rest] : null);
  if (ipv6) {
    const host = canonicalIpv6(ipv6[1]!);
    if (host === null) return { ok: false, reason: `'${pattern}' is not an IPv6 address: write one such as "[2606:4700::1111]" or "[::1]:3000"` };
    return { ok: true, matcher: { host, subdomains: false, port } };
  }
  const subdomains = rest.startsWith('*.');
  if (subdomains) rest = rest.slice(2);
  if (rest.includes('*')) return { ok: false, reason: `'${pattern}': '*' may only open the pattern as '*.' (all subdomains): ${HINT}` };
  // The trailing dot goes after the conversion too: '。' (U+3002) is a dot once converted, as in a URL.
  const ascii = domainToASCII(rest.replace(/\.$/, '')).toLowerCase().replace(/\.$/, '');
  if (ascii === '' || !HOST_NAME.test(ascii)) return { ok: false, reason: `'${pattern}' is not a host: ${HINT}` };
  // An address has no subdomains: as an allow rule `*.127.0.0.1` would approve no fetch at all.
  if (subdomains && net.isIPv4(ascii)) return { ok: false, reason: `'${pattern}': ${ascii} is an IP address, which has no subdomains: write "${ascii}" without '*.'` };
  return { ok: true, matcher: { host: ascii, subdomains, port } };
}

/** The address as a URL's host writes it (lower case, zeros compressed), without brackets; null when it is none. */
function canonicalIpv6(address: string): string | null {
  if (!net.isIPv6(address)) return null;
  try {
    // An IPv4-mapped address is the IPv4 address, as a URL's host is read (policy/host-rules.ts).
    return unmapIpv4(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return null; // a zone id (fe80::1%eth0): no URL carries one
  }
}
