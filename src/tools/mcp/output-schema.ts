// A tool's output schema: a tool that declares one answers with structured content valid against
// it (MCP: clients should check). Compiled per tool, so one schema that cannot be compiled leaves
// out its own tool only; the SDK's Client compiled every tool's at once and failed the whole list.
import { compiles } from './schema-clean.js';
import { compileSchema, type SchemaValidator } from '../../util/json-schema.js';
import { schemaDialect } from '../../util/ajv.js';
import { errorText } from './errors.js';

/**
 * The validator, or why there is none. Compiled in the dialect its `$schema` names (zod 4 and the
 * MCP spec write 2020-12, where `prefixItems` holds a tuple and `items: false` forbids more items;
 * read as draft-07, such a schema refused every non-empty tuple). Loosened first, as input schemas
 * are (schema-clean.ts): a pattern JavaScript cannot compile (Python's `(?P<name>…)`), a `$schema`
 * naming a dialect the runner does not check (read as draft-07 instead) and a `$schema` below the
 * root are dropped; the check is only ever laxer.
 */
export function outputValidator(schema: Record<string, unknown>): { ok: true; validate: SchemaValidator } | { ok: false; problem: string } {
  try {
    const root = loosened(schema) as Record<string, unknown>;
    if (typeof schema.$schema === 'string' && schemaDialect({ $schema: schema.$schema }).ok) root.$schema = schema.$schema;
    return { ok: true, validate: compileSchema(root, { check: true }) };
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
