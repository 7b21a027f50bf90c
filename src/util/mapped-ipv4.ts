// An IPv4 address written as IPv4-mapped IPv6 (`[::ffff:127.0.0.1]`, which a URL's host becomes
// `::ffff:7f00:1`) reaches the same machine as the dotted form: host rules and exemptions compare
// the dotted form, so a rule naming `203.0.113.7` means that address however the URL spells it.

/** The dotted IPv4 address a URL host in IPv4-mapped form (`::ffff:7f00:1`, no brackets) stands for, else the host unchanged. */
export function unmapIpv4(host: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
