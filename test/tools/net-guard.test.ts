import { describe, expect, it } from 'vitest';
import { checkHost, refusedAddressReason, type ResolveHost } from '../../src/tools/net-guard.js';

describe('refusedAddressReason', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['10.20.30.40', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local.*metadata/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /this network/],
    ['224.0.0.251', /multicast/],
    ['255.255.255.255', /reserved or broadcast/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fd00::1', /unique local/],
    ['fc12:3456::1', /unique local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback address in IPv6 form/],
    ['::ffff:7f00:1', /loopback address in IPv6 form/],
    ['::ffff:169.254.169.254', /link-local.*IPv6 form/],
    ['::ffff:a9fe:a9fe', /link-local.*IPv6 form/],
    ['::10.0.0.1', /private address in IPv6 form/],
    ['64:ff9b::192.168.0.1', /private address in IPv6 form/],
    ['2002:7f00:1::', /loopback address in IPv6 form/],
  ])('refuses %s', (address, reason) => {
    expect(refusedAddressReason(address)).toMatch(reason);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'lets the public address %s through',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );
});

describe('checkHost', () => {
  const table: Record<string, string[]> = {
    'public.test': ['93.184.216.34'],
    'intranet.test': ['10.1.2.3'],
    'mixed.test': ['93.184.216.34', '192.168.0.7'],
    'v6private.test': ['2606:4700::1111', 'fd00::7'],
  };
  const lookups: string[] = [];
  const resolve: ResolveHost = async (host) => {
    lookups.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it.each([
    ['public.test', null],
    ['PUBLIC.test.', null],
    ['intranet.test', /'intranet.test' resolves to 10.1.2.3, a private address/],
    ['mixed.test', /resolves to 192.168.0.7/],
    ['v6private.test', /resolves to fd00::7/],
    ['[::1]', /loopback/],
    ['nowhere.test', /cannot resolve 'nowhere.test' \(ENOTFOUND\)/],
  ])('%s -> %s', async (host, refusal) => {
    const check = await checkHost(host, new Set(), resolve);
    if (refusal === null) expect(check).toEqual({ ok: true, targets: [{ address: '93.184.216.34', family: 4 }] });
    else expect(check.ok ? 'allowed' : check.reason).toMatch(refusal);
  });

  it('refuses metadata host names before asking DNS', async () => {
    lookups.length = 0;
    const check = await checkHost('metadata.google.internal', new Set(), resolve);
    expect(check).toEqual({ ok: false, reason: "'metadata.google.internal' is a cloud metadata host" });
    expect(lookups).toEqual([]);
  });

  it('lets a host that an allow rule names exactly resolve to a private address, and no other', async () => {
    const allowed = new Set(['intranet.test']);
    expect(await checkHost('Intranet.Test', allowed, resolve)).toEqual({ ok: true, targets: [{ address: '10.1.2.3', family: 4 }] });
    expect((await checkHost('mixed.test', allowed, resolve)).ok).toBe(false);
  });
});
