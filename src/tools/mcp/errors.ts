// One readable line for an error from the SDK, fetch or a spawn.

/** `fetch failed` says nothing by itself: the reason (ECONNREFUSED, a bad certificate) is its cause. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const issues = schemaIssues(err);
  if (issues) return issues;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
}

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
