// The built-in tools' parameter validators, generated at build time. From source there are none:
// each tool compiles its schema with ajv at first use (tools.ts). The build replaces this whole
// module with validators generated ahead of time by ajv's standalone code generator, one per
// built-in schema, looked up by the schema's JSON text (scripts/build-plugins.mjs), so a shipped
// run never loads ajv for its built-in tools: requiring ajv and compiling the first schemas cost
// ~30 ms of every run's first tool call. A schema the build did not see (MCP and discovered
// tools, or one changed at run time) is not found and is compiled as before, with the same options.
import type { ValidateFunction } from 'ajv';

export function precompiledValidator(_schemaJson: string): ValidateFunction | undefined {
  return undefined;
}
