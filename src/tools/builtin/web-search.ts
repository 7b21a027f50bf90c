// web_search: a question answered from the web, with its sources. The search itself is a function
// given at construction (Gemini's Google Search grounding today); without one, the tool says so
// plainly, so the model stops trying and carries on.
import type { GoogleGenAI } from '@google/genai/web';
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import { estimatedUsage, type TokenUsage } from '../../types/content.js';
import { toUsage } from '../../providers/gemini-mapping.js';
import type { Pricing } from '../../types/provider-options.js';

export interface SearchSource {
  title: string;
  url: string;
}

export interface SearchAnswer {
  text: string;
  sources: SearchSource[];
  /**
   * What the search cost on the run's account: Gemini's grounded search is a model request of its
   * own, billed like a turn. Absent: the backend costs the run nothing.
   */
  usage?: TokenUsage;
}

export type SearchFunction = (query: string, signal: AbortSignal) => Promise<SearchAnswer>;

export const WEB_SEARCH_TIMEOUT_MS = 60_000;
export const WEB_SEARCH_MAX_CHARS = 20_000;
export const MAX_QUERY_CHARS = 500;

export const SEARCH_UNAVAILABLE =
  'web_search is not available with this provider; configure the gemini provider (Google Search grounding) to use it. ' +
  'Do not call web_search again in this run: use web_fetch on a URL you know, if it is allowed, or go on without searching.';

export interface WebSearchOptions {
  search: SearchFunction | null;
  /** Told to the model when `search` is null (default: SEARCH_UNAVAILABLE). */
  unavailableMessage?: string;
  timeoutMs?: number;
}

export interface WebSearchParams {
  query: string;
}

export class WebSearchTool extends BaseTool<WebSearchParams> {
  readonly name = 'web_search';
  readonly displayName = 'Web search';
  readonly description = 'Search the web. Returns an answer with numbered source URLs.';
  readonly parameterSchema = {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
    additionalProperties: false,
  };
  readonly kind = 'search' as const;

  constructor(private readonly options: WebSearchOptions) {
    super();
  }

  protected override validateSemantics(params: WebSearchParams): string | null {
    const query = params.query.trim();
    if (query === '') return 'query must not be empty';
    if (query.length > MAX_QUERY_CHARS) return `query is ${query.length} characters; at most ${MAX_QUERY_CHARS}`;
    return null;
  }

  getDescription(params: WebSearchParams): string {
    return `search the web for "${params.query.trim()}"`;
  }

