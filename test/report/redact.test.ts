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
  ])('%s', (_what, input, expected) => {
    expect(r.redact(input)).toBe(expected);
  });

  it('leaves ordinary text alone, short values and non-secret variables included', () => {
    const text = 'HOME is /root; abc; https://github.com/o/r; sk-short; ghp_tooShort';
    expect(r.redact(text)).toBe(text);
  });
});
