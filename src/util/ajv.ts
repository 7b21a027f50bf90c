// ajv, required on first use from its own file (util/assets.ts says why): most runs never compile a
// schema at run time (the recipe's and the built-in tools' validators are generated at build time),
// and loading ajv's 176 kB with the start-up code cost every CLI start its parse.
import type { Ajv as AjvClass } from 'ajv';
import { requireAsset } from './assets.js';

export function ajvClass(): typeof AjvClass {
  return requireAsset<typeof import('ajv')>('ajv.cjs').Ajv;
}

/** The JSON Schema dialects a schema from outside may name in `$schema`; draft-07 is Ajv's own. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

const DIALECTS: ReadonlyArray<readonly [RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/(draft-07\/)?schema#?$/, 'draft-07'],
  [/^https:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];

/**
 * The dialect a schema names (draft-07 when it names none), or a sentence saying why it cannot be
 * used. Ajv's default class knows draft-07 alone and throws "no schema with key or ref" on any
 * other `$schema`, and 2020-12 is what zod 4 and the MCP spec write.
 */
export function schemaDialect(schema: object): { ok: true; dialect: SchemaDialect } | { ok: false; problem: string } {
  const named = (schema as { $schema?: unknown }).$schema;
  if (named === undefined) return { ok: true, dialect: 'draft-07' };
  const found = typeof named === 'string' ? DIALECTS.find(([uri]) => uri.test(named)) : undefined;
  if (found) return { ok: true, dialect: found[1] };
  return {
    ok: false,
    problem: `$schema names the dialect ${JSON.stringify(named)}, which the runner does not check: name draft-07, 2019-09 or 2020-12 (https://json-schema.org/draft/2020-12/schema), or leave $schema out (draft-07)`,
  };
}

/** The Ajv class for a dialect; the 2019-09 and 2020-12 ones are loaded only for a schema that names them. */
export function ajvClassFor(dialect: SchemaDialect): typeof AjvClass {
  if (dialect === '2020-12') return requireAsset<typeof import('ajv/dist/2020.js')>('ajv2020.cjs').Ajv2020 as unknown as typeof AjvClass;
  if (dialect === '2019-09') return requireAsset<typeof import('ajv/dist/2019.js')>('ajv2019.cjs').Ajv2019 as unknown as typeof AjvClass;
  return ajvClass();
}