  /** Reads only: the query goes to the model provider the run already talks to. */
  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: WebSearchParams, signal: AbortSignal): Promise<ToolResult> {
    const { search } = this.options;
    if (!search) return errorResult('execution_failed', this.options.unavailableMessage ?? SEARCH_UNAVAILABLE);
    const query = params.query.trim();
    const timeoutMs = this.options.timeoutMs ?? WEB_SEARCH_TIMEOUT_MS;
    const timer = AbortSignal.timeout(timeoutMs);
    let answer: SearchAnswer;
    try {
      answer = await search(query, AbortSignal.any([signal, timer]));
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'web_search was cancelled');
      if (timer.aborted) return errorResult('timeout', `web_search did not answer within ${timeoutMs / 1000} s`);
      const message = error instanceof Error ? error.message : String(error);
      return errorResult('execution_failed', `web_search failed: ${message.replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    const rendered = renderAnswer(query, answer);
    return answer.usage ? { ...rendered, usage: answer.usage } : rendered;
  }
}

function renderAnswer(query: string, answer: SearchAnswer): ToolResult {
  const sources = dedupeSources(answer.sources);
  let text = answer.text.trim();
  if (text === '' && sources.length === 0) {
    return { llmContent: `No results for "${query}".`, returnDisplay: `Searched "${query}": no results` };
  }
  if (text.length > WEB_SEARCH_MAX_CHARS) text = `${text.slice(0, WEB_SEARCH_MAX_CHARS)}\n[answer cut at ${WEB_SEARCH_MAX_CHARS} characters]`;
  const lines = [`Web search results for "${query}":`, '', text || '(no summary)'];
  if (sources.length > 0) {
    lines.push('', 'Sources:', ...sources.map((s, i) => `[${i + 1}] ${s.title ? `${s.title} ` : ''}(${s.url})`));
  }
  return { llmContent: lines.join('\n'), returnDisplay: `Searched "${query}": ${sources.length} source(s)` };
}

function dedupeSources(sources: SearchSource[]): SearchSource[] {
  const seen = new Set<string>();
  return sources.filter((s) => s.url !== '' && !seen.has(s.url) && Boolean(seen.add(s.url)));
}

export interface GeminiSearchOptions {
  model: string;
  /** Where the key (GEMINI_API_KEY or GOOGLE_API_KEY) and GOOGLE_GEMINI_BASE_URL are read. */
  env: NodeJS.ProcessEnv;
  /** Recipe/flag endpoint; wins over GOOGLE_GEMINI_BASE_URL. */
  baseUrl?: string | null;
  /** The recipe's prices (`pricing:`); null: the price table, as for the run's own turns. */
  pricing?: Pricing | null;
}

/**
 * A SearchFunction through Gemini's Google Search grounding: one generateContent request with the
 * googleSearch tool; the answer's text plus the web sources it was grounded on, and what the request
 * cost (its usageMetadata, priced as the run's turns are), so max_tokens and max_cost_usd count it.
 * The SDK is loaded on the first search, not before.
 */
export function geminiGroundedSearch(opts: GeminiSearchOptions): SearchFunction {
  let client: Promise<GoogleGenAI> | undefined;
  const connect = async (): Promise<GoogleGenAI> => {
    const apiKey = opts.env.GEMINI_API_KEY?.trim() || opts.env.GOOGLE_API_KEY?.trim();
    if (!apiKey) throw new Error('GEMINI_API_KEY is not set');
    const baseUrl = opts.baseUrl?.trim() || opts.env.GOOGLE_GEMINI_BASE_URL?.trim() || undefined;
    const { GoogleGenAI } = await import('@google/genai/web');
    // The SDK's fetch is the global one, which reads no proxy variable: the search goes through the
    // proxy HTTPS_PROXY / HTTP_PROXY name, as the model's turns do (proxied-fetch.ts).
    const { proxiedFetch } = await import('../../providers/proxied-fetch.js');
    return new GoogleGenAI({ apiKey, vertexai: false, httpOptions: { ...(baseUrl ? { baseUrl } : {}), fetch: proxiedFetch } });
  };
  let price: Promise<((usage: TokenUsage) => number) | null> | undefined;
  const priced = async (usage: TokenUsage): Promise<TokenUsage> => {
    price ??= import('../../providers/pricing.js')
      .then(({ resolvePrice }) => resolvePrice({ providerId: 'google', baseURL: null, model: opts.model, override: opts.pricing ?? null }))
      .catch(() => null);
    const priceOf = await price;
    return priceOf ? { ...usage, cost_usd: priceOf(usage) } : usage;
  };
  return async (query, signal) => {
    const ai = await (client ??= connect());
    const response = await ai.models.generateContent({
      model: opts.model,
      contents: [{ role: 'user', parts: [{ text: query }] }],
      config: { tools: [{ googleSearch: {} }], abortSignal: signal },
    });
    const candidate = response.candidates?.[0];
    const text = (candidate?.content?.parts ?? [])
      .filter((part) => typeof part.text === 'string' && !part.thought)
      .map((part) => part.text)
      .join('');
    const sources = (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((chunk) =>
      chunk.web?.uri ? [{ title: chunk.web.title ?? '', url: chunk.web.uri }] : [],
    );
    const meta = response.usageMetadata;
    const counted = meta !== undefined && (Number.isFinite(meta.promptTokenCount) || Number.isFinite(meta.candidatesTokenCount));
    // An endpoint that sends no counts (a proxy) is not free: estimated from the bytes, as for turns.
    const usage = counted ? toUsage(meta) : estimatedUsage(Buffer.byteLength(query), Buffer.byteLength(text));
    return { text, sources, usage: await priced(usage) };
  };
}
