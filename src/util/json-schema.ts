// One Ajv instance for the process; each schema is compiled once by its owner and kept.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvClassFor, schemaDialect, type SchemaDialect } from './ajv.js';
import { requireAsset } from './assets.js';

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
  return schemaValidator(compileWith(instance, schema, opts.check === true));
}

/** The final answer's schema compiled: its validator, and a sentence for each `format` it cannot check. */
export interface AnswerSchema {
  validate: SchemaValidator;
  unchecked: string[];
}

const answerInstances = new Map<SchemaDialect, Ajv>();
/** What Ajv said while the last answer schema compiled: its "unknown format ... ignored" notes. */
let ajvNotes: string[] = [];
const UNKNOWN_FORMAT = /^unknown format "(.*)" ignored in schema at path "#?(.*)"$/;

/**
 * The final answer's schema (output.schema, --output-schema) is the user's check of the result, so
 * there `format` is asserted: `"format": "date"` refuses "yesterday", as the user meant it to. Tool
 * schemas keep it as documentation (TOOL_AJV_OPTIONS): a server's own check is the one that counts.
 * A format no one defines (ajv-formats' full set: date, date-time, email, uri, uuid, ipv4, ...) cannot
 * be checked; each such is named, so a run does not pass silently what the user thought was checked.
 */
export function compileAnswerSchema(schema: object): AnswerSchema {
  ajvNotes = [];
  const validate = schemaValidator(compileWith(answerInstance, schema, true));
  const unchecked = ajvNotes.flatMap((note) => {
    const m = UNKNOWN_FORMAT.exec(note);
    if (!m) return [];
    const where = m[2] ? ` at '${m[2].slice(1).replaceAll('/', '.')}'` : '';
    return [`output.schema: the format "${m[1]}"${where} is not checked (no such format is defined): the answer passes whatever that value is; add a pattern to check it`];
  });
  return { validate, unchecked: [...new Set(unchecked)] };
}

function answerInstance(dialect: SchemaDialect): Ajv {
  let ajv = answerInstances.get(dialect);
  if (ajv) return ajv;
  const logger = { log() {}, warn: (...args: unknown[]) => void ajvNotes.push(args.map(String).join(' ')), error() {} };
  ajv = new (ajvClassFor(dialect))({ ...TOOL_AJV_OPTIONS, validateFormats: true, logger });
  const { fullFormats } = requireAsset<typeof import('ajv-formats/dist/formats.js')>('ajv-formats.cjs');
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  answerInstances.set(dialect, ajv);
  return ajv;
}

function compileWith(instanceOf: (dialect: SchemaDialect) => Ajv, schema: object, check: boolean): ValidateFunction {
  const dialect = schemaDialect(schema);
  if (!dialect.ok) throw new Error(`not a usable JSON Schema: ${dialect.problem}`);
  const ajv = instanceOf(dialect.dialect);
  if (check && !ajv.validateSchema(schema)) {
    throw new Error(`not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
  }
  const validate = ajv.compile(schema);
  // The instance is shared, and Ajv keeps every compiled schema under its `$id`: a second schema of
  // the same `$id` (the same tool of two instances of one MCP server, two tools sharing a result
  // type) was refused as "already exists", leaving its tool out. The compiled function stands alone.
  ajv.removeSchema(schema);
  return validate;
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
