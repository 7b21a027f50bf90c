// goose's list-form parameters (`key`, `input_type`, `requirement`, `default`, `options`) -> our
// `parameters:` map. goose writes every default as a string; ours are typed, so "10" becomes 10.
import { isDict, type ConversionContext } from './context.js';

const KNOWN = new Set(['key', 'input_type', 'requirement', 'description', 'default', 'options']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function convertParameters(raw: unknown, ctx: ConversionContext): Record<string, Record<string, unknown>> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    ctx.problem(['parameters'], 'goose parameters are a list of {key, input_type, requirement, description}');
    return undefined;
  }
  // No prototype: a key `__proto__` is a parameter like any other.
  const out: Record<string, Record<string, unknown>> = Object.create(null);
  raw.forEach((p, i) => {
    const at = `parameters[${i}]`;
    if (!isDict(p) || typeof p.key !== 'string' || !NAME.test(p.key)) {
      ctx.problem(['parameters', i], 'a parameter needs a key of letters, digits and _ (e.g. key: file_path)');
      return;
    }
    const key = p.key;
    if (Object.hasOwn(out, key)) return ctx.problem(['parameters', i, 'key'], `parameter '${key}' is declared twice`);
    ctx.from(['parameters', key], ['parameters', i]);
    for (const field of Object.keys(p)) if (!KNOWN.has(field)) ctx.warn(`${at}.${field}`, 'not a goose parameter field; ignored');
    const spec: Record<string, unknown> = {};
    const inputType = p.input_type ?? 'string';
    spec.type = inputType === 'number' || inputType === 'boolean' ? inputType : 'string';
    if (inputType === 'file') {
      ctx.warn(`parameters '${key}'`, "input_type file: goose inserts the file's content; here the value given (the path) is inserted");
    } else if (inputType === 'select') {
      const options = Array.isArray(p.options) ? p.options.map(String) : [];
      ctx.warn(`parameters '${key}'`, `input_type select: the value is not checked against the options${options.length ? ` (${options.join(', ')})` : ''}`);
    } else if (!['string', 'number', 'boolean', 'date'].includes(String(inputType))) {
      ctx.warn(`parameters '${key}'`, `unknown input_type '${String(inputType)}'; read as a string`);
    }
    const description = typeof p.description === 'string' ? p.description : undefined;
    if (description) spec.description = description;
    const requirement = p.requirement ?? 'required';
    const hasDefault = p.default !== undefined && p.default !== null;
    if (requirement === 'optional') {
      spec.required = false;
      if (hasDefault) spec.default = typedDefault(p.default, spec.type as string);
      // goose refuses one too: given no value, the text would say nothing where the parameter stands.
      else ctx.problem(['parameters', i], `optional parameter '${key}' has no default (goose requires one): add default: VALUE, or make it requirement: required`);
    } else {
      if (requirement === 'user_prompt') {
        ctx.warn(`parameters '${key}'`, `requirement user_prompt: nobody is at the keyboard to be asked, so ${hasDefault ? 'its default is used unless' : 'it is required:'} pass --param ${key}=VALUE`);
      } else if (requirement !== 'required') {
        ctx.problem(['parameters', i, 'requirement'], `requirement must be required, optional or user_prompt, got '${String(requirement)}'`);
      }
      if (hasDefault && requirement === 'user_prompt') {
        spec.required = false;
        spec.default = typedDefault(p.default, spec.type as string);
      } else {
        spec.required = true;
        if (hasDefault) ctx.warn(`parameters '${key}'.default`, 'a required parameter takes no default (goose refuses one too); ignored');
      }
    }
    out[key] = spec;
  });
  return out;
}

/**
 * goose's string default as the parameter's type; one that does not read as that type is kept as
 * written, for the recipe's own check to report once, at the default ("must be a number, not
 * "abc""). Dropping it instead added a second, contradictory problem: "needs a default".
 */
function typedDefault(value: unknown, type: string): unknown {
  if (type === 'string') return String(value);
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    if (String(value).trim() !== '' && Number.isFinite(n)) return n;
  } else {
    const s = String(value).trim().toLowerCase();
    if (s === 'true' || s === 'false') return s === 'true';
  }
  return value;
}
