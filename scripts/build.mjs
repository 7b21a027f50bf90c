// The build: type-check with tsc (no emit), then bundle with esbuild into dist/.
//
// Why bundles: start-up is measured (to the first model request, `npm run bench`). Node spent a
// large part of a run's first 300 ms resolving, reading and linking several hundred ES module
// files. The command's own code is one CommonJS file (dist/cli/main.cjs), compiled against a V8
// code cache by the launcher; each dependency group is a CommonJS file of its own in dist/vendor/,
// read only by the runs that reach it (the provider SDKs, MCP, OpenTelemetry, ...).
//
// The published package is self-contained: every dependency is bundled, and the files loaded at run
// time that are not imported JavaScript are copied to dist/assets/ (src/util/assets.ts finds them
// there): the bash grammar and the tree-sitter runtime (.wasm), and the price table's CommonJS
// build with its data as JSON (scripts/price-table-json.mjs; src/providers/price-table.ts requires it
// for one lookup). So `dependencies` is empty and an install downloads one package.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { withJsonPriceData } from './price-table-json.mjs';
import { builtinsByGetBuiltinModule, lazyAssert, lazyStringWidth, yargsPackageRoot, precompiledRecipeValidator, precompiledToolValidators, vendorBundles, vendoredPackages } from './build-plugins.mjs';

