// Redaction before anything is written: transcript, reports, stdout, error messages. Two nets:
// the exact values of every secret the runner knows (from its own environment), and
// high-confidence token shapes for secrets it does not know (a key the model read from a file).
const TOKEN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g, // OpenAI and compatible
  /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, // Slack
  /\bxapp-\d-[A-Za-z0-9-]{10,}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm access tokens
  /\bgl(?:pat|dt|rt|ptt|cbt|imt|soat|ft|oas)-[A-Za-z0-9_-]{20,}\b/g, // GitLab tokens
  /\bGR1348941[A-Za-z0-9_-]{20,}\b/g, // GitLab runner registration tokens
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}\b/g, // Stripe secret and restricted keys
  /\bwhsec_[A-Za-z0-9+/=]{24,}/g, // Stripe webhook signing secrets
  /\bhf_[A-Za-z0-9]{30,}\b/g, // Hugging Face
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs (header.payload.signature)
];

// An AWS secret access key has no shape of its own: only next to its name. A separate pass, run
// only on text that names it: a lookbehind in the alternation above made every line 10x slower.
const AWS_SECRET = /(\baws_?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi;

// `scheme://user:password@host`: keep the scheme and host, drop the credentials.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'\\]+:[^\s/@"'\\]+@/gi;

/** Environment names whose values are secrets wherever they appear. */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

export const REDACTED = '[REDACTED]';

// Every event line passes through here: the shapes are one alternation, so a line is scanned once.
const TOKENS = new RegExp(TOKEN_PATTERNS.map((p) => p.source).join('|'), 'g');

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
    }
    return new Redactor(secrets);
  }

  redact(text: string): string {
    let out = (this.exact ? text.replace(this.exact, REDACTED) : text).replace(TOKENS, REDACTED);
    if (out.includes('@')) out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
    if (/ecret_?access/i.test(out)) out = out.replace(AWS_SECRET, `$1${REDACTED}`);
    return out;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
