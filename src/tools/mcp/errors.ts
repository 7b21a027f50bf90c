// One readable line for an error from the SDK, fetch or a spawn.

/** `fetch failed` says nothing by itself: the reason (ECONNREFUSED, a bad certificate) is its cause. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
}
