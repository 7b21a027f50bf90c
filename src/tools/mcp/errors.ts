// One readable line for an error from the SDK, fetch or a spawn.
import { STATUS_CODES } from 'node:http';
import { oneLine } from '../../util/one-line.js';

/** `fetch failed` says nothing by itself: the reason (ECONNREFUSED, a bad certificate) is its cause. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const issues = schemaIssues(err);
  if (issues) return issues;
  const http = httpStatus(err);
  if (http) return http;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
}

const HTTP_ERROR_PREFIX = 'Streamable HTTP error: ';
/** What the server's body may add to the status, in characters (an HTML error page is long). */
const BODY_CHARS = 200;

/**
 * The SDK's StreamableHTTPError says `Error POSTing to endpoint: <body>`, the body often empty:
 * the status it carries (as `code`) is what tells a 401 from a 500, and what to do about it.
 */
function httpStatus(err: Error): string | null {
  const code = (err as { code?: unknown }).code;
  if (!err.message.startsWith(HTTP_ERROR_PREFIX) || typeof code !== 'number' || code < 100) return null;
  const detail = oneLine(err.message.slice(HTTP_ERROR_PREFIX.length).replace(/^(Error POSTing to endpoint|Failed to open SSE stream): ?/, ''), BODY_CHARS);
  const status = `HTTP ${code}${STATUS_CODES[code] ? ` ${STATUS_CODES[code]}` : ''}`;
  const said = detail && detail !== STATUS_CODES[code] ? `${status} (the server said: ${detail})` : status;
  return `the server answered ${said}${HTTP_HINTS[code] ? `; ${HTTP_HINTS[code]}` : ''}`;
}

const AUTH_HINT =
  "it wants credentials it accepts: give them in the server's `headers` (`Authorization: Bearer …`; in an --mcp-config file, `${VAR}` takes the token from the environment)";
const HTTP_HINTS: Record<number, string> = {
  401: AUTH_HINT,
  403: `${AUTH_HINT}, or the token lacks a permission`,
  404: "is the URL the server's Streamable HTTP endpoint (often ending in /mcp)?",
  405: 'the server may speak only the older SSE transport, which the runner does not',
};

/**
 * A reply that breaks the MCP schema, as the SDK's validator reports it (a ZodError, whose message
 * is pages of JSON): the first issues, one phrase each (`tools[18].inputSchema.type: Invalid input`).
 */
function schemaIssues(err: Error): string | null {
  const issues = (err as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  return `its reply does not follow the MCP schema: ${issuesText(issues, 'the reply')}`;
}

/** The first issues of a schema check, one phrase each, with where they are. */
export function issuesText(issues: readonly unknown[], whole: string): string {
  const phrases = issues.slice(0, 3).map((issue) => {
    const { path, message } = issue as { path?: unknown[]; message?: unknown };
    const where = (path ?? []).map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
    return `${where || whole}: ${String(message ?? 'invalid')}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${phrases.join('; ')}${more}`;
}
