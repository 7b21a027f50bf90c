// Parameter schemas from MCP servers and discovery commands, reduced to the JSON Schema subset both
// providers accept. Gemini's `parameters` rejects whole requests over one unknown key
// (`additionalProperties`, `$schema`, `$ref`...), and an unknown `format` makes Ajv print a warning
// mid-run. Cleaning only ever loosens a schema: the server still validates what it receives.
import type { JsonSchema } from '../../types/content.js';

/** Keywords kept as they are; everything else is dropped (whitelist: fail closed on new keywords). */
const KEPT_SCALARS = new Set([
  'title',
  'description',
  'enum',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/**
 * The cleaned schema is sent with every request: larger than this (in JSON) and the tool is left
 * out. Inlining `$ref`s can multiply a small schema (each definition copied wherever it is used).
 */
export const MAX_CLEANED_SCHEMA_BYTES = 64 * 1024;
/** Nodes built before giving up, so a schema that would explode is refused before it fills memory. */
const MAX_NODES = 20_000;

export class SchemaTooLargeError extends Error {
  override readonly name = 'SchemaTooLargeError';
}

interface Walk {
  root: Record<string, unknown>;
  /** The `$ref` targets being inlined on the path from the root to this node: seen again means recursion. */
  expanding: ReadonlySet<object>;
  /** `refs`: how many `$ref`s were inlined, for the message when the result is too large. */
  budget: { nodes: number; refs: number };
}

/**
 * A provider-safe copy of `schema`; the top level is always an object schema. A recursive `$ref`
 * becomes `{}` (any value) instead of being inlined again. Throws SchemaTooLargeError when the
 * result would exceed MAX_CLEANED_SCHEMA_BYTES.
 */
export function cleanParameterSchema(schema: unknown): JsonSchema {
  const root = isRecord(schema) ? schema : {};
  const budget = { nodes: 0, refs: 0 };
  const cleaned = cleanNode(root, { root, expanding: new Set(), budget });
  cleaned.type = 'object';
  if (!isRecord(cleaned.properties)) cleaned.properties = {};
  delete cleaned.nullable;
  const bytes = Buffer.byteLength(JSON.stringify(cleaned));
  if (bytes > MAX_CLEANED_SCHEMA_BYTES) throw tooLarge(`${bytes} bytes`, budget.refs > 0);
  return cleaned;
}

/** Says `$refs inlined` only when some were: a schema that is simply huge is told so. */
function tooLarge(size: string, inlined: boolean): SchemaTooLargeError {
  const schema = inlined ? 'with its $refs inlined the schema' : 'the schema';
  return new SchemaTooLargeError(`${schema} is larger than ${MAX_CLEANED_SCHEMA_BYTES} bytes, the most a tool's parameters may take in every request (${size})`);
}

function cleanNode(node: Record<string, unknown>, walk: Walk): JsonSchema {
  if (++walk.budget.nodes > MAX_NODES) throw tooLarge(`over ${MAX_NODES} schema nodes`, walk.budget.refs > 0);
  if (typeof node.$ref === 'string') {
    const target = resolveLocalRef(walk.root, node.$ref);
    // Sibling keywords of a $ref (often a description) survive; the target fills in the rest.
    const { $ref: _ref, ...siblings } = node;
    if (!target || walk.expanding.has(target)) return {};
    walk.budget.refs++;
    const inner: Walk = { ...walk, expanding: new Set([...walk.expanding, target]) };
    const merged = { ...cleanNode(target, inner), ...cleanNode(siblings, walk) };
    return siblings.nullable === true ? allowNull(merged) : merged;
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (KEPT_SCALARS.has(key)) out[key] = value;
  }
  if (typeof out.description !== 'string') delete out.description;
  if ('const' in node && !('enum' in node)) out.enum = [node.const];
  if (typeof node.format === 'string') {
    // Providers accept few formats and Ajv warns on most: keep the hint for the model in words.
    out.description = [out.description, `Format: ${node.format}.`].filter(Boolean).join(' ');
  }
  if (typeof node.pattern === 'string') {
    // A pattern Ajv cannot compile (Python's `(?P<name>...)`) would leave the whole tool out:
    // it is dropped and kept as a hint; the server still checks it.
    if (compiles(node.pattern)) out.pattern = node.pattern;
    else out.description = [out.description, `Pattern: ${node.pattern}.`].filter(Boolean).join(' ');
  }
  const { types, nullable: nullType } = typesOf(node.type);
  let nullable = nullType || node.nullable === true;
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));

  if (isRecord(node.properties)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, sub] of Object.entries(node.properties)) {
      properties[name] = isRecord(sub) ? cleanNode(sub, walk) : {};
    }
    out.properties = properties;
    if (Array.isArray(node.required)) {
      // Gemini rejects a `required` entry with no matching property.
      out.required = node.required.filter((r): r is string => typeof r === 'string' && r in properties);
    }
  }
  // Beside 2020-12's `prefixItems` (a tuple, which the providers' subset cannot say), `items` is
  // the schema of the items after the tuple's, not of every item: kept, it refused a right call.
  if (isRecord(node.items) && !Array.isArray(node.prefixItems)) out.items = cleanNode(node.items, walk);

  // oneOf -> anyOf loosens "exactly one" to "at least one"; allOf, not, if/then/else are dropped.
  // A `{type: "null"}` alternative (pydantic's Optional[X]) becomes nullability of the others.
  const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (alternatives) {
    const kept: JsonSchema[] = [];
    for (const alt of alternatives.filter(isRecord)) {
      if (isNullOnly(alt)) nullable = true;
      else kept.push(cleanNode(alt, walk));
    }
    const single = kept.length === 1 && out.type === undefined ? mergeable(out, kept[0]!) : null;
    if (single) Object.assign(out, single);
    else if (kept.length > 0) out.anyOf = kept;
  }
  return nullable ? allowNull(out) : out;
}

