// Files the CLI loads at run time that are not JavaScript it imports: the bash grammar and the
// tree-sitter runtime (.wasm), and the price table run in a child process. A build copies them to
// dist/assets/ (scripts/build.mjs), so the published package needs no node_modules; from source
// (the tests) they are found in the packages that provide them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Asset file name -> the package specifier that provides it in node_modules. */
export const ASSETS = {
  'tree-sitter-bash.wasm': 'tree-sitter-bash/tree-sitter-bash.wasm',
  'web-tree-sitter.wasm': 'web-tree-sitter/web-tree-sitter.wasm',
  'genai-prices.cjs': '@pydantic/genai-prices',
} as const;

export type AssetName = keyof typeof ASSETS;

/**
 * The absolute path of an asset. Every bundled file lies one level below dist/ (dist/cli/,
 * dist/chunks/, dist/action/), so dist/assets/ is `../assets/` from any of them. Throws when the
 * asset is neither there nor installed.
 */
export function assetPath(name: AssetName): string {
  const bundled = fileURLToPath(new URL(`../assets/${name}`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve(ASSETS[name]);
}
