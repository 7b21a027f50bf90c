// Writes schema/recipe.schema.json (for editors) from the one schema object in
// src/recipe/schema.ts, as built into dist/. Run after `npm run build`; a test keeps them equal.
import { writeFileSync } from 'node:fs';

const built = new URL('../dist/recipe/schema.js', import.meta.url);
const { RECIPE_SCHEMA } = await import(built.href).catch(() => {
  console.error(`write-schema: ${built.pathname} not found: run \`npm run build\` first`);
  process.exit(1);
});
const target = new URL('../schema/recipe.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(RECIPE_SCHEMA, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
