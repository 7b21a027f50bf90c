// A refusal for a quota that no wait within a run can refill: an account's credit spent, a daily
// or weekly allowance used up. Servers send these as 429s, the status of a per-minute rate limit,
// so read by status alone they were asked five times over, minutes of waiting for an answer that
// could only come tomorrow or after a payment (Gemini's daily refusal even carries a RetryInfo of
// some seconds). They keep the kind rate_limit (a `batch --resume` runs such a target again, once
// the quota is back) but are not retried within the run. Known shapes:
//   OpenAI, Azure OpenAI:   code or type `insufficient_quota` ("You exceeded your current quota,
//                           please check your plan and billing details")
//   Gemini (its own API and its OpenAI-compatible endpoint): a google.rpc.QuotaFailure whose
//                           violation's quotaId counts per day ("GenerateRequestsPerDayPerProjectPerModel-FreeTier").
//                           Its per-minute quotas share the message, so only the quotaId tells them apart.
//   Zhipu (z.ai, bigmodel.cn): business codes 1304 (the day's calls used), 1308 (the plan's
//                           usage cap until a reset time it names), 1310 (the weekly or monthly cap)

/** Zhipu's codes for a cap that resets in hours or days, not seconds. */
const ZHIPU_SPENT = new Set(['1304', '1308', '1310']);

/** Why a refusal is not worth asking again within the run, or null when it may be. */
export function spentQuota(body: unknown, code: string | null): string | null {
  if (code !== null && /^insufficient_quota$/i.test(code)) return "the account's quota or credit is spent; check its plan and billing";
  const perDay = perDayQuotaId(body);
  if (perDay) return `a daily quota is spent (${perDay}); it resets the next day`;
  const zhipu = zhipuCode(body);
  if (zhipu) return `a usage cap is reached (code ${zhipu}); it resets at the time its message gives`;
  return null;
}

function errorObject(body: unknown): Record<string, unknown> | null {
  const outer = Array.isArray(body) ? body[0] : body;
  if (typeof outer !== 'object' || outer === null) return null;
  const inner = (outer as Record<string, unknown>).error;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : null;
}

/** The quotaId of a QuotaFailure violation that counts per day, in a Google error body. */
function perDayQuotaId(body: unknown): string | null {
  const details = errorObject(body)?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details as Array<Record<string, unknown> | null>) {
    if (typeof detail?.['@type'] !== 'string' || !detail['@type'].endsWith('QuotaFailure') || !Array.isArray(detail.violations)) continue;
    for (const violation of detail.violations as Array<Record<string, unknown> | null>) {
      const id = violation?.quotaId;
      if (typeof id === 'string' && /PerDay/i.test(id)) return id;
    }
  }
  return null;
}

function zhipuCode(body: unknown): string | null {
  const code = errorObject(body)?.code;
  return code !== undefined && ZHIPU_SPENT.has(String(code)) ? String(code) : null;
}
