// One Ajv instance for the process; each schema is compiled once by its owner and kept.
import { Ajv, type ErrorObject } from 'ajv';

/** Returns null when the value is valid, otherwise one readable line naming every problem. */
export type SchemaValidator = (value: unknown) => string | null;

let ajv: Ajv | undefined;

function instance(): Ajv {
  // Tool and MCP schemas use `format` freely; without ajv-formats it is documentation, and Ajv's
  // "unknown format ignored" warnings must not reach stderr.
  ajv ??= new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false, logger: false });
  return ajv;
}

export function compileSchema(schema: object): SchemaValidator {
  const validate = instance().compile(schema);
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
