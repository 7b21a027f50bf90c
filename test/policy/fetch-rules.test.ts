import { describe, expect, it } from 'vitest';
import { exactAllowedHosts, redirectCheck } from '../../src/policy/fetch-rules.js';
import type { ConfirmationPolicy, PolicyRule } from '../../src/recipe/types.js';

const rule = (tool: string, pattern: string | null = null): PolicyRule => ({ tool, pattern, source: pattern === null ? tool : `${tool}: ${pattern}` });
const policy = (mode: ConfirmationPolicy['mode'], allow: PolicyRule[] = [], deny: PolicyRule[] = []): ConfirmationPolicy => ({ mode, allow, deny });

describe('redirectCheck: every hop held to the host rules', () => {
  it.each([
    ['allowlist: exact host allowed', policy('allowlist', [rule('web_fetch', 'docs.python.org')]), 'https://docs.python.org/3/', null],
    ['allowlist: another host refused', policy('allowlist', [rule('web_fetch', 'docs.python.org')]), 'https://evil.example/x', /'evil\.example' is not covered by any allow rule \(allowed: web_fetch: docs\.python\.org\)/],
    ['allowlist: subdomain rule', policy('allowlist', [rule('web_fetch', '*.python.org')]), 'https://peps.python.org/', null],
    ['allowlist: subdomain rule does not cover the domain', policy('allowlist', [rule('web_fetch', '*.python.org')]), 'https://python.org/', /not covered/],
    ['allowlist: a bare web_fetch rule allows any host', policy('allowlist', [rule('web_fetch')]), 'https://anywhere.example/', null],
    ['allowlist: rules of other tools do not count', policy('allowlist', [rule('shell', 'git diff *')]), 'https://a.example/', /no web_fetch allow rule/],
    ['auto-approve: any host', policy('auto-approve'), 'http://a.example/', null],
    ['a deny rule wins in every mode', policy('auto-approve', [], [rule('web_fetch', '*.internal.example')]), 'http://internal.example/', /deny rule 'web_fetch: \*\.internal\.example'/],
    ['a deny rule wins over an allow rule', policy('allowlist', [rule('web_fetch')], [rule('web_fetch', 'tracker.example')]), 'http://tracker.example/', /deny rule/],
    ['a broken rule refuses', policy('allowlist', [rule('web_fetch', 'https://x.example/path')]), 'https://x.example/path', /cannot be used/],
    ['no http(s) host', policy('auto-approve'), 'file:///etc/passwd', /has no http\(s\) host/],
    // '。' is the dot a URL makes of it: the rule is the host 'example.org.', as 'example.org.' is.
    ['allowlist: a rule ending in an ideographic full stop', policy('allowlist', [rule('web_fetch', 'example.org\u3002')]), 'https://example.org/', null],
  ])('%s', (_name, p, url, expected) => {
    const refusal = redirectCheck(p)(url);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });
});

describe('exactAllowedHosts', () => {
  it('takes hosts web_fetch allow rules name exactly: they may be loopback or private', () => {
    const p = policy('allowlist', [rule('web_fetch', '127.0.0.1'), rule('web_fetch', '*.corp.example'), rule('web_fetch'), rule('edit', 'docs/**'), rule('web_fetch', 'Intranet.Example.')]);
    expect(exactAllowedHosts(p)).toEqual(['127.0.0.1', 'intranet.example']);
  });

  it('keeps the port a rule names', () => {
    const p = policy('allowlist', [rule('web_fetch', 'localhost:8080'), rule('web_fetch', '[::1]:3000'), rule('web_fetch', '[::1]')]);
    expect(exactAllowedHosts(p)).toEqual(['localhost:8080', '[::1]:3000', '::1']);
  });

  it.each(['auto-approve', 'deny'] as const)('takes none under %s, where allow rules decide nothing', (mode) => {
    expect(exactAllowedHosts(policy(mode, [rule('web_fetch', 'localhost:1'), rule('web_fetch', '127.0.0.1')]))).toEqual([]);
  });
});
