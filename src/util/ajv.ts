// ajv, evaluated on first use. Every run loads the code that validates tool arguments, but most
// reach their first model request before any schema is compiled; running ajv's module bodies at
// start-up cost ~20 ms of every CLI start. A plain `require` (not `import`) is what lets the bundle
// keep ajv's CommonJS modules unevaluated until this function runs: esbuild bundles it as a lazy
// initialiser, so the shipped CLI never resolves ajv from node_modules at run time.
import type { Ajv as AjvClass } from 'ajv';

let ajv: typeof AjvClass | undefined;

export function ajvClass(): typeof AjvClass {
  ajv ??= (require('ajv') as typeof import('ajv')).Ajv;
  return ajv;
}
