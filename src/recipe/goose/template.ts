// goose templates (MiniJinja) -> our `{{ name }}` placeholders. What has a plain equivalent is
// rewritten: `{{ name }}` stays, `{{ 'literal' }}` (goose's way to write a literal `{{`) becomes the
// literal with our `\{{` escape, `{{ recipe_dir }}` becomes the recipe's directory, `{# comments #}`
// vanish. What has none is reported: a filter (`| indent(2)`) is dropped, keeping the value;
// a statement (`{% if %}`, `{% extends %}`) is left as text, which the model then sees.
import { oneLine } from '../../util/one-line.js';

// A quoted string inside an expression may hold `}}` (`{{ '{{X}}' }}`): it is consumed whole.
const EXPRESSION = /\{\{((?:'[^']*'|"[^"]*"|[^'"}]|\}(?!\}))*)\}\}/gs;
const STATEMENT = /\{%.*?%\}/gs;
const COMMENT = /\{#.*?#\}/gs;
const QUOTED = /^\s*(?:'([^']*)'|"([^"]*)")\s*$/s;
const FILTERED = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\|\s*(.+?)\s*$/s;

export interface TemplateResult {
  text: string;
  /** What could not be carried over, each a sentence for a warning. */
  dropped: string[];
}

/** `builtins` are goose's built-in variables (`recipe_dir`): replaced by their value. */
export function convertTemplate(text: string, builtins: Record<string, string>): TemplateResult {
  const dropped: string[] = [];
  let out = text.replace(COMMENT, '');
  out = out.replace(EXPRESSION, (whole, inner: string) => {
    const quoted = QUOTED.exec(inner);
    if (quoted) return escapeBraces(quoted[1] ?? quoted[2] ?? '');
    const filtered = FILTERED.exec(inner);
    const name = (filtered ? filtered[1]! : inner).trim();
    if (filtered) dropped.push(`the filter '| ${filtered[2]}' on '${name}' is not applied (the value is inserted as it is)`);
    if (Object.hasOwn(builtins, name)) return escapeBraces(builtins[name]!);
    return filtered ? `{{ ${name} }}` : whole;
  });
  const statements = out.match(STATEMENT) ?? [];
  for (const s of new Set(statements)) dropped.push(`the template statement '${oneLine(s, 60)}' is not evaluated (it stays in the text as written)`);
  // A statement would otherwise hold `{%`, which is plain text for us; nothing to escape.
  return { text: out, dropped };
}

/**
 * For a field of ours that takes no placeholders (an MCP server's command and arguments, a check
 * command): goose's built-ins and literals are resolved; a parameter cannot be, and is reported.
 */
export function convertLiteral(text: string, builtins: Record<string, string>): TemplateResult {
  const dropped: string[] = [];
  const out = text.replace(COMMENT, '').replace(EXPRESSION, (whole, inner: string) => {
    const quoted = QUOTED.exec(inner);
    if (quoted) return quoted[1] ?? quoted[2] ?? '';
    const name = (FILTERED.exec(inner)?.[1] ?? inner).trim();
    if (Object.hasOwn(builtins, name)) return builtins[name]!;
    dropped.push(`'${oneLine(whole, 60)}' is not filled in here (parameters fill the prompt and instructions only); it stays as written`);
    return whole;
  });
  return { text: out, dropped };
}

function escapeBraces(text: string): string {
  return text.replace(/\{\{/g, '\\{{');
}
