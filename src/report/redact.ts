// Redaction before anything is written: transcript, reports, stdout, error messages. Two nets:
// the exact values of every secret the runner knows (from its own environment), and
// high-confidence token shapes for secrets it does not know (a key the model read from a file).
const TOKEN_PATTERNS: readonly RegExp[] = [
  /gh[pousr]_[A-Za-z0-9]{36,255}\b/, // GitHub tokens
  /github_pat_[A-Za-z0-9_]{22,255}\b/,
  /AIza[0-9A-Za-z_-]{35}\b/, // Google API keys
  /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/, // OpenAI and compatible
  /(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/, // AWS access key ids
  /xox[abposr]-[A-Za-z0-9-]{10,}\b/, // Slack
  /xapp-\d-[A-Za-z0-9-]{10,}\b/,
  /npm_[A-Za-z0-9]{36}\b/, // npm access tokens
  // GitLab tokens; routable ones (GitLab 17.x) end in `.<version>.<check>`.
  /gl(?:pat|dt|rt|ptt|cbt|imt|soat|ft|oas)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,10})?\b/,
  /GR1348941[A-Za-z0-9_-]{20,}\b/, // GitLab runner registration tokens
  /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}\b/, // Stripe secret and restricted keys
  /whsec_[A-Za-z0-9+/=]{24,}/, // Stripe webhook signing secrets
  /hf_[A-Za-z0-9]{30,}\b/, // Hugging Face
  /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWTs (header.payload.signature)
];

const PEM_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/;

/** Where a word starts: the text's start, a character that is not a word's, or a JSON escape (`\n`, `\t`...). */
const BOUNDARY = String.raw`(?:^|[^A-Za-z0-9_]|\\[nrtbf])`;

// Every event line passes through here: the shapes are one alternation, so a line is scanned once.
// Each starts at a word boundary or right after a JSON escape: in a transcript line a token at the
// start of a line of tool output follows `\n`, whose `n` is a word character, so `\b` alone misses
// it. The escape is matched (and put back), not looked behind for: a lookbehind made it 10x slower.
const TOKENS = new RegExp(String.raw`(\\[nrtbf]|\b)(?:${TOKEN_PATTERNS.map((p) => p.source).join('|')})|${PEM_KEY.source}`, 'g');

// Secrets with no shape of their own are known by their name next to them: an AWS secret access
// key (`aws_secret_access_key = `, `"SecretAccessKey": "`, `aws.secretKey=`), an AWS session
// token, an .npmrc `_authToken` of any form (an npm_ token, a legacy UUID), an `Authorization:`
// header's credentials (`Basic dXNlcjpwYXNz`, `Bearer ...`), and an AWS secret key
// right after its access key id (the console's CSV: `AKIA...,wJalr...`). A separate pass, run only
// on text that has one of those names. A quote may be escaped (`\"`): the text may be a JSON line.
const NAMED_SECRETS = new RegExp(
  [
    String.raw`(${BOUNDARY}(?:aws_?)?secret_?access_?key(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    String.raw`(${BOUNDARY}aws[._]?secret_?key(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    String.raw`(${BOUNDARY}(?:aws_?)?session_?token(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)[A-Za-z0-9/+=]{100,}`,
    String.raw`(${BOUNDARY}(?:AKIA|ASIA)[0-9A-Z]{16}(?:[,;| ]|\\t){1,4})[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    String.raw`(_authToken\s*=\s*)(?!\$\{)[^\s"'\\]{16,}`,
    // An HTTP Authorization header's credentials (curl -v, a server that echoes its request).
    String.raw`(${BOUNDARY}(?:proxy-)?authorization(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?:basic|bearer|token|digest)\s+)[A-Za-z0-9._~+/=-]{8,}`,
  ].join('|'),
  'gi',
);
const NAMES = /secret_?access|secret_?key|session_?token|AKIA|ASIA|_authToken|authorization/i;

// `scheme://user:password@host`: keep the scheme and host, drop the credentials.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'\\]+:[^\s/@"'\\]+@/gi;

/** Environment names whose values are secrets wherever they appear. */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

export const REDACTED = '[REDACTED]';

/** OTEL_EXPORTER_OTLP_HEADERS and its per-signal forms: `key=value,…`, each value a secret. */
const OTLP_HEADERS = /^OTEL_EXPORTER_OTLP_(?:TRACES_|METRICS_|LOGS_)?HEADERS$/;

function headerValues(list: string): string[] {
  const values: string[] = [];
  for (const pair of list.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const raw = pair.slice(eq + 1).trim();
    values.push(raw);
    try {
      values.push(decodeURIComponent(raw));
    } catch {
      // the raw value is enough
    }
  }
  return values;
}

export class Redactor {
  private readonly exact: RegExp | null;

  constructor(secrets: Iterable<string>) {
    const values = new Set<string>();
    for (const s of secrets) {
      // Very short values would redact ordinary words; real secrets are longer.
      if (s.length < 8) continue;
      values.add(s);
      // The same value as it appears inside a JSON string.
      values.add(JSON.stringify(s).slice(1, -1));
    }
    const sorted = [...values].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.exact = sorted.length ? new RegExp(sorted.join('|'), 'g') : null;
  }

  /** Secrets taken from an environment: every variable whose name says it holds one. */
  static fromEnv(env: NodeJS.ProcessEnv, extra: Iterable<string> = []): Redactor {
    const secrets: string[] = [...extra];
    for (const [name, value] of Object.entries(env)) {
      if (value && SECRET_NAME.test(name)) secrets.push(value);
      // The collector's credentials (x-honeycomb-team=…, authorization=Basic …) have no shape of their own.
      else if (value && OTLP_HEADERS.test(name)) secrets.push(...headerValues(value));
    }
    return new Redactor(secrets);
  }

  redact(text: string): string {
    let out = this.exact ? text.replace(this.exact, REDACTED) : text;
    // Before the shapes: the access key id that names a secret beside it is still there to see.
    // Each alternative keeps its name (its one group) and loses the value.
    if (NAMES.test(out)) out = out.replace(NAMED_SECRETS, (...m: unknown[]) => `${m.slice(1, 7).find((g) => typeof g === 'string') ?? ''}${REDACTED}`);
    out = out.replace(TOKENS, (_whole, start: string | undefined) => `${start ?? ''}${REDACTED}`);
    if (out.includes('@')) out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
    return out;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
