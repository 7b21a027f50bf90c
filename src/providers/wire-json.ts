// Request bodies assembled from JSON text encoded once per piece. The mappings (openai-mapping.ts,
// anthropic-mapping.ts) translate each history entry once and hand back the same message objects
// every turn; the SDKs would JSON-encode the whole list again per request. Here each message object
// is encoded on first use (the cache is keyed by identity: a rewritten entry is a new object), and
// a body is those texts joined, passed to the SDK as a string, which sends it verbatim. The SDK
// stays the client: auth headers, the stream's parsing, its error types.
const encoded = new WeakMap<object, string>();

/** JSON text of an object that is never changed after it is made (a message of the history). */
export function jsonOnce(value: object): string {
  let json = encoded.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    encoded.set(value, json);
  }
  return json;
}

/**
 * `{...fields}` as JSON, in the order given, with `list` entries (arrays of immutable objects)
 * joined from their cached texts; fields whose value is undefined are left out.
 */
export function jsonBody(fields: Array<[string, unknown]>, lists: ReadonlySet<string>): string {
  const out: string[] = [];
  for (const [name, value] of fields) {
    if (value === undefined) continue;
    const json = lists.has(name) && Array.isArray(value) ? `[${value.map((v: object) => jsonOnce(v)).join(',')}]` : JSON.stringify(value);
    out.push(`${JSON.stringify(name)}:${json}`);
  }
  return `{${out.join(',')}}`;
}
