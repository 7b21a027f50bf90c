// The build replaces src/tools/param-validators.ts with validators generated ahead of time for the
// built-in tools' schemas. They must cover every built-in (or a shipped run loads ajv after all) and
// answer exactly as the validators compiled at run time answer, errors included.
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript of the build, without types
import { precompiledToolValidators } from '../../scripts/build-plugins.mjs';
import { ALL_BUILTIN_FACTORY_NAMES, createBuiltinTools } from '../../src/tools/builtin/index.js';
import type { AnyTool } from '../../src/tools/tools.js';
import { compileSchema, schemaValidator } from '../../src/util/json-schema.js';
import { Workspace } from '../../src/util/workspace.js';
import { tempDir } from '../helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');
type Lookup = (schemaJson: string) => Parameters<typeof schemaValidator>[0] | undefined;
let lookup: Lookup;
let tools: AnyTool[];

beforeAll(async () => {
  // The generated module, as the build makes it (bundled with its ajv runtime helpers).
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: ['src/tools/param-validators.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
    plugins: [precompiledToolValidators(`${root}/`)],
  });
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0]!.text).toString('base64')}`)) as { precompiledValidator: Lookup };
  lookup = mod.precompiledValidator;
  const ctx = { workspace: Workspace.open(tempDir()), env: {}, maxTimeoutMs: 60_000, memoryFile: '/tmp/memory.md', search: async () => [], runSubAgent: async () => ({}) as never };
  tools = createBuiltinTools(ctx as never, ALL_BUILTIN_FACTORY_NAMES);
}, 60_000);

/** Arguments that break each kind of rule a tool schema has: missing, unknown, mistyped, out of range. */
function probes(tool: AnyTool): unknown[] {
  const props = (tool.parameterSchema.properties ?? {}) as Record<string, { type?: string }>;
  const mistyped = Object.fromEntries(Object.entries(props).map(([name, p]) => [name, p.type === 'string' ? 42 : 'text']));
  const strings = Object.fromEntries(Object.keys(props).map((name) => [name, 'x'.repeat(2_000)]));
  return [{}, null, 'text', [], { unknown_parameter: 1 }, mistyped, strings, { ...mistyped, unknown_parameter: true }];
}

describe('the built-in tools’ validators generated at build time', () => {
  it('cover every built-in tool', () => {
    const missing = tools.filter((tool) => !lookup(JSON.stringify(tool.parameterSchema))).map((tool) => tool.name);
    expect(tools.length).toBe(ALL_BUILTIN_FACTORY_NAMES.length);
    expect(missing).toEqual([]);
  });

  it('give the same answers and the same error lines as the validators compiled at run time', () => {
    for (const tool of tools) {
      const built = schemaValidator(lookup(JSON.stringify(tool.parameterSchema))!);
      const compiled = compileSchema(tool.parameterSchema);
      for (const value of probes(tool)) expect([tool.name, built(value)]).toEqual([tool.name, compiled(value)]);
    }
  });

  it('know nothing of other schemas (an MCP tool’s is compiled at run time)', () => {
    expect(lookup(JSON.stringify({ type: 'object', properties: { q: { type: 'string' } } }))).toBeUndefined();
  });
});
