// Recipe parameters: `{{ name }}` placeholders, and the values given with --param checked
// against their declared types. Bad values are the caller's mistake (InputError, exit 42).
import { InputError } from './errors.js';
import { didYouMean } from './suggest.js';
import type { ParameterSpec } from './types.js';

export type ParamValue = string | number | boolean;

// `\{{` escapes a literal `{{`; the lazy body stops at the first `}}`.
const PLACEHOLDER = /(\\?)\{\{(.*?)\}\}/gs;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface Placeholder {
  /** As written, e.g. `{{ old }}`: used to find it in the YAML source. */
  text: string;
  /** The parameter name, or null when the braces hold something that is not a name. */
  name: string | null;
}

export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m[1]) continue;
    const inner = m[2]!.trim();
    found.push({ text: m[0], name: NAME.test(inner) ? inner : null });
  }
  return found;
}

export function substitute(text: string, values: Record<string, ParamValue>): string {
  return text.replace(PLACEHOLDER, (whole, escape: string, inner: string) => {
    if (escape) return whole.slice(1);
    const value = values[inner.trim()];
    // Unknown names were rejected when the recipe was checked; keep the text rather than guess.
    return value === undefined ? whole : String(value);
  });
}

/** Why a declared default does not fit its type, or null. */
export function defaultProblem(type: ParameterSpec['type'], value: unknown): string | null {
  if (typeof value === type) return null;
  const quoted = type === 'string' ? `: quote it, "${String(value)}"` : '';
  return `must be a ${type} (the parameter's type), not ${JSON.stringify(value)}${quoted}`;
}

/** A number as people write one: 3, -2.5, .5, 1e3. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

function coerce(name: string, spec: ParameterSpec, raw: string): ParamValue | string[] {
  if (spec.type === 'string') return raw;
  if (spec.type === 'number') {
    // Decimal only: Number() also reads 0x10 as 16 and 0b11 as 3, so the prompt would say another
    // number than the one typed, with no word (an id written in hex, a version like 0o7).
    if (!DECIMAL.test(raw.trim())) {
      const other = /^[+-]?0[xXbBoO]/.test(raw.trim()) ? ' (hexadecimal, binary and octal forms are not read: write it in decimal, or declare the parameter type: string to keep it as written)' : '';
      return [`parameter '${name}' must be a number, got '${raw}'${other}: pass e.g. --param ${name}=3`];
    }
    // Past what a double holds the prompt would say another number than the one typed, with no
    // word: 1e999 as Infinity, a 20-digit id with its last digits zeroed.
    const value = Number(raw);
    const whole = /^[+-]?\d+$/.test(raw.trim());
    if (!Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) {
      return [`parameter '${name}' is a number too large to keep as written ('${raw}' would reach the prompt as ${String(value)}): declare the parameter type: string to keep it as written, or pass a smaller number`];
    }
    return value;
  }
  const lower = raw.trim().toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  return [`parameter '${name}' must be true or false, got '${raw}': pass --param ${name}=true`];
}

/**
 * The value of every declared parameter: given, else its default, else '' for an optional
 * string. Throws one InputError naming every missing, undeclared or ill-typed parameter.
 */
export function resolveParams(
  specs: Record<string, ParameterSpec>,
  given: Record<string, string>,
): Record<string, ParamValue> {
  const errors: string[] = [];
  const declared = Object.keys(specs);
  for (const name of Object.keys(given)) {
    if (Object.hasOwn(specs, name)) continue;
    const which = declared.length ? `this recipe declares ${declared.join(', ')}` : 'this recipe declares no parameters';
    errors.push(`unknown parameter '${name}': ${which}${didYouMean(name, declared)}`);
  }
  // `--param who=bob,flag=true` (goose's --params and key=value lists elsewhere split on commas):
  // one --param is one value, so who read 'bob,flag=true' and flag its default, without a word.
  for (const [name, raw] of Object.entries(given)) {
    const others = [...raw.matchAll(/,\s*([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1]!).filter((n) => n !== name && Object.hasOwn(specs, n) && !Object.hasOwn(given, n));
    if (!others.length) continue;
    const split = raw.split(/,\s*(?=[A-Za-z_][A-Za-z0-9_]*=)/).map((piece, i) => `--param ${i === 0 ? `${name}=` : ''}${piece}`);
    errors.push(`--param ${name}=${raw}: ${others.map((n) => `'${n}'`).join(', ')} ${others.length === 1 ? 'is another parameter' : 'are other parameters'} of this recipe, and one --param gives one value: pass each with its own, ${split.join(' ')}`);
  }
  // No prototype: a parameter may be called `__proto__` or `constructor`, and is then just a name.
  const values: Record<string, ParamValue> = Object.create(null);
  for (const [name, spec] of Object.entries(specs)) {
    if (Object.hasOwn(given, name)) {
      const v = coerce(name, spec, given[name]!);
      if (Array.isArray(v)) errors.push(...v);
      else values[name] = v;
    } else if (spec.default !== undefined) {
      values[name] = spec.default;
    } else if (spec.required) {
      const about = spec.description ? ` (${spec.description})` : '';
      errors.push(`missing required parameter '${name}'${about}: pass --param ${name}=VALUE`);
    } else {
      values[name] = '';
    }
  }
  if (errors.length) throw new InputError(errors.join('\n'));
  return values;
}

/**
 * `--param k=v` pairs; the value may itself contain `=`. A name given twice is refused, as a
 * repeated flag is: keeping one of the two values silently would run with a value nobody chose.
 */
export function parseParamPairs(pairs: readonly string[]): Record<string, string> {
  const params: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InputError(`--param '${pair}' must be name=value, e.g. --param old=foo`);
    const name = pair.slice(0, eq);
    if (Object.hasOwn(params, name)) {
      throw new InputError(`--param ${name} is given twice (${name}=${params[name]} and ${pair}): give each parameter once`);
    }
    params[name] = pair.slice(eq + 1);
  }
  return params;
}
