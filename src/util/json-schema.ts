// One Ajv instance for the process; each schema is compiled once by its owner and kept.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvClassFor, schemaDialect, type SchemaDialect } from './ajv.js';

/** Returns null when the value is valid, otherwise one readable line naming every problem. */
export type SchemaValidator = (value: unknown) => string | null;

const instances = new Map<SchemaDialect, Ajv>();

/**
 * Tool and MCP schemas use `format` freely; without ajv-formats it is documentation, and Ajv's
 * "unknown format ignored" warnings must not reach stderr. Schemas are checked against the
 * meta-schema only when they come from outside (compileSchema's `check`): compiling the
 * meta-schema costs ~25 ms, which every run would pay for the built-in tools' own schemas.
 * The build generates the built-in tools' validators with the same options (tools/param-validators.ts).
 */
export const TOOL_AJV_OPTIONS = { allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false, logger: false, validateSchema: false } as const;

function instance(dialect: SchemaDialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv) instances.set(dialect, (ajv = new (ajvClassFor(dialect))(TOOL_AJV_OPTIONS)));
  return ajv;
}

/**
 * `check`: the schema comes from outside (MCP servers, discovery, recipes) and must first pass
 * the JSON Schema meta-schema of the dialect its `$schema` names; an invalid one throws with the reasons.
 */
export function compileSchema(schema: object, opts: { check?: boolean } = {}): SchemaValidator {
  const dialect = schemaDialect(schema);
  if (!dialect.ok) throw new Error(`not a usable JSON Schema: ${dialect.problem}`);
  const ajv = instance(dialect.dialect);
  if (opts.check && !ajv.validateSchema(schema)) {
    throw new Error(`not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
  }
  const validate = ajv.compile(schema);
  // The instance is shared, and Ajv keeps every compiled schema under its `$id`: a second schema of
  // the same `$id` (the same tool of two instances of one MCP server, two tools sharing a result
  // type) was refused as "already exists", leaving its tool out. The compiled function stands alone.
  ajv.removeSchema(schema);
  return schemaValidator(validate);
}

/** A compiled ajv function as a SchemaValidator: null, or one readable line of problems. */
export function schemaValidator(validate: ValidateFunction): SchemaValidator {
  return (value) => (validate(value) ? null : formatErrors(validate.errors ?? []));
}

export function formatErrors(errors: ErrorObject[]): string {
  return errors.map(describeError).join('; ');
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath ? `'${e.instancePath.slice(1).replaceAll('/', '.')}'` : 'params';
  switch (e.keyword) {
    case 'required':
      return `missing required parameter '${(e.params as { missingProperty: string }).missingProperty}'`;
    case 'additionalProperties':
      return `unknown parameter '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    case 'enum':
      return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${e.message ?? 'is invalid'}`;
  }
}
