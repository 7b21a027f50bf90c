// Text for one line of a message, a report row or a comment: whitespace runs (newlines included)
// become one space, and text longer than `max` is cut to `max` characters, the last an ellipsis.
export function oneLine(text: string, max = Infinity): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
