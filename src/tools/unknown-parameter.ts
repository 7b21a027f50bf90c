// A parameter the tool does not take, named by the schema check as "unknown parameter 'x'": models
// trained on other agents' tools send those tools' names (Claude Code's edit `replace_all`, its
// grep `glob`, `file_path` for read_file's `absolute_path`), and a bare refusal leaves them to
// guess again. The refusal names what the tool takes, and what does the same where a peer's name
// is known. Only a refused call pays for this.

/** Other agents' parameter names, and what does the same here (the first of them the tool takes). */
const PEER_NAMES: Readonly<Record<string, readonly string[]>> = {
  replace_all: ['expected_replacements: N replaces every one of N occurrences'],
  glob: ['include'],
  timeout: ['timeout_ms (milliseconds)'],
  file_path: ['absolute_path'],
  path: ['file_path', 'absolute_path'],
  old_str: ['old_string'],
  new_str: ['new_string'],
  cmd: ['command'],
  file_text: ['content'],
};

const UNKNOWN = /unknown parameter '([^']*)'/g;

/** `error` (the schema check's line) with what the tool takes, when it names an unknown parameter. */
export function withParameterNames(error: string, tool: string, schema: { properties?: Record<string, unknown> }): string {
  const taken = Object.keys(schema.properties ?? {});
  const unknown = [...error.matchAll(UNKNOWN)].map((m) => m[1]!);
  if (unknown.length === 0 || taken.length === 0) return error;
  const instead = unknown.flatMap((name) => {
    // Only a name this tool takes (file_path is edit's and write_file's, absolute_path read_file's).
    const here = (Object.hasOwn(PEER_NAMES, name) ? PEER_NAMES[name]! : []).find((h) => taken.includes(h.split(/[: ]/, 1)[0]!));
    return here === undefined ? [] : [`for '${name}' give ${here}`];
  });
  return `${error} (${tool} takes ${taken.join(', ')}${instead.length ? `; ${instead.join('; ')}` : ''})`;
}
