// Parameters fill the prompt, the instructions and the git hand-off's texts, nothing else. A
// `{{ name }}` anywhere else (a check command, an MCP server's arguments, the model, the
// workspace) would reach its consumer as the literal text `{{ name }}`: a check that tests the
// wrong thing, a server started with a wrong argument. Nobody reads a warning at 3 a.m., so it is
// a problem of the recipe. Only placeholders shaped like a parameter count: `{{ .Id }}` and
// `{{ json . }}` (Go templates in a `docker`/`gh` command) are another tool's syntax.
import { findPlaceholders } from './params.js';
import type { Path, ProblemSink } from './positions.js';

/** Text a person or a JSON Schema reads, never a program: a placeholder there is only words. */
const DESCRIPTIVE = new Set(['name', 'description', 'parameters', 'output', 'script']);

/** Reports every parameter-shaped placeholder in a string outside `templated`. */
export function checkLiteralPlaceholders(source: ProblemSink, data: Record<string, unknown>, templated: readonly Path[]): void {
  const isTemplated = (path: Path) => templated.some((t) => t.length === path.length && t.every((key, i) => key === path[i]));
  const visit = (value: unknown, path: Path): void => {
    if (typeof value === 'string') {
      if (isTemplated(path)) return;
      for (const p of findPlaceholders(value)) {
        if (p.name === null) continue;
        source.addInText(
          path,
          p.text,
          `'${p.text}' in ${fieldName(path)} is not filled in: parameters fill only prompt, instructions and the git hand-off's branch, commit_message and pull_request title, body and base, so it would stay the literal text '${p.text}'. Write the value itself here, or move what needs it into the prompt`,
        );
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...path, i]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) if (path.length > 0 || !DESCRIPTIVE.has(key)) visit(item, [...path, key]);
    }
  };
  visit(data, []);
}

/** `checks.commands[0]`, `mcp_servers.docs.args[1]`. */
function fieldName(path: Path): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}
