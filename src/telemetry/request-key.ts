// A model request and its answer carry the same turn, and a sub-agent's the call that started it:
// together they name one request of the run, for the spans and the metrics alike.
export function modelRequestKey(event: { turn: number; parent_call_id?: string }): string {
  return `${event.parent_call_id ?? ''}#${event.turn}`;
}
