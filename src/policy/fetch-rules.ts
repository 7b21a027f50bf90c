// web_fetch and the recipe's host rules beyond the first URL. The policy judges the URL the model
// wrote; a redirect can lead anywhere, so every hop is held to the same rules here: deny rules in
// every mode, and under allowlist the allow rules. Hosts an allowlist's allow rule names exactly
// (on the rule's port, when it names one) may be on the loopback or a private network (the SSRF
// guard refuses those otherwise).
import { hostAllowed, hostDenied, urlTarget, type HostPattern } from './host-rules.js';
import { compileRule, formatRule } from './rules.js';
import type { ConfirmationPolicy, PolicyRule } from '../recipe/types.js';
import type { FetchPolicy } from '../tools/context.js';

const TOOL = 'web_fetch';

interface HostRule {
  rule: PolicyRule;
  pattern: HostPattern | 'any';
}

export function fetchPolicy(policy: ConfirmationPolicy): FetchPolicy {
  return { allowPrivateHosts: exactAllowedHosts(policy), checkRedirect: redirectCheck(policy) };
}

/**
 * Hosts named exactly (not `*.domain`) by web_fetch allow rules, with the rule's port when it names
 * one (`localhost:8080`, `[::1]:3000`): only under allowlist, the one mode whose allow rules decide
 * anything. Under auto-approve or deny an allow rule allows nothing, so it opens no private host.
 */
export function exactAllowedHosts(policy: ConfirmationPolicy): string[] {
  if (policy.mode !== 'allowlist') return [];
  return compile(policy.allow).flatMap((r) => {
    if (r.pattern === 'any' || r.pattern.subdomains) return [];
    const { host, port } = r.pattern;
    if (port === null) return [host];
    return [`${host.includes(':') ? `[${host}]` : host}:${port}`];
  });
}

/** A reason to refuse each redirect target, or null to follow it. */
export function redirectCheck(policy: ConfirmationPolicy): (url: string) => string | null {
  const deny = compile(policy.deny);
  const allow = compile(policy.allow);
  // A rule that does not compile refuses what it is about, as the policy does.
  const broken = [...policy.deny, ...policy.allow].find((rule) => rule.tool === TOOL && !compileRule(rule).ok);
  return (url) => {
    if (broken) return `the rule '${formatRule(broken)}' cannot be used, so redirects are not followed`;
    const target = urlTarget(url);
    if (target === null) return `the redirect target '${url}' has no http(s) host`;
    const host = target.host;
    const denied = deny.find((r) => r.pattern === 'any' || hostDenied(target, r.pattern));
    if (denied) return `the redirect to '${host}' is refused by the deny rule '${formatRule(denied.rule)}'`;
    if (policy.mode !== 'allowlist') return null;
    if (allow.some((r) => r.pattern === 'any' || hostAllowed(target, r.pattern))) return null;
    const listed = allow.map((r) => formatRule(r.rule)).join(', ');
    return `the redirect to '${host}' is not covered by any allow rule (${listed ? `allowed: ${listed}` : 'no web_fetch allow rule'})`;
  };
}

function compile(rules: readonly PolicyRule[]): HostRule[] {
  return rules.flatMap((rule): HostRule[] => {
    if (rule.tool !== TOOL) return [];
    if (rule.pattern === null) return [{ rule, pattern: 'any' }];
    const compiled = compileRule(rule);
    return compiled.ok && compiled.rule.kind === 'host' ? [{ rule, pattern: compiled.rule.matcher }] : [];
  });
}
