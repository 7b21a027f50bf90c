import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { RECIPE_SCHEMA } from '../../src/recipe/index.js';

const published = readFileSync('schema/recipe.schema.json', 'utf8');

describe('the published JSON Schema (schema/recipe.schema.json)', () => {
  it('is exactly the schema the validator uses (regenerate: npm run build && node scripts/write-schema.mjs)', () => {
    expect(published).toBe(`${JSON.stringify(RECIPE_SCHEMA, null, 2)}\n`);
  });

  it('is a valid draft-07 schema that an editor accepts the full example recipe against', () => {
    const ajv = new Ajv({ strict: false, allowUnionTypes: true });
    const schema = JSON.parse(published) as object;
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    const validate = ajv.compile(schema);
    const full = parse(readFileSync('test/fixtures/recipes/full/full.yaml', 'utf8')) as unknown;
    expect(validate(full), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ version: 1, confirmation: { mode: 'ask' } })).toBe(false);
  });
});
