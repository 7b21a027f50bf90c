// Gemini on Vertex AI, switched on the way @google/genai itself is: GOOGLE_GENAI_USE_VERTEXAI=true,
// with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (default `global`, as the SDK's), or a
// Vertex API key (express mode: GOOGLE_API_KEY / GEMINI_API_KEY, no project). Credentials are
// Google's Application Default Credentials, found by google-auth-library inside the SDK:
// GOOGLE_APPLICATION_CREDENTIALS (in GitHub Actions, the file google-github-actions/auth writes
// for workload identity federation), gcloud's, or the metadata server on Google Cloud.
// GOOGLE_VERTEX_BASE_URL (the SDK's name) or the recipe's base_url overrides the endpoint.
import { ProviderError } from './provider.js';

export interface VertexSettings {
  project: string | null;
  location: string;
  /** Express mode: a Vertex AI API key instead of project credentials. */
  apiKey: string | null;
  credentialsFile: string | null;
  baseUrl: string | null;
}

/** The settings when GOOGLE_GENAI_USE_VERTEXAI is `true` (any case, as the SDK reads it), else null. */
export function resolveVertex(env: NodeJS.ProcessEnv): VertexSettings | null {
  if (env.GOOGLE_GENAI_USE_VERTEXAI?.trim().toLowerCase() !== 'true') return null;
  const project = env.GOOGLE_CLOUD_PROJECT?.trim() || null;
  const apiKey = project ? null : env.GOOGLE_API_KEY?.trim() || env.GEMINI_API_KEY?.trim() || null;
  if (!project && !apiKey) {
    throw new ProviderError(
      'auth',
      'GOOGLE_GENAI_USE_VERTEXAI is true but GOOGLE_CLOUD_PROJECT is not set: export GOOGLE_CLOUD_PROJECT=<project id> (google-github-actions/auth sets it), or set GOOGLE_API_KEY to a Vertex AI API key',
    );
  }
  return {
    project,
    location: env.GOOGLE_CLOUD_LOCATION?.trim() || 'global',
    apiKey,
    credentialsFile: env.GOOGLE_APPLICATION_CREDENTIALS?.trim() || null,
    baseUrl: env.GOOGLE_VERTEX_BASE_URL?.trim() || null,
  };
}

/**
 * A failure to obtain credentials, as google-auth-library reports it (no ADC found, a token
 * exchange refused, an unreadable credentials file): an `auth` error (exit 41) that says where
 * credentials come from, never retried; a credentials endpoint that did not answer is a network
 * failure naming it (credentialsUnreachable). Null for anything else.
 */
export function vertexAuthError(err: unknown, vertex: VertexSettings, allProxy = false): ProviderError | null {
  if (!(err instanceof Error) || err.name === 'ApiError' || err.name === 'AbortError') return null;
  const unreachable = credentialsUnreachable(err, vertex, allProxy);
  if (unreachable) return unreachable;
  const text = `${err.message} ${(err as { response?: { status?: number } }).response?.status ?? ''}`;
  const authLike =
    /default credentials|credential|invalid_grant|unauthorized_client|invalid_client|access_denied|invalid_target|ENOENT|token/i.test(text) &&
    !/fetch failed|ECONNRESET|socket/i.test(text);
  if (!authLike) return null;
  const source = vertex.credentialsFile ? `GOOGLE_APPLICATION_CREDENTIALS (${vertex.credentialsFile})` : 'Application Default Credentials (none found: run google-github-actions/auth first, or set GOOGLE_APPLICATION_CREDENTIALS)';
  return new ProviderError('auth', `Vertex AI credentials for project ${vertex.project ?? '(express mode)'} failed, from ${source}: ${err.message.split('\n')[0]!.slice(0, 300)}`);
}

/**
 * A request of google-auth-library's (gaxios: the OIDC token of a workload identity, Google's STS,
 * the metadata server) that got no answer: a network failure naming the endpoint and where the
 * credentials come from, not the model's answer "cut off after 0 chunks". Those requests read
 * HTTPS_PROXY and HTTP_PROXY themselves but not ALL_PROXY (`allProxy`: the model's requests go
 * through the proxy it names): then the way out is said.
 */
function credentialsUnreachable(err: Error, vertex: VertexSettings, allProxy: boolean): ProviderError | null {
  const failed = err as Error & { config?: { url?: unknown }; response?: unknown };
  if (failed.response !== undefined || typeof failed.config !== 'object' || failed.config === null || failed.config.url === undefined) return null;
  const url = String(failed.config.url).split('?')[0];
  const source = vertex.credentialsFile ? `GOOGLE_APPLICATION_CREDENTIALS (${vertex.credentialsFile})` : 'Application Default Credentials';
  const hint = allProxy
    ? `; the model's requests go through the proxy ALL_PROXY names, but google-auth-library, which fetches the credentials, reads only HTTPS_PROXY and HTTP_PROXY: set HTTPS_PROXY to the same proxy`
    : '';
  const why = err.message.split('\n')[0]!.replace(/^request to \S+ failed, reason: /, '').slice(0, 300);
  return new ProviderError('network', `cannot reach ${url} for the Vertex AI credentials of project ${vertex.project ?? '(express mode)'}, from ${source}: ${why}${hint}`);
}
