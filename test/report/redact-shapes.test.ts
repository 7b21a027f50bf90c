// Token shapes a run can meet in files and command output without knowing the value: as those
// services issue them today, in the places they are found (config files, CLI output, headers).
// And ordinary text, hashes and ids around them stay as they are.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/report/redact.js';

const r = new Redactor([]);
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const SESSION_TOKEN = `IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD${'x7Yq'.repeat(60)}==`;

describe('redaction of token shapes', () => {
  it.each([
    ['npm token in .npmrc', `//registry.npmjs.org/:_authToken=npm_${'k9P2xQ7mZ4'.repeat(3)}aB3dE6`, '//registry.npmjs.org/:_authToken=[REDACTED]'],
    ['legacy npm token (a UUID) in .npmrc', '//registry.npmjs.org/:_authToken=6c0a4a3e-1b2d-4f5e-9a8b-7c6d5e4f3a2b', '//registry.npmjs.org/:_authToken=[REDACTED]'],
    ['GitLab personal access token', 'glpat-xz9Yq3vT7bR2mK8nL4pW', '[REDACTED]'],
    ['GitLab routable token (with its version and check)', 'export GITLAB_TOKEN=glpat-hMg6Hq7CdH1ZHl3yKaBjUm86MQp1OjEH.01.0w1qakc8m', 'export GITLAB_TOKEN=[REDACTED]'],
    ['Stripe live secret key', `Authorization: Bearer sk_live_51H8kq2LkdIwHu7ix${'Qm3ZrT8vWp'.repeat(8)}`, 'Authorization: Bearer [REDACTED]'],
    ['Stripe restricted key', `STRIPE_KEY=rk_live_51H8kq2LkdIwHu7ix${'Yb6NcD1sFg'.repeat(5)}`, 'STRIPE_KEY=[REDACTED]'],
    ['GitHub fine-grained token', `token: github_pat_11ABCDEFG0${'aZ3bY4cX5d'.repeat(2)}_${'Qw8Er7Ty6U'.repeat(5)}i9O0p`, 'token: [REDACTED]'],
    ['JWT in a header', 'Authorization: Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIiwic3ViIjoiMTIzIn0.TJVA95OrM7E2cBab30RMHrHDcEfxjoYZgeFONFh7HgQ', 'Authorization: Bearer [REDACTED]'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE', '[REDACTED]'],
    ['AWS temporary access key id', 'ASIAY34FZKBOKMUTVV7A', '[REDACTED]'],
    ['AWS keys in ~/.aws/credentials', `aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = ${AWS_SECRET}`, 'aws_access_key_id = [REDACTED]\naws_secret_access_key = [REDACTED]'],
    ['AWS keys in the environment', `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, 'AWS_ACCESS_KEY_ID=[REDACTED] AWS_SECRET_ACCESS_KEY=[REDACTED]'],
    [
      'AWS CLI output (aws sts assume-role)',
      `{"Credentials": {"AccessKeyId": "ASIAY34FZKBOKMUTVV7A", "SecretAccessKey": "${AWS_SECRET}", "SessionToken": "${SESSION_TOKEN}"}}`,
      '{"Credentials": {"AccessKeyId": "[REDACTED]", "SecretAccessKey": "[REDACTED]", "SessionToken": "[REDACTED]"}}',
    ],
    ['AWS keys in a console CSV download', `Access key ID,Secret access key\nAKIAIOSFODNN7EXAMPLE,${AWS_SECRET}`, 'Access key ID,Secret access key\n[REDACTED],[REDACTED]'],
    ['an AWS secret key in Java properties', `aws.secretKey=${AWS_SECRET}`, 'aws.secretKey=[REDACTED]'],
    ['an AWS session token in the environment', `AWS_SESSION_TOKEN=${SESSION_TOKEN}`, 'AWS_SESSION_TOKEN=[REDACTED]'],
  ])('%s', (_what, input, expected) => {
    expect(r.redact(input)).toBe(expected);
    // Inside a JSON string (a transcript line) too.
    expect(JSON.parse(r.redact(JSON.stringify(input)))).toBe(expected);
  });

  it('finds a token at the start of a line of tool output inside a transcript line (after the JSON escape \\n or \\t)', () => {
    const output = `ok\nghp_${'a1B2c3D4e5'.repeat(4)}\nAKIAIOSFODNN7EXAMPLE\tnpm_${'Zy9Xw8Vu7T'.repeat(3)}abcdef\n-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----`;
    const line = r.redact(JSON.stringify({ type: 'tool_result', llm_content: output }));
    expect(JSON.parse(line).llm_content).toBe('ok\n[REDACTED]\n[REDACTED]\t[REDACTED]\n[REDACTED]');
  });

  it('leaves ordinary text, hashes and ids alone', () => {
    const text = [
      'commit 3f786850e387550fdab836ed7e6dc881de23001b (a 40-character hash) and a sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'The secret key is rotated monthly; see the access key docs. secret_access_key: <set in CI>',
      'npm_config_cache=/home/u/.npm npm_package_version=1.2.3 npm_lifecycle_event=test',
      'glpat- tokens start with glpat-; Stripe keys look like sk_live_... and pk_live_51H8kq2LkdIwHu7ixAbCdEf is publishable',
      'request 6c0a4a3e-1b2d-4f5e-9a8b-7c6d5e4f3a2b took 20 ms; eyJhbGciOiJIUzI1NiJ9 is only a header',
      'AKIA is the prefix of AWS key ids; ASIAN markets; base64: dGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==',
      'key: 0123456789abcdef0123456789abcdef01234567, github_pat_ is a prefix, _authToken=${NPM_TOKEN}',
    ].join('\n');
    expect(r.redact(text)).toBe(text);
  });
});
