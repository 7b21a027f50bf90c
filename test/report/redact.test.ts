import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/report/redact.js';

describe('redaction', () => {
  const r = Redactor.fromEnv({ GEMINI_API_KEY: 'k3y-"quoted"\\value-1234', MY_SERVICE_TOKEN: 'tok_live_abcdefgh', HOME: '/root', SHORT_KEY: 'abc' });

  it.each([
    ['exact secret from the environment', 'key is tok_live_abcdefgh here', 'key is [REDACTED] here'],
    ['a secret as it appears inside a JSON string', JSON.stringify({ v: 'k3y-"quoted"\\value-1234' }), '{"v":"[REDACTED]"}'],
    ['GitHub token', `token ghp_${'a'.repeat(36)} end`, 'token [REDACTED] end'],
    ['fine-grained GitHub token', `github_pat_${'A1_'.repeat(10)}`, '[REDACTED]'],
    ['Google API key', `AIza${'B'.repeat(35)}`, '[REDACTED]'],
    ['OpenAI key', `sk-proj-${'c'.repeat(40)}`, '[REDACTED]'],
    ['AWS access key id', 'AKIAABCDEFGHIJKLMNOP', '[REDACTED]'],
    ['Slack token', 'xoxb-123456789012-abcdef', '[REDACTED]'],
    ['PEM private key', '-----BEGIN RSA PRIVATE KEY-----\\nMIIB\\n-----END RSA PRIVATE KEY-----', '[REDACTED]'],
    ['URL credentials', 'clone https://user:s3cret@github.com/o/r.git', 'clone https://[REDACTED]@github.com/o/r.git'],
    ['npm token', `//registry.npmjs.org/:_authToken=npm_${'a1B2'.repeat(9)}`, '//registry.npmjs.org/:_authToken=[REDACTED]'],
    ['GitLab personal access token', `PRIVATE-TOKEN: glpat-${'x9_Z'.repeat(5)}`, 'PRIVATE-TOKEN: [REDACTED]'],
    ['GitLab deploy token', `gldt-${'Ab3'.repeat(8)}`, '[REDACTED]'],
    ['Stripe secret key', `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`, '[REDACTED]'],
    ['Stripe restricted key', `rk_test_${'Z'.repeat(30)}`, '[REDACTED]'],
    ['Stripe webhook secret', `whsec_${'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'}`, '[REDACTED]'],
    ['Hugging Face token', `hf_${'q'.repeat(34)}`, '[REDACTED]'],
    ['JWT', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'Authorization: Bearer [REDACTED]'],
    ['Basic credentials in an Authorization header', '> Authorization: Basic dXNlcjpwYXNzd29yZA==', '> Authorization: Basic [REDACTED]'],
    ['an Authorization header echoed as JSON', '{"authorization":"Basic dXNlcjpwdw=="}', '{"authorization":"Basic [REDACTED]"}'],
    ['a bearer token of no known shape', 'proxy-authorization: Bearer 0123456789abcdef', 'proxy-authorization: Bearer [REDACTED]'],
    ['AWS secret access key in a credentials file', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key = [REDACTED]'],
    ['AWS secret access key as JSON', '{"AwsSecretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', '{"AwsSecretAccessKey":"[REDACTED]"}'],
  ])('%s', (_what, input, expected) => {
    expect(r.redact(input)).toBe(expected);
  });

  it('leaves ordinary text alone, short values and non-secret variables included', () => {
    const text = 'HOME is /root; abc; https://github.com/o/r; sk-short; ghp_tooShort; npm_install; hf_x; sk_live_short; eyJ.short; a 40-character hash 0123456789abcdef0123456789abcdef01234567';
    expect(r.redact(text)).toBe(text);
  });

  it("the collector's header values (OTEL_EXPORTER_OTLP_*HEADERS) are secrets too, as written and percent-decoded", () => {
    const otlp = Redactor.fromEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=hcaik_01hqk7abcdefgh,x-env=ci', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Basic%20dXNlcjpwYXNzd29yZDE=' });
    expect(otlp.redact('cat .env: team hcaik_01hqk7abcdefgh; auth Basic dXNlcjpwYXNzd29yZDE=')).toBe('cat .env: team [REDACTED]; auth [REDACTED]');
    // Short values (under 8 characters) would redact ordinary words: left alone, as for any variable.
    expect(otlp.redact('x-env=ci')).toBe('x-env=ci');
  });
});
