// Writes schema/recipe.schema.json (for editors) from the one schema object in
// src/recipe/schema.ts, compiled in memory with esbuild. A test keeps the two equal.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: ['src/recipe/schema.ts'],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'error',
});
const { RECIPE_SCHEMA } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
const target = new URL('../schema/recipe.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(RECIPE_SCHEMA, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
