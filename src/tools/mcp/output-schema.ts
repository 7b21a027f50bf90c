// A tool's output schema: a tool that declares one answers with structured content valid against
// it (MCP: clients should check). Compiled per tool, so one schema that cannot be compiled leaves
// out its own tool only; the SDK's Client compiled every tool's at once and failed the whole list.
import { compiles } from './schema-clean.js';
import { compileSchema, type SchemaValidator } from '../../util/json-schema.js';
import { errorText } from './errors.js';

/**
 * The validator, or why there is none. Loosened first, as input schemas are (schema-clean.ts):
 * a pattern JavaScript cannot compile (Python's `(?P<name>…)`) and `$schema` (a 2020-12 one is
 * unknown to Ajv, which then refuses the schema) are dropped; the check is only ever laxer.
 */
export function outputValidator(schema: Record<string, unknown>): { ok: true; validate: SchemaValidator } | { ok: false; problem: string } {
  try {
    return { ok: true, validate: compileSchema(loosened(schema) as object, { check: true }) };
  } catch (err) {
    return { ok: false, problem: errorText(err) };
  }
}

function loosened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(loosened);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // A string under these keys is the keyword (a property so named holds an object).
    if (key === '$schema' && typeof value === 'string') continue;
    if (key === 'pattern' && typeof value === 'string' && !compiles(value)) continue;
    out[key] = loosened(value);
  }
  return out;
}
