// The build: type-check with tsc (no emit), then bundle with esbuild into dist/.
//
// Why a bundle: start-up is measured (`--version` <= 100 ms, a whole 201-turn run <= 1 s), and
// Node spends a large part of a run's first 300 ms resolving, reading and linking several hundred
// ES module files. One entry file plus code-split chunks loads in a fraction of that, and the
// provider SDKs stay in their own chunks, loaded only by the runs that use them (dynamic imports).
//
// The published package is self-contained: every dependency is bundled, and the files loaded at run
// time that are not imported JavaScript are copied to dist/assets/ (src/util/assets.ts finds them
// there): the bash grammar and the tree-sitter runtime (.wasm), and the price table's CommonJS
// build, which runs in a child process (src/providers/price-table.ts). So `dependencies` is empty
// and an install downloads one package.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { builtinsByGetBuiltinModule, lazyAssert, lazyStringWidth, yargsPackageRoot, precompiledRecipeValidator, precompiledToolValidators } from './build-plugins.mjs';

const root = new URL('..', import.meta.url).pathname;
const typecheck = !process.argv.includes('--no-typecheck');
if (typecheck) execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`, '--noEmit'], { stdio: 'inherit' });

const REQUIRE_BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

/**
 * Blanks the banner's line in the files of dist/cli and dist/chunks that do not otherwise mention
 * `require` (most of them): creating it costs each such file a createRequire and its import.meta,
 * a few milliseconds over the files a run loads before its first request. The line stays (empty),
 * so the source maps still match.
 */
function withoutUnusedRequire(dist) {
  for (const dir of ['cli', 'chunks']) {
    for (const name of readdirSync(`${dist}/${dir}`).filter((file) => file.endsWith('.js'))) {
      const file = `${dist}/${dir}/${name}`;
      const text = readFileSync(file, 'utf8');
      // After the entry's #! line, if any.
      const at = text.startsWith('#!') ? text.indexOf('\n') + 1 : 0;
      if (!text.startsWith(`${REQUIRE_BANNER}\n`, at)) throw new Error(`${file} does not start with the require banner`);
      const rest = text.slice(at + REQUIRE_BANNER.length);
      if (!/\brequire\b/.test(rest)) writeFileSync(file, text.slice(0, at) + rest);
    }
  }
}

/** One self-contained CommonJS file: the launcher's help, and the libraries required on first use. */
function commonJsBundle(entry, outfile, options = {}) {
  return build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    ...options,
  });
}

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
  // Maps without the sources' text (3 MB instead of 15): with --enable-source-maps a stack trace
  // still names src/...ts lines, and the package stays small.
  sourcemap: true,
  sourcesContent: false,
  // Less source to read and parse at every start; names are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: false,
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require(); give every chunk one (removed below from the
  // chunks that never name it).
  banner: { js: REQUIRE_BANNER },
  logLevel: 'warning',
  plugins: [precompiledRecipeValidator(root), precompiledToolValidators(root), lazyStringWidth(root), lazyAssert(), yargsPackageRoot(), builtinsByGetBuiltinModule()],
});
chmodSync(`${root}dist/cli/main.js`, 0o755);
withoutUnusedRequire(`${root}dist`);
// The command itself: a CommonJS launcher of dist/cli/main.js (scripts/bin/unattended.cjs says why).
copyFileSync(`${root}scripts/bin/unattended.cjs`, `${root}dist/cli/unattended.cjs`);
chmodSync(`${root}dist/cli/unattended.cjs`, 0o755);
// Help and completion for the launcher: the command line's grammar as one CommonJS file (src/cli/help.ts).
await commonJsBundle('src/cli/help.ts', 'dist/cli/help.cjs', {
  // yargs' ES module build asks import.meta.url for its own location; a CommonJS file has __filename.
  define: { 'import.meta.url': '__unattendedFileUrl' },
  banner: { js: "const __unattendedFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyStringWidth(root), lazyAssert(), yargsPackageRoot()],
});

// Asset name -> the installed file it is copied from (the same table as src/util/assets.ts).
const ASSETS = {
  'tree-sitter-bash.wasm': 'tree-sitter-bash/tree-sitter-bash.wasm',
  'web-tree-sitter.wasm': 'web-tree-sitter/web-tree-sitter.wasm',
  'genai-prices.cjs': '@pydantic/genai-prices',
};
const require = createRequire(`${root}package.json`);
mkdirSync(`${root}dist/assets`, { recursive: true });
for (const [name, specifier] of Object.entries(ASSETS)) copyFileSync(require.resolve(specifier), `${root}dist/assets/${name}`);

// Libraries required on first use (src/util/assets.ts says why), each bundled into one CommonJS file.
const LAZY_LIBRARIES = { 'ajv.cjs': 'ajv', 'yaml.cjs': 'yaml', 'diff.cjs': 'diff', 'picomatch.cjs': 'picomatch', 'ignore.cjs': 'ignore' };
for (const [name, specifier] of Object.entries(LAZY_LIBRARIES)) await commonJsBundle(require.resolve(specifier), `dist/assets/${name}`);
