// Where web_fetch may connect. A URL the model writes must not reach the machine the run is on,
// its network, or a cloud metadata service (SSRF): every name is resolved first and each address
// checked, and the connection then goes to the checked address, so a second DNS answer (rebinding)
// cannot send it elsewhere. Hosts the recipe's allow rules name exactly are exempt.
import net from 'node:net';
import { unmapIpv4 } from '../util/mapped-ipv4.js';

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * `unresolved`: the name has no address DNS would give (no such name, DNS unreachable): an error
 * of the fetch, not a refusal. Its `code` is the resolver's (ENOTFOUND, EAI_AGAIN), null without one.
 */
export type HostCheck = { ok: true; targets: [CheckedAddress, ...CheckedAddress[]] } | { ok: false; reason: string; unresolved?: { code: string | null } };

/** Resolves a host name to every address it has (the default resolver is dns.lookup, all: true). */
export type ResolveHost = (host: string) => Promise<CheckedAddress[]>;

export const resolveWithDns: ResolveHost = async (host) => {
  // node:dns is loaded by the first web_fetch, not at start-up.
  const found = await process.getBuiltinModule('node:dns').promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Names that reach a metadata service without being an IP address in a refused range. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** [network, prefix length, what it is] */
const REFUSED_V4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'a "this network" address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking-network address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved or broadcast address'],
];

const REFUSED_V6: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

/** IPv6 forms that carry an IPv4 address inside: [prefix, prefix length, byte offset of the IPv4]. */
const EMBEDDED_V4: ReadonlyArray<readonly [string, number, number]> = [
  ['::ffff:0:0', 96, 12], // IPv4-mapped
  ['::', 96, 12], // IPv4-compatible (deprecated, still routed by some stacks)
  ['64:ff9b::', 96, 12], // NAT64
  ['2002::', 16, 2], // 6to4
];

/** Lower case, no trailing dot, no IPv6 brackets: the form allow rules are written in. */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, '');
}

/** A host exempt from the private-address check: on its port only, or on any (null). */
export interface ExactHost {
  host: string;
  port: number | null;
}

/**
 * An exemption as an allow rule writes it: `host`, `host:port`, `::1`, `[::1]` or `[::1]:3000`.
 * An IPv6 address is compared in its canonical (URL) form, as a URL's host is.
 */
export function parseExactHost(entry: string): ExactHost {
  const text = entry.trim();
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(text);
  const withPort = bracketed ? null : /^([^:]*):(\d+)$/.exec(text);
  const host = bracketed?.[1] ?? withPort?.[1] ?? text;
  const port = bracketed?.[2] ?? withPort?.[2];
  return { host: canonicalHost(host), port: port === undefined ? null : Number(port) };
}

/** The port a URL reaches: its own, or its scheme's default. */
export function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

export function isExempt(exempt: readonly ExactHost[], url: URL): boolean {
  const host = canonicalHost(url.hostname);
  const port = portOf(url);
  return exempt.some((e) => e.host === host && (e.port === null || e.port === port));
}

function canonicalHost(host: string): string {
  const name = normalizeHost(host);
  if (!net.isIPv6(name)) return name;
  try {
    // As the policy's host rules read it (policy/host-rules.ts): `[::ffff:127.0.0.1]` is 127.0.0.1.
    return unmapIpv4(normalizeHost(new URL(`http://[${name}]/`).hostname));
  } catch {
    return name;
  }
}

/** Why this address may not be fetched, or null when it is a public address. */
export function refusedAddressReason(address: string): string | null {
  const ip = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) is not part of the address
  const kind = net.isIP(ip);
  if (kind === 4) return refusedV4(v4Bytes(ip));
  if (kind === 6) return refusedV6(v6Bytes(ip));
  return 'not an IP address';
}

/**
 * Resolves `host` and checks every address it has (one refused address refuses the host, so a
 * name cannot mix a public and a private answer). Returns the addresses to connect to, in the
 * resolver's order: all of them, as a browser or curl tries the next when one does not answer.
 */
export async function checkHost(host: string, allowPrivateHosts: ReadonlySet<string>, resolve: ResolveHost): Promise<HostCheck> {
  const name = normalizeHost(host);
  const exempt = allowPrivateHosts.has(name);
  if (!exempt && METADATA_HOSTS.has(name)) return { ok: false, reason: `'${name}' is a cloud metadata host` };
  let addresses: CheckedAddress[];
  if (net.isIP(name)) addresses = [{ address: name, family: net.isIPv6(name) ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { ok: false, reason: `cannot resolve '${name}'${code ? ` (${code})` : ''}`, unresolved: { code: code ?? null } };
    }
  }
  const [first, ...rest] = addresses;
  if (first === undefined) return { ok: false, reason: `'${name}' has no address`, unresolved: { code: null } };
  if (!exempt) {
    for (const { address } of addresses) {
      const why = refusedAddressReason(address);
      if (why) return { ok: false, reason: `'${name}' resolves to ${address}, ${why}` };
    }
  }
  return { ok: true, targets: [first, ...rest] };
}

function refusedV4(bytes: Uint8Array): string | null {
  for (const [network, bits, what] of REFUSED_V4) if (inPrefix(bytes, v4Bytes(network), bits)) return what;
  return null;
}

function refusedV6(bytes: Uint8Array): string | null {
  for (const [network, bits, what] of REFUSED_V6) if (inPrefix(bytes, v6Bytes(network), bits)) return what;
  for (const [prefix, bits, offset] of EMBEDDED_V4) {
    if (inPrefix(bytes, v6Bytes(prefix), bits)) {
      const why = refusedV4(bytes.subarray(offset, offset + 4));
      if (why) return `${why} in IPv6 form`;
    }
  }
  return null;
}

function inPrefix(bytes: Uint8Array, network: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (network[i >> 3]! & mask)) return false;
  }
  return true;
}

function v4Bytes(ip: string): Uint8Array {
  return Uint8Array.from(ip.split('.').map(Number));
}

/** 16 bytes of a valid IPv6 text form, `::` and a trailing dotted quad included. */
function v6Bytes(ip: string): Uint8Array {
  let text = ip.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = v4Bytes(quad[1]!);
    text = `${text.slice(0, quad.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = [...headGroups, ...zeros, ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}
