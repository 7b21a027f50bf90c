// The build: type-check with tsc (no emit), then bundle with esbuild into dist/.
//
// Why a bundle: start-up is measured (`--version` <= 100 ms, a whole 201-turn run <= 1 s), and
// Node spends a large part of a run's first 300 ms resolving, reading and linking several hundred
// ES module files. One entry file plus code-split chunks loads in a fraction of that, and the
// provider SDKs stay in their own chunks, loaded only by the runs that use them (dynamic imports).
// web-tree-sitter and tree-sitter-bash stay external: their .wasm files are found through
// node_modules at run time.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { lazyStringWidth, precompiledRecipeValidator } from './build-plugins.mjs';

const root = new URL('..', import.meta.url).pathname;
const typecheck = !process.argv.includes('--no-typecheck');
if (typecheck) execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`, '--noEmit'], { stdio: 'inherit' });

const entryPoints = ['src/cli/main.ts', 'src/action/main.ts'].filter((entry) => existsSync(`${root}${entry}`));
rmSync(`${root}dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // Less source to read and parse at every start; names are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: false,
  chunkNames: 'chunks/[name]-[hash]',
  external: ['web-tree-sitter', 'tree-sitter-bash'],
  // Bundled CommonJS dependencies call require(); give every chunk one.
  banner: { js: "import { createRequire as __unattendedRequire } from 'node:module'; const require = __unattendedRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [precompiledRecipeValidator(root), lazyStringWidth(root)],
});
chmodSync(`${root}dist/cli/main.js`, 0o755);