const root = new URL('..', import.meta.url).pathname;
const typecheck = !process.argv.includes('--no-typecheck');
if (typecheck) execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`, '--noEmit'], { stdio: 'inherit' });

const REQUIRE_BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

rmSync(`${root}dist`, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  // Less source to read and parse at every start; names are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: false,
  logLevel: 'warning',
};
/** A CommonJS file's import.meta.url: bundled ES modules ask it for their own location. */
const FILE_URL = {
  define: { 'import.meta.url': '__unattendedFileUrl' },
  banner: { js: "const __unattendedFileUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** One self-contained CommonJS file: the launcher's help, and the libraries required on first use. */
function commonJsBundle(entry, outfile, options = {}) {
  return build({ ...common, entryPoints: [entry], outfile, format: 'cjs', ...options });
}

// Specifier -> dist/vendor/ group, for every package the command or the Action imports.
const vendored = new Map();

// The command's code: src/cli/main.ts and all it imports, one CommonJS file, which the launcher
// compiles against a V8 code cache (scripts/bin/code-cache.cjs says why). Dynamic imports of its
// own modules stay lazy: esbuild initialises a module when its import() runs.
await build({
  ...common,
  ...FILE_URL,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli/main.cjs',
  format: 'cjs',
  // Maps without the sources' text: with --enable-source-maps a stack trace still names src/...ts lines.
  sourcemap: true,
  sourcesContent: false,
  plugins: [precompiledRecipeValidator(root), precompiledToolValidators(root), builtinsByGetBuiltinModule(), vendoredPackages(vendored)],
});
// The launcher reads main.cjs as Latin-1 when it is ASCII, ~4 ms of each start less than decoding
// UTF-8 (scripts/bin/code-cache.cjs). esbuild escapes strings and templates but leaves a regular
// expression's characters as written, so a non-ASCII one is refused here rather than quietly
// costing every start.
assertAscii(`${root}dist/cli/main.cjs`);
// The Action's entry, an ES module (action.yml runs `node dist/action/main.js`); it starts the
// command as a process of its own.
await build({
  ...common,
  entryPoints: ['src/action/main.ts'],
  outfile: 'dist/action/main.js',
  format: 'esm',
  sourcemap: true,
  sourcesContent: false,
  // The vendored packages are CommonJS files it require()s.
  banner: { js: REQUIRE_BANNER },
  plugins: [builtinsByGetBuiltinModule(), vendoredPackages(vendored)],
});
// The packages both import (build-plugins.mjs vendoredPackages says how they are split).
await vendorBundles(root, vendored, {
  ...common,
  ...FILE_URL,
  format: 'cjs',
  plugins: [lazyStringWidth(root), lazyAssert(), yargsPackageRoot(), builtinsByGetBuiltinModule()],
});
// The command itself: a CommonJS launcher of dist/cli/main.cjs (scripts/bin/unattended.cjs says why),
// stamped with the build's id, which names its code cache; and `node dist/cli/main.js`, as before.
const buildId = createHash('sha256').update(readFileSync(`${root}dist/cli/main.cjs`)).digest('hex').slice(0, 16);
const launcher = readFileSync(`${root}scripts/bin/unattended.cjs`, 'utf8');
if (!launcher.includes('const BUILD = null;')) throw new Error('scripts/bin/unattended.cjs has no BUILD to stamp');
writeFileSync(`${root}dist/cli/unattended.cjs`, launcher.replace('const BUILD = null;', `const BUILD = ${JSON.stringify(buildId)};`));
chmodSync(`${root}dist/cli/unattended.cjs`, 0o755);
copyFileSync(`${root}scripts/bin/code-cache.cjs`, `${root}dist/cli/code-cache.cjs`);
writeFileSync(
  `${root}dist/cli/main.js`,
  "#!/usr/bin/env node\n// `node dist/cli/main.js …`: the command, through its launcher (unattended.cjs).\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./unattended.cjs');\n",
);
chmodSync(`${root}dist/cli/main.js`, 0o755);
// Help and completion for the launcher: the command line's grammar as one CommonJS file (src/cli/help.ts).
// yargs' ES module build asks import.meta.url for its own location (FILE_URL).
await commonJsBundle('src/cli/help.ts', 'dist/cli/help.cjs', { ...FILE_URL, plugins: [lazyStringWidth(root), lazyAssert(), yargsPackageRoot()] });

// Asset name -> the installed file it is copied from (the same table as src/util/assets.ts).
const ASSETS = {
  'tree-sitter-bash.wasm': 'tree-sitter-bash/tree-sitter-bash.wasm',
  'web-tree-sitter.wasm': 'web-tree-sitter/web-tree-sitter.wasm',
  'genai-prices.cjs': '@pydantic/genai-prices',
};
const require = createRequire(`${root}package.json`);
mkdirSync(`${root}dist/assets`, { recursive: true });
for (const [name, specifier] of Object.entries(ASSETS)) copyFileSync(require.resolve(specifier), `${root}dist/assets/${name}`);
// The price table's data as JSON, which V8 parses faster than the same literal as code (the table's
// load: 46-47 -> 36-37 ms, scripts/price-table-json.mjs).
const pricesFile = `${root}dist/assets/genai-prices.cjs`;
writeFileSync(pricesFile, withJsonPriceData(readFileSync(pricesFile, 'utf8')));

// Libraries required on first use (src/util/assets.ts says why), each bundled into one CommonJS file.
const LAZY_LIBRARIES = { 'ajv.cjs': 'ajv', 'ajv2019.cjs': 'ajv/dist/2019', 'ajv2020.cjs': 'ajv/dist/2020', 'ajv-formats.cjs': 'ajv-formats/dist/formats', 'yaml.cjs': 'yaml', 'diff.cjs': 'diff', 'picomatch.cjs': 'picomatch', 'ignore.cjs': 'ignore' };
for (const [name, specifier] of Object.entries(LAZY_LIBRARIES)) await commonJsBundle(require.resolve(specifier), `dist/assets/${name}`);

/** Throws, naming the first place, when `file` holds a byte outside ASCII. */
function assertAscii(file) {
  const text = readFileSync(file, 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at < 0) return;
  const line = text.slice(0, at).split('\n').length;
  const around = readFileSync(file, 'utf8').split('\n')[line - 1];
  const near = around.slice(Math.max(0, around.search(/[^\x00-\x7f]/) - 60), around.search(/[^\x00-\x7f]/) + 20);
  throw new Error(`${file}:${line}: a character outside ASCII, near: ${near}\nWrite it as an escape (\\uXXXX) in the source's regular expression, so the bundle stays ASCII.`);
}