/** `type: ["string", "null"]` -> `["string"]` and nullable; `OBJECT` -> `object`; unknown names dropped. */
function typesOf(type: unknown): { types: string[]; nullable: boolean } {
  const names = (Array.isArray(type) ? type : [type])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.toLowerCase())
    .filter((t) => JSON_TYPES.has(t));
  const types = [...new Set(names.filter((t) => t !== 'null'))];
  return { types, nullable: types.length < names.length };
}

function isNullOnly(schema: Record<string, unknown>): boolean {
  const { types, nullable } = typesOf(schema.type);
  return nullable && types.length === 0;
}

/**
 * The one alternative left folded into its parent (`{anyOf: [{type: "string"}], title}` ->
 * `{type: "string", title}`), when no keyword but an annotation is in both; else null.
 */
function mergeable(parent: JsonSchema, alt: JsonSchema): JsonSchema | null {
  const annotations = new Set(['title', 'description', 'default']);
  for (const key of Object.keys(alt)) {
    if (key in parent && !annotations.has(key)) return null;
  }
  const merged: JsonSchema = { ...alt };
  for (const key of annotations) if (key in parent) delete merged[key];
  return merged;
}

/**
 * The same schema, accepting null too. `nullable` goes only beside a single `type` (Ajv refuses
 * it anywhere else, and so do the providers' schema subsets); a union carries it in each branch;
 * a schema with no type already accepts null, unless an enum says otherwise.
 */
function allowNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') schema.nullable = true;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (Array.isArray(schema.anyOf)) schema.anyOf = (schema.anyOf as JsonSchema[]).map((alt) => allowNull({ ...alt }));
  return schema;
}

/** As Ajv compiles patterns: with the `u` flag. */
export function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** JSON pointers inside the same document only (`#/$defs/x`, `#/properties/a`); nothing remote. */
function resolveLocalRef(root: Record<string, unknown>, ref: string): Record<string, unknown> | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return isRecord(node) ? node : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
