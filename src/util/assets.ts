// Files the CLI loads at run time that are not JavaScript it imports: the bash grammar and the
// tree-sitter runtime (.wasm), the price table (required for one lookup, then let go), and libraries only some
// commands or calls use (ajv, yaml; jsdiff, once a file tool changed a file; picomatch and
// ignore, once a tool walks the workspace or a path rule is compiled), required on first use. A
// build puts them in dist/assets/ (scripts/build.mjs: copied, or bundled into one CommonJS file
// each, LAZY_LIBRARIES there), so the published package
// needs no node_modules; from source (the tests) they are found in the packages that provide them.
//
// Why ajv and yaml are not simply bundled: a bundled module is read and parsed whenever the chunk
// that imports it loads, even when none of its code runs. The two were 333 of the 1,156 kB every
// run parsed before its first model request (a --prompt run reads no YAML, and the built-in tools'
// schemas are compiled at build time: tools/param-validators.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Asset file name -> the package specifier that provides it in node_modules. */
export const ASSETS = {
  'tree-sitter-bash.wasm': 'tree-sitter-bash/tree-sitter-bash.wasm',
  'web-tree-sitter.wasm': 'web-tree-sitter/web-tree-sitter.wasm',
  'genai-prices.cjs': '@pydantic/genai-prices',
  'ajv.cjs': 'ajv',
  'ajv2019.cjs': 'ajv/dist/2019',
  'ajv2020.cjs': 'ajv/dist/2020',
  'ajv-formats.cjs': 'ajv-formats/dist/formats',
  'yaml.cjs': 'yaml',
  'diff.cjs': 'diff',
  'picomatch.cjs': 'picomatch',
  'ignore.cjs': 'ignore',
} as const;

export type AssetName = keyof typeof ASSETS;

/**
 * The absolute path of an asset. Every bundled file lies one level below dist/ (dist/cli/,
 * dist/vendor/, dist/action/), so dist/assets/ is `../assets/` from any of them. Throws when the
 * asset is neither there nor installed.
 */
export function assetPath(name: AssetName): string {
  const bundled = fileURLToPath(new URL(`../assets/${name}`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve(ASSETS[name]);
}

/** A library bundled as a CommonJS asset; the price table is one too, but price-table.ts requires it for one lookup and lets it go. */
type LibraryAsset = Exclude<Extract<AssetName, `${string}.cjs`>, 'genai-prices.cjs'>;

const required = new Map<LibraryAsset, unknown>();

/** A CommonJS asset (ajv, yaml, diff, picomatch, ignore), required on first use and kept: later calls cost a lookup. */
export function requireAsset<T>(name: LibraryAsset): T {
  if (!required.has(name)) required.set(name, createRequire(import.meta.url)(assetPath(name)));
  return required.get(name) as T;
}
